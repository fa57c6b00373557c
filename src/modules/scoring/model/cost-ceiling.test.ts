// The cost ceiling (issue 19, item 9): a category's positive points never exceed what its measured cost backs, so
// no category reaches 600 for less than $1,000 of what the wallet itself paid. Gas is not measured: real cost is more.
import { describe, expect, it } from 'vitest';
import type { Category, WalletFeatures } from '../contracts.js';
import { CEILING, ceilingFor, lendingCost, measuredCosts } from './cost-ceiling.js';
import { emptyFeatures, scoreWallet } from './index.js';
import { EMPTY_POSITIONS } from './lending-positions.js';

const wallet = () => {
  const f = emptyFeatures('0x00000000000000000000000000000000000000c1');
  f.chains = [1];
  return f;
};
const result = (f: WalletFeatures, c: Category) => scoreWallet({ features: f }).find((r) => r.category === c)!;

describe('ceilingFor', () => {
  it('is 600 at $1,000 of measured cost and never from less', () => {
    expect(CEILING.usdAt600).toBe(1_000);
    expect(ceilingFor(1_000)).toBe(600);
    expect(ceilingFor(999)).toBeLessThan(600);
    expect(ceilingFor(997.5)).toBeLessThan(600);
  });
  it('rises a fixed step per doubling, is 0 for nothing and stops at 1000', () => {
    const step = CEILING.pointsPerDoubling;
    expect(ceilingFor(2_000)).toBe(600 + step);
    expect(ceilingFor(500)).toBe(600 - step);
    expect(ceilingFor(0)).toBe(0);
    expect(ceilingFor(-5)).toBe(0);
    expect(ceilingFor(Number.NaN)).toBe(0);
    expect(ceilingFor(10)).toBe(0);
    expect(ceilingFor(1e9)).toBe(1000);
    for (let usd = 1; usd < 1e6; usd *= 1.7) expect(ceilingFor(usd * 1.7)).toBeGreaterThanOrEqual(ceilingFor(usd));
  });
});

describe('lending cost', () => {
  it('is the interest paid plus the own capital held over time at the documented rate', () => {
    // $100k of collateral for a year, no debt: $3,000 at 3%
    expect(lendingCost({ interestUsd: 0, collateralUsdDays: 100_000 * 365, debtUsdDays: 0 })).toBeCloseTo(100_000 * CEILING.capitalCostPerYear, 6);
  });
  it('a loop that re-supplies what it borrowed adds no capital, and its interest counts in the own share', () => {
    // $25k of own capital looped to $100k of collateral and $75k of debt for a year, 5% paid on the debt
    const looped = lendingCost({ interestUsd: 3_750, collateralUsdDays: 100_000 * 365, debtUsdDays: 75_000 * 365 });
    // own capital $25k at 3% ($750) and a quarter of the interest: the supply interest on the borrowed $75k that
    // sits in the pool offsets the rest of what the loop pays
    expect(looped).toBeCloseTo(750 + 3_750 * 0.25, 6);
    // the same $25k held without a loop and no debt
    const plain = lendingCost({ interestUsd: 0, collateralUsdDays: 25_000 * 365, debtUsdDays: 0 });
    expect(looped - plain).toBeCloseTo(937.5, 6);
  });
  it('counts interest in full for debt with no visible collateral (a Comet base borrow)', () => {
    expect(lendingCost({ interestUsd: 400, collateralUsdDays: 0, debtUsdDays: 50_000 * 60 })).toBe(400);
  });
});

