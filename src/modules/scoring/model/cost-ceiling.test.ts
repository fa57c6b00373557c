// The backing ceiling: a category's conduct is held to what its backing supports (what the wallet lost and cannot
// get back: backing.ts), so no category reaches 600 for less than $1,000 of it. Each result says both.
import { describe, expect, it } from 'vitest';
import type { Category, WalletFeatures } from '../contracts.js';
import { emptyFeatures } from './index.js';
import { EMPTY_POSITIONS } from './lending-positions.js';
import { model } from '../params.js';

const { backingOf, ceilingFor, netInterest, scoreWallet } = model;
const BACKING = model.params.backing;
const CEILING = model.params.ceiling;

const wallet = () => {
  const f = emptyFeatures('0x00000000000000000000000000000000000000c1');
  f.chains = [1];
  return f;
};
const result = (f: WalletFeatures, c: Category) => scoreWallet({ features: f }).find((r) => r.category === c)!;
const gas = (g: Partial<NonNullable<WalletFeatures['gasUsd']>>) => ({ lending: 0, trading: 0, governance: 0, total: 0, ...g });

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

describe('backing', () => {
  it('interest backs only net of what the borrowed cash earns parked; capital held backs nothing', () => {
    // $250k borrowed 2 days three times at 5%: $205 of interest, $148 of it earned back parked at 3.6%
    const p = { ...EMPTY_POSITIONS, debtUsdDays: 250_000 * 6, interestUsd: (250_000 * 0.05 * 6) / 365, collateralUsdDays: 1_000_000 * 90 };
    expect(netInterest(p)).toBeCloseTo((250_000 * (0.05 - BACKING.parkedYieldApr) * 6) / 365, 6);
    const f = wallet();
    f.lending.positions = p;
    expect(backingOf(f).lending).toBeCloseTo(57.5, 0);
    // $1M parked a year, never borrowed: nothing
    f.lending.positions = { ...EMPTY_POSITIONS, collateralUsdDays: 1_000_000 * 365 };
    expect(backingOf(f)).toEqual({ lending: 0, trading: 0, governance: 0, total: 0 });
    // a cheaper asset than the parked rate: interest is earned back, backs nothing
    f.lending.positions = { ...EMPTY_POSITIONS, debtUsdDays: 100_000 * 365, interestUsd: 2_000 };
    expect(netInterest(f.lending.positions)).toBe(0);
  });
  it('gas backs the category whose evidence its transactions made; fees only in established pools', () => {
    const f = wallet();
    f.gasUsd = gas({ lending: 12, trading: 30, governance: 7, total: 60 });
    f.trading = {
      swaps: 10,
      distinctPools: 2,
      protocols: 1,
      activeDays: 10,
      volumeUsd: 100_000,
      unvaluedSwaps: 0,
      feesUsd: 300,
      backedFeesUsd: 120,
    };
    expect(backingOf(f)).toEqual({ lending: 12, trading: 150, governance: 7, total: 180 });
  });
});

