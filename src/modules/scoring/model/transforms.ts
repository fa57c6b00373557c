// Bounded, monotone building blocks of the scoring model and the read-time rules (tiers, decay).
// Every feature enters a category through one of these, so no single feature can dominate without limit.

/** Saturating transform 1 - e^(-x/k): 0 at x = 0, 0.63 at x = k, 0.86 at 2k, 0.95 at 3k, never above 1. */
export function sat(x: number, k: number): number {
  return x <= 0 ? 0 : 1 - Math.exp(-x / k);
}

/** Logarithmic cap log(1+x)/log(1+cap), clipped to 1 at x >= cap. */
export function logCap(x: number, cap: number): number {
  return x <= 0 ? 0 : Math.min(1, Math.log1p(x) / Math.log1p(cap));
}

export const clamp = (x: number, lo: number, hi: number) => (x < lo ? lo : x > hi ? hi : x);

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The spec's range table; the label is a plain string on the wire. */
export const TIERS: readonly { min: number; max: number; label: string }[] = [
  { min: 0, max: 199, label: 'Very Low' },
  { min: 200, max: 399, label: 'Low' },
  { min: 400, max: 599, label: 'Medium' },
  { min: 600, max: 799, label: 'High' },
  { min: 800, max: 1000, label: 'Very High' },
];

export function tierFor(score: number): string {
  if (score >= 800) return 'Very High';
  if (score >= 600) return 'High';
  if (score >= 400) return 'Medium';
  if (score >= 200) return 'Low';
  return 'Very Low';
}

const DAY_MS = 86_400_000;

/** decayed = confidence x 0.95^(days/30) since `anchor` (the last new evidence), compounding; never negative days. */
export function decayConfidence(confidence: number, anchor: Date | null, now: Date): number {
  if (!anchor) return round3(confidence);
  const days = Math.max(0, (now.getTime() - anchor.getTime()) / DAY_MS);
  return round3(confidence * Math.pow(0.95, days / 30));
}

// Number#toString(16) costs several times the hash itself; a byte table gives the same digits.
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const hex8 = (h: number) => HEX[h >>> 24] + HEX[(h >>> 16) & 255] + HEX[(h >>> 8) & 255] + HEX[h & 255];

/** FNV-1a over a string, 2 x 32 bits as hex: a short fingerprint of a category's inputs (not security-relevant). */
export function fingerprint(s: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return hex8(h1 >>> 0) + hex8(h2 >>> 0);
}