describe('categories are held to their cost', () => {
  it('DEFI_LENDING: a long, cheap history is capped, named COST_CEILING, and a liquidation still counts below it', () => {
    const f = wallet();
    // $2k borrowed against $2.7k for 20 months: long, clean, almost free ($180 of interest, $150 of capital)
    f.lending.positions = { debtUsdDays: 2_000 * 600, collateralUsdDays: 2_700 * 600, interestUsd: 180, cycles: 12, cycleMonths: 12, avgCycleDays: 50, protocolsHeld: 2, spanDays: 600 };
    const cost = measuredCosts(f).lending;
    expect(cost).toBeLessThan(300);
    const r = result(f, 'DEFI_LENDING');
    expect(r.score).toBe(ceilingFor(cost));
    expect(r.factors.find((x) => x.code === 'COST_CEILING')?.impact).toBeLessThan(0);
    f.lending.liquidations = 1;
    f.lending.liquidatedUsd = 2_000;
    expect(result(f, 'DEFI_LENDING').score).toBeLessThan(r.score);
  });

  it('DEFI_LENDING: a costly history keeps a high score', () => {
    const f = wallet();
    // $100k kept a year, $20k borrowed 25 days a month: ~$820 of interest, ~$2,450 of own capital held
    f.lending.positions = { debtUsdDays: 20_000 * 300, collateralUsdDays: 100_000 * 358, interestUsd: 822, cycles: 12, cycleMonths: 12, avgCycleDays: 25, protocolsHeld: 1, spanDays: 358 };
    expect(measuredCosts(f).lending).toBeGreaterThan(3_000);
    expect(result(f, 'DEFI_LENDING').score).toBeGreaterThanOrEqual(780);
  });

  it('DEFI_TRADING: fees below $1,000 never reach 600, however many days and pools', () => {
    const f = wallet();
    f.distinctTokens = 20;
    f.trading = { swaps: 400, distinctPools: 30, protocols: 3, activeDays: 200, volumeUsd: 400_000, unvaluedSwaps: 0, feesUsd: 990 };
    expect(result(f, 'DEFI_TRADING').score).toBeLessThan(600);
    f.trading.feesUsd = 4_000;
    expect(result(f, 'DEFI_TRADING').score).toBeGreaterThan(700);
  });

  it('GOVERNANCE: full voting power with no carry (features without it) earns nothing', () => {
    const f = wallet();
    f.governance = { votes: 40, proposalsVotedOn: 40, delegationsMade: 2, delegationsReceived: 4, governors: 3, votePower: 30, delegatedPower: 3 };
    expect(result(f, 'GOVERNANCE').score).toBe(0);
    f.governance.carryUsd = 999;
    expect(result(f, 'GOVERNANCE').score).toBeLessThan(600);
    f.governance.carryUsd = 5_000;
    expect(result(f, 'GOVERNANCE').score).toBeGreaterThan(800);
  });

  it('NFT, SOCIAL and DEVELOPER stop at the unpriced cap until the wallet paid $1,000 somewhere it can be measured', () => {
    const f = wallet();
    f.nft = { mints: 40, received: 20, sent: 0, collections: 12 };
    f.distinctCounterparties = 200;
    f.tokenTransfers = 300;
    f.activeMonths = 36;
    f.txCount = 500;
    f.developer = { contractsDeployed: 10, contractsWithCode: 10, usedContracts: 10, thirdPartyUsers: 200 };
    for (const c of ['NFT', 'SOCIAL', 'DEVELOPER'] as const) {
      const r = result(f, c);
      expect(r.score, c).toBe(CEILING.unpricedCap);
      expect(r.factors.find((x) => x.code === 'UNPRICED_EVIDENCE_CAP'), c).toBeDefined();
    }
    f.trading = { swaps: 10, distinctPools: 1, protocols: 1, activeDays: 10, volumeUsd: 1e6, unvaluedSwaps: 0, feesUsd: 4_000 };
    for (const c of ['NFT', 'SOCIAL', 'DEVELOPER'] as const) expect(result(f, c).score, c).toBeGreaterThan(CEILING.unpricedCap);
  });

  it('a wallet with no costly evidence anywhere keeps its below-cap scores (an honest collector or developer)', () => {
    const f = wallet();
    f.nft = { mints: 4, received: 3, sent: 1, collections: 4 };
    const r = result(f, 'NFT');
    expect(r.score).toBeLessThan(CEILING.unpricedCap);
    expect(r.factors.some((x) => x.code === 'UNPRICED_EVIDENCE_CAP' || x.code === 'COST_CEILING')).toBe(false);
    expect(measuredCosts(f)).toEqual({ lending: 0, trading: 0, governance: 0, total: 0 });
    expect(f.lending.positions).toEqual(EMPTY_POSITIONS);
  });
});
