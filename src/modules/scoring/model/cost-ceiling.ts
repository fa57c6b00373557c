// A category's positive points are at most what its backing supports (backing.ts: what the wallet lost and cannot
// get back). The curve's constants live in data/scoring/costs.json ("ceiling"), where reviewers change them.
import type { Term } from './terms.js';
import type { ModelParams } from './params.js';

/** The curve's constants (data/scoring/costs.json "ceiling"). */
export type CeilingParams = ModelParams['ceiling'];

/** The most points `usd` of backing supports: 600 at usdAt600, +pointsPerDoubling per doubling, 0-1000. */
export function ceilingFor(usd: number, C: CeilingParams): number {
  if (!(usd > 0)) return 0;
  const c = C.pointsPerDoubling * Math.log2(usd / C.usdAt600) + 600;
  // floor: 600 only from usdAt600 itself, never from a rounding below it
  return Math.floor(Math.min(1000, Math.max(0, c)));
}

const usd = (n: number) =>
  `$${n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n >= 10 ? n.toFixed(0) : n.toFixed(2)}`;

/**
 * The term that holds a category's positive points to what its backing supports (none when under it). Negative
 * terms (liquidations, upheld claims) still apply in full below the ceiling. `unpriced`: the category's own evidence
 * has no measurable cost, so it may reach CEILING.unpricedCap without any, and above that only what `backingUsd`
 * supports.
 */
export function ceilingTerm(terms: readonly Term[], backingUsd: number, what: string, C: CeilingParams, unpriced = false): Term | null {
  let positive = 0;
  for (const t of terms) if (t.points > 0) positive += t.points;
  const backed = ceilingFor(backingUsd, C);
  const limit = unpriced ? Math.max(C.unpricedCap, backed) : backed;
  if (positive <= limit) return null;
  const held = Math.round(positive);
  if (unpriced && limit === C.unpricedCap) {
    return {
      code: 'UNPRICED_EVIDENCE_CAP',
      description: `no cost can be measured for this evidence, and the ${usd(backingUsd)} this wallet lost elsewhere supports ${backed}: ${held} points of conduct held to ${limit}`,
      points: limit - positive,
      pinned: true,
    };
  }
  const why =
    limit === 0
      ? `${usd(backingUsd)} of ${what} is too little to support any points`
      : `${usd(backingUsd)} of ${what} supports at most ${limit} points`;
  return {
    code: 'COST_CEILING',
    description: `${why}: ${held} points of conduct held to ${limit}`,
    points: limit - positive,
    pinned: true,
  };
}
