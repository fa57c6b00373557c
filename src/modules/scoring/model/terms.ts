// A category is the sum of signed terms (points), clipped to 0-1000; the largest terms become its reason codes.
import type { Category, Factor } from '../contracts.js';
import { clamp, round3, sat } from './transforms.js';

export interface Term {
  code: string;
  description: string;
  /** signed points */
  points: number;
  /** always listed among the factors (debt claims: an integrator must see why they moved nothing or a lot) */
  pinned?: boolean;
}

export interface CategoryResult {
  category: Category;
  /** model score 0-1000 (before any dispute override): conduct held to what the backing supports */
  score: number;
  /** the conduct score before the backing ceiling, 0-1000 (how the wallet behaves) */
  conduct: number;
  /** USD the wallet lost and cannot get back that backs this category; null for verification categories */
  backingUsd: number | null;
  /** confidence before read-time decay, 0-1 */
  confidence: number;
  factors: Factor[];
  /** fingerprint of every input this category used: a dispute override lasts until it changes */
  inputsKey: string;
  /** fingerprint of the off-chain inputs (claims, KYC, DID, sanctions); '' when none. A change is new evidence. */
  offchainKey: string;
  /** the category's latest own on-chain evidence (its decay anchor with the off-chain changes); null: none */
  evidenceAt?: Date | null;
  /** how far the category's points fell below 0 (liquidations, upheld claims, a rejected KYC beyond what it earned):
   *  the score stops at 0, OVERALL counts the rest */
  below?: number;
  /** the same for its conduct */
  conductBelow?: number;
}

/** How many reason codes an entry carries. */
export const MAX_FACTORS = 6;

/** Sorts by absolute impact, largest first, in place: an insertion sort, stable as Array#sort is (ties keep their
 *  order), and several times faster than Array#sort with a comparator on the handful of factors a category has. */
export function sortByImpact(factors: Factor[]): Factor[] {
  for (let i = 1; i < factors.length; i++) {
    const f = factors[i];
    const a = Math.abs(f.impact);
    let j = i - 1;
    while (j >= 0 && Math.abs(factors[j].impact) < a) {
      factors[j + 1] = factors[j];
      j--;
    }
    factors[j + 1] = f;
  }
  return factors;
}

/** The largest terms by absolute points (pinned ones always), largest first; zero-point terms only if pinned. */
export function topFactors(terms: readonly Term[], empty?: { code: string; description: string }): Factor[] {
  // hot path of every score: one array per group, no spreads; both sorts stable, so ties keep the terms' order
  const pinned: Factor[] = [];
  let rest: Factor[] | null = null;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    const impact = Math.round(t.points);
    if (t.pinned) pinned.push({ code: t.code, description: t.description, impact });
    else if (impact !== 0) (rest ??= []).push({ code: t.code, description: t.description, impact });
  }
  if (rest === null)
    return pinned.length === 0 ? (empty ? [{ code: empty.code, description: empty.description, impact: 0 }] : []) : sortByImpact(pinned);
  sortByImpact(rest);
  const room = Math.min(rest.length, Math.max(0, MAX_FACTORS - pinned.length));
  for (let i = 0; i < room; i++) pinned.push(rest[i]);
  return sortByImpact(pinned);
}

export const sumPoints = (terms: readonly Term[]) => {
  let s = 0;
  for (const t of terms) s += t.points;
  return s;
};

export const toScore = (points: number) => Math.round(clamp(points, 0, 1000));

/**
 * Confidence from the evidence behind a category:
 *   0.05 + 0.9 x (0.6 x amount + 0.25 x diversity + 0.15 x sources)
 * amount = 1 - e^(-evidence/k), diversity = share of the category's evidence kinds present,
 * sources = 1 - e^(-chains/1.5) (activity seen on several chains). Bounded to [0.05, 0.95]: never certain.
 * Recency is the read-time decay (transforms.decayConfidence), not part of this number.
 */
export function confidenceOf(evidence: number, k: number, kinds: readonly boolean[], chains: number): number {
  if (evidence <= 0) return 0.05;
  let present = 0;
  for (const b of kinds) if (b) present++;
  const diversity = kinds.length ? present / kinds.length : 0;
  return round3(0.05 + 0.9 * (0.6 * sat(evidence, k) + 0.25 * diversity + 0.15 * sat(chains, 1.5)));
}
