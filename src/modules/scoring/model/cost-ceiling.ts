// Model 3.0.0: a category's positive points are at most what the cost behind them backs (issue 19: "a score must cost
// what it claims"). The constants live in data/scoring/costs.json ("ceiling"), where reviewers change them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WalletFeatures } from '../contracts.js';
import { EMPTY_POSITIONS } from './lending-positions.js';
import type { Term } from './terms.js';

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../data/scoring/costs.json');
export const CEILING = (JSON.parse(readFileSync(FILE, 'utf8')) as {
  ceiling: { usdAt600: number; pointsPerDoubling: number; capitalCostPerYear: number; unpricedCap: number };
}).ceiling;

/** The most points `usd` of measured cost backs: 600 at usdAt600, +pointsPerDoubling per doubling, 0-1000. */
export function ceilingFor(usd: number): number {
  if (!(usd > 0)) return 0;
  const c = CEILING.pointsPerDoubling * Math.log2(usd / CEILING.usdAt600) + 600;
  // floor: 600 only from usdAt600 itself, never from a rounding below it
  return Math.floor(Math.min(1000, Math.max(0, c)));
}

/** USD a year of holding `usdDays` of capital costs (capital x days at the documented rate). */
export const capitalCost = (usdDays: number) => (usdDays * CEILING.capitalCostPerYear) / 365;

/** Lending's measured cost: the wallet's own capital held in the pools (collateral beyond its debt: a loop that
 *  re-supplies what it borrowed adds no capital) over time, and the interest it paid in the share of its collateral
 *  that was its own (a looped position earns supply interest on the borrowed part, which offsets what it pays). */
export function lendingCost(p: { interestUsd: number; collateralUsdDays: number; debtUsdDays: number }): number {
  const own = p.collateralUsdDays > 0 ? Math.max(0, 1 - p.debtUsdDays / p.collateralUsdDays) : 1;
  return p.interestUsd * own + capitalCost(Math.max(0, p.collateralUsdDays - p.debtUsdDays));
}

/** What the wallet paid, per costly category: lending (lendingCost), pool fees paid to others' liquidity (trading),
 *  voting power held over time (governance). Gas is not measured: the real cost is always higher. */
export function measuredCosts(f: WalletFeatures): { lending: number; trading: number; governance: number; total: number } {
  const lending = lendingCost(f.lending.positions ?? EMPTY_POSITIONS);
  const trading = f.trading.feesUsd ?? 0;
  const governance = f.governance.carryUsd ?? 0;
  return { lending, trading, governance, total: lending + trading + governance };
}

const usd = (n: number) => `$${n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0)}`;

/**
 * The term that holds a category's positive points to what its cost backs (none when under it). Negative terms
 * (liquidations, upheld claims) still apply in full below the ceiling. `unpriced`: the category's own evidence has
 * no measurable cost, so it may reach CEILING.unpricedCap without any, and above that only what `costUsd` backs.
 */
export function ceilingTerm(terms: readonly Term[], costUsd: number, what: string, unpriced = false): Term | null {
  let positive = 0;
  for (const t of terms) if (t.points > 0) positive += t.points;
  const backed = ceilingFor(costUsd);
  const limit = unpriced ? Math.max(CEILING.unpricedCap, backed) : backed;
  if (positive <= limit) return null;
  return unpriced && limit === CEILING.unpricedCap
    ? { code: 'UNPRICED_EVIDENCE_CAP', description: `no cost can be measured for this evidence, and ${usd(costUsd)} of measured cost elsewhere backs ${backed}: at most ${limit} points`, points: limit - positive, pinned: true }
    : { code: 'COST_CEILING', description: `${usd(costUsd)} of ${what} backs at most ${limit} points`, points: limit - positive, pinned: true };
}