describe('conduct held to backing', () => {
  it('DEFI_LENDING: a long, clean history with little backing keeps its conduct and is held to the ceiling', () => {
    const f = wallet();
    // $2k borrowed against $5k, 24 loans of 25 days over two years: $164 of interest, $46 of it net, $120 of gas
    f.lending.positions = {
      debtUsdDays: 2_000 * 25 * 24,
      collateralUsdDays: 5_000 * 730,
      interestUsd: 164,
      cycles: 24,
      cycleMonths: 24,
      avgCycleDays: 25,
      protocolsHeld: 1,
      spanDays: 730,
      creditDays: 730,
      ltvDays: 0.4 * 600,
      leveragedDays: 600,
      liquidationsAged: [],
    };
    f.gasUsd = gas({ lending: 120, total: 120 });
    const r = result(f, 'DEFI_LENDING');
    const backing = 164 - (2_000 * 25 * 24 * BACKING.parkedYieldApr) / 365 + 120;
    expect(r.backingUsd).toBeCloseTo(backing, 1);
    expect(r.conduct).toBeGreaterThan(750);
    expect(r.score).toBe(ceilingFor(backing));
    expect(r.factors.find((x) => x.code === 'COST_CEILING')?.impact).toBeLessThan(0);
    expect(r.factors.find((x) => x.code === 'COST_CEILING')?.description).toMatch(/points of conduct held to/);
    f.lending.liquidations = 1;
    f.lending.liquidatedUsd = 2_000;
    f.lending.positions.liquidationsAged = [{ usd: 2_000, ageDays: 10 }];
    expect(result(f, 'DEFI_LENDING').score).toBeLessThan(r.score);
    expect(result(f, 'DEFI_LENDING').conduct).toBeLessThan(r.conduct);
  });

  it('DEFI_LENDING: the same conduct with $3,000 of backing is not held', () => {
    const f = wallet();
    f.lending.positions = {
      debtUsdDays: 20_000 * 300,
      collateralUsdDays: 100_000 * 358,
      interestUsd: 822,
      cycles: 12,
      cycleMonths: 12,
      avgCycleDays: 25,
      protocolsHeld: 1,
      spanDays: 358,
      creditDays: 358,
      ltvDays: 60,
      leveragedDays: 300,
      liquidationsAged: [],
    };
    f.gasUsd = gas({ lending: 3_000, total: 3_000 });
    const r = result(f, 'DEFI_LENDING');
    expect(r.score).toBe(r.conduct);
    expect(r.score).toBeGreaterThanOrEqual(700);
  });

  it('DEFI_TRADING: fees outside the established pools are conduct, not backing; below $1,000 of backing never 600', () => {
    const f = wallet();
    f.distinctTokens = 20;
    f.trading = {
      swaps: 400,
      distinctPools: 30,
      protocols: 3,
      activeDays: 200,
      volumeUsd: 400_000,
      unvaluedSwaps: 0,
      feesUsd: 4_000,
      backedFeesUsd: 0,
    };
    const unbacked = result(f, 'DEFI_TRADING');
    expect(unbacked.conduct).toBeGreaterThan(700);
    expect(unbacked.score).toBe(0);
    expect(unbacked.factors.map((x) => x.code)).toContain('FEES_UNBACKED');
    f.trading.backedFeesUsd = 990;
    expect(result(f, 'DEFI_TRADING').score).toBeLessThan(600);
    f.trading.backedFeesUsd = 4_000;
    expect(result(f, 'DEFI_TRADING').score).toBeGreaterThan(700);
  });

  it('DEFI_TRADING: swaps found and discounted are named with the reason, never as no activity', () => {
    const f = wallet();
    f.trading = {
      swaps: 0,
      distinctPools: 0,
      protocols: 0,
      activeDays: 0,
      volumeUsd: 0,
      unvaluedSwaps: 0,
      feesUsd: 0,
      backedFeesUsd: 0,
      discounted: { ownLiquidity: 30, clusterLiquidity: 2, sameBlockLiquidity: 0, roundTrips: 4 },
    };
    const r = result(f, 'DEFI_TRADING');
    expect(r.score).toBe(0);
    const d = r.factors.find((x) => x.code === 'SWAPS_DISCOUNTED');
    expect(d?.description).toMatch(/30 swaps in pools where it provides liquidity itself/);
    expect(d?.description).toMatch(/2 swaps in pools where a wallet it funded/);
    expect(r.factors.map((x) => x.code)).not.toContain('NO_TRADING_HISTORY');
  });

  it('GOVERNANCE: voting power held backs nothing; only the gas of its votes does', () => {
    const f = wallet();
    f.governance = {
      votes: 40,
      proposalsVotedOn: 40,
      delegationsMade: 2,
      delegationsReceived: 4,
      governors: 3,
      votePower: 30,
      delegatedPower: 3,
    };
    const r = result(f, 'GOVERNANCE');
    expect(r.score).toBe(0);
    expect(r.conduct).toBeGreaterThan(700);
    f.gasUsd = gas({ governance: 999, total: 999 });
    expect(result(f, 'GOVERNANCE').score).toBeLessThan(600);
    f.gasUsd = gas({ governance: 5_000, total: 5_000 });
    expect(result(f, 'GOVERNANCE').score).toBeGreaterThan(750);
  });

  it('NFT, SOCIAL and DEVELOPER stop at the unpriced cap until the wallet lost $1,000 somewhere it can be measured', () => {
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
      expect(r.conduct, c).toBeGreaterThan(CEILING.unpricedCap);
      expect(
        r.factors.find((x) => x.code === 'UNPRICED_EVIDENCE_CAP'),
        c,
      ).toBeDefined();
    }
    f.trading = {
      swaps: 10,
      distinctPools: 1,
      protocols: 1,
      activeDays: 10,
      volumeUsd: 1e6,
      unvaluedSwaps: 0,
      feesUsd: 4_000,
      backedFeesUsd: 4_000,
    };
    for (const c of ['NFT', 'SOCIAL', 'DEVELOPER'] as const) expect(result(f, c).score, c).toBeGreaterThan(CEILING.unpricedCap);
  });

  it('a wallet with no costly evidence anywhere keeps its below-cap scores (an honest collector or developer)', () => {
    const f = wallet();
    f.nft = { mints: 4, received: 3, sent: 1, collections: 4 };
    const r = result(f, 'NFT');
    expect(r.score).toBeLessThan(CEILING.unpricedCap);
    expect(r.score).toBe(r.conduct);
    expect(r.factors.some((x) => x.code === 'UNPRICED_EVIDENCE_CAP' || x.code === 'COST_CEILING')).toBe(false);
    expect(backingOf(f)).toEqual({ lending: 0, trading: 0, governance: 0, total: 0 });
  });

  it('verification categories carry no backing; OVERALL carries all of it, each dollar once', () => {
    const f = wallet();
    f.gasUsd = gas({ lending: 10, trading: 20, total: 25 });
    f.trading = {
      swaps: 1,
      distinctPools: 1,
      protocols: 1,
      activeDays: 1,
      volumeUsd: 10_000,
      unvaluedSwaps: 0,
      feesUsd: 5,
      backedFeesUsd: 5,
    };
    const all = scoreWallet({ features: f });
    expect(all.find((r) => r.category === 'IDENTITY')!.backingUsd).toBeNull();
    expect(all.find((r) => r.category === 'COMPLIANCE')!.backingUsd).toBeNull();
    expect(all.find((r) => r.category === 'OVERALL')!.backingUsd).toBe(30);
  });
});
