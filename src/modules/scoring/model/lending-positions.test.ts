import { describe, expect, it } from 'vitest';
import { emptyFeatures } from './index.js';
import { DEBT_RATE_CAP_USD, EMPTY_POSITIONS, replayLending, type LendingEvent } from './lending-positions.js';
import { model } from '../params.js';

const { scoreWallet } = model;

const DAY = 86_400_000;
const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const COMET = '0xc3d688b66703497daa19211eedff47f25384cdc3';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const T0 = Date.UTC(2025, 0, 1);
let block = 100;

/** An Aave V3 event of `usd` dollars (1 raw unit = $1 here) on `day`; same block as the previous one when asked. */
function ev(
  kind: LendingEvent['kind'],
  usd: number | null,
  day: number,
  o: Partial<LendingEvent> & { sameBlock?: boolean } = {},
): LendingEvent {
  if (!o.sameBlock) block++;
  const { sameBlock: _s, ...rest } = o;
  return {
    kind,
    protocol: 'aave-v3',
    chainId: 1,
    contract: POOL,
    counterparty: kind === 'lending_borrow' || kind === 'lending_repay' ? DAI : USDC,
    amount: usd ?? 5,
    usd,
    at: T0 + day * DAY,
    block,
    logIndex: 0,
    ...rest,
  };
}
const lendingOf = (events: LendingEvent[], until?: number) => {
  const f = emptyFeatures('0x00000000000000000000000000000000000000bb');
  f.chains = [1];
  f.lending.positions = replayLending(events, until);
  return scoreWallet({ features: f }).find((r) => r.category === 'DEFI_LENDING')!;
};

describe('lending positions over time', () => {
  it('a flash loop in one block holds nothing and earns nothing, whatever its size', () => {
    const loop = [
      ev('lending_supply', 1_430_000, 0),
      ev('lending_borrow', 1e6, 0, { sameBlock: true }),
      ev('lending_repay', 1e6, 0, { sameBlock: true }),
      ev('lending_withdraw', 1_430_000, 0, { sameBlock: true }),
    ];
    const p = replayLending(loop);
    expect(p).toEqual({ ...EMPTY_POSITIONS });
    expect(lendingOf(loop).score).toBe(0);
    expect(lendingOf(loop).factors[0].code).toBe('NO_LENDING_HISTORY');
    // forty of them over forty days: still nothing held overnight
    const many = Array.from({ length: 40 }, (_, d) => [
      ev('lending_supply', 1e6, d),
      ev('lending_borrow', 7e5, d, { sameBlock: true }),
      ev('lending_repay', 7e5, d, { sameBlock: true }),
      ev('lending_withdraw', 1e6, d, { sameBlock: true }),
    ]).flat();
    expect(lendingOf(many).score).toBe(0);
  });

  it('a loan repaid in a later block of the same day counts its hours, but completes no cycle', () => {
    const p = replayLending([ev('lending_supply', 20_000, 0), ev('lending_borrow', 10_000, 0.1), ev('lending_repay', 10_000, 0.2)]);
    expect(p.cycles).toBe(0);
    expect(p.debtUsdDays).toBeCloseTo(1_000, 0);
  });

  it('debt x days, collateral x days, interest beyond principal, cycles in distinct months', () => {
    const p = replayLending([
      ev('lending_supply', 20_000, 0),
      ev('lending_borrow', 5_000, 3),
      ev('lending_repay', 5_020, 33),
      ev('lending_borrow', 5_000, 60),
      ev('lending_repay', 5_010, 70),
      ev('lending_withdraw', 20_000, 80),
    ]);
    expect(p.debtUsdDays).toBeCloseTo(5_000 * 30 + 5_000 * 10, 3);
    expect(p.collateralUsdDays).toBeCloseTo(20_000 * 80, 3);
    expect(p.interestUsd).toBeCloseTo(30, 6);
    expect(p).toMatchObject({ cycles: 2, cycleMonths: 2, avgCycleDays: 20, protocolsHeld: 1, spanDays: 80 });
  });

  it('interest is bounded by the debt carried (a repayment of a debt never seen is not interest)', () => {
    const p = replayLending([ev('lending_supply', 1_000, 0), ev('lending_repay', 50_000, 10)]);
    expect(p.interestUsd).toBe(0);
  });

  it('what one day can earn is capped: a $10M loan for a day counts as the cap', () => {
    const p = replayLending([ev('lending_supply', 2e7, 0), ev('lending_borrow', 1e7, 0, { sameBlock: true }), ev('lending_repay', 1e7, 1)]);
    expect(p.debtUsdDays).toBeCloseTo(DEBT_RATE_CAP_USD, 3);
    expect(
      lendingOf([ev('lending_supply', 2e7, 0), ev('lending_borrow', 1e7, 0, { sameBlock: true }), ev('lending_repay', 1e7, 1)]).score,
    ).toBeLessThan(500);
  });

  it("open positions count up to the wallet's latest activity", () => {
    const open = [ev('lending_supply', 10_000, 0), ev('lending_borrow', 4_000, 1)];
    expect(replayLending(open).debtUsdDays).toBe(0);
    expect(replayLending(open, T0 + 31 * DAY).debtUsdDays).toBeCloseTo(4_000 * 30, 3);
  });

  it('a Comet account is one balance: below zero it is a borrow, a supply repays it', () => {
    const c = (kind: LendingEvent['kind'], usd: number, day: number): LendingEvent => ({
      ...ev(kind, usd, day),
      protocol: 'compound-v3',
      contract: COMET,
      counterparty: '0x00000000000000000000000000000000000000bb',
    });
    const p = replayLending([
      c('lending_withdraw', 3_000, 0),
      c('lending_supply', 3_000, 20),
      c('lending_supply', 1_000, 20),
      c('lending_withdraw', 1_000, 30),
    ]);
    expect(p.debtUsdDays).toBeCloseTo(60_000, 3);
    expect(p.collateralUsdDays).toBeCloseTo(10_000, 3);
    expect(p).toMatchObject({ cycles: 1, protocolsHeld: 1 });
  });

  it("a Comet mint or burn right after its Supply or Withdraw is that event's own; alone it is a base transfer", () => {
    const OTHER = '0x3afdc9bca9213a35503b077a6072f3d0d5ab0840'; // another Comet market (cUSDTv3)
    const c = (
      kind: LendingEvent['kind'],
      usd: number,
      day: number,
      o: Partial<LendingEvent> & { sameBlock?: boolean } = {},
    ): LendingEvent => ({ ...ev(kind, usd, day, o), protocol: 'compound-v3', contract: o.contract ?? COMET, counterparty: null });
    const echo = (kind: LendingEvent['kind'], usd: number, day: number, logIndex: number, o: Partial<LendingEvent> = {}) =>
      c(kind, usd, day, { sameBlock: true, logIndex, ref: 'comet-transfer', ...o });
    // supplied (its mint is the next log), sent away the next day (a burn alone), then 30 days of nothing held
    const sent = [
      c('lending_supply', 100_000, 0, { logIndex: 3 }),
      echo('lending_supply', 100_000, 0, 4),
      c('lending_withdraw', 100_000, 1, { logIndex: 0, ref: 'comet-transfer' }),
    ];
    expect(replayLending(sent, T0 + 31 * DAY).collateralUsdDays).toBeCloseTo(100_000, 3);
    // received (a mint alone), withdrawn with its burn: held between the two, no debt
    const got = [
      c('lending_supply', 100_000, 1, { logIndex: 1, ref: 'comet-transfer' }),
      c('lending_withdraw', 100_000, 31, { logIndex: 7 }),
      echo('lending_withdraw', 100_000, 31, 8),
    ];
    expect(replayLending(got, T0 + 61 * DAY)).toMatchObject({ collateralUsdDays: 3_000_000, debtUsdDays: 0 });
    // a withdrawal beyond the balance: only the part from the balance is burnt, the borrow is the rest
    const borrow = [
      c('lending_supply', 10_000, 0, { logIndex: 0 }),
      echo('lending_supply', 10_000, 0, 1),
      c('lending_withdraw', 60_000, 1, { logIndex: 2 }),
      echo('lending_withdraw', 10_000, 1, 3),
      c('lending_supply', 50_000, 11, { logIndex: 0 }),
    ];
    expect(replayLending(borrow)).toMatchObject({ debtUsdDays: 500_000, cycles: 1 });
    // not an echo: a mint in another block or after a log in between, one after another market's Supply, or the
    // surplus an absorbed account is minted after AbsorbDebt
    const apart = [
      c('lending_supply', 1_000, 0, { logIndex: 0 }),
      echo('lending_supply', 1_000, 0, 2),
      c('lending_supply', 1_000, 0, { logIndex: 5, contract: OTHER, sameBlock: true }),
      echo('lending_supply', 1_000, 0, 6),
      c('lending_supply', 1_000, 1, { logIndex: 1, ref: 'comet-transfer' }),
    ];
    // the first day $3k on COMET (its Supply and two mints) and $1k on OTHER, the next day one more $1k on COMET
    expect(replayLending(apart, T0 + 2 * DAY).collateralUsdDays).toBeCloseTo(4_000 + 5_000, 3);
    const absorbed = [
      c('lending_withdraw', 5_000, 0, { logIndex: 0 }),
      c('lending_liquidation', 5_200, 10, { logIndex: 4 }),
      echo('lending_supply', 200, 10, 5),
    ];
    expect(replayLending(absorbed, T0 + 20 * DAY).collateralUsdDays).toBeCloseTo(200 * 10, 3);
  });

  it('Aave repayments with aTokens shrink the collateral too; a liquidated loan completes no cycle', () => {
    // aTokens of the borrowed reserve (DAI here) repay the DAI debt
    const dai = { counterparty: DAI };
    const p = replayLending([
      ev('lending_supply', 10_000, 0, dai),
      ev('lending_borrow', 5_000, 0, { sameBlock: true }),
      ev('lending_repay', 5_000, 10, { ref: 'atokens' }),
      ev('lending_withdraw', 5_000, 20, dai),
    ]);
    expect(p.collateralUsdDays).toBeCloseTo(10_000 * 10 + 5_000 * 10, 3);
    const l = replayLending([ev('lending_supply', 10_000, 0), ev('lending_borrow', 5_000, 1), { ...ev('lending_liquidation', 5_000, 20) }]);
    expect(l.cycles).toBe(0);
  });

  it('an unpriced market counts its largest event as $100', () => {
    const p = replayLending([
      ev('lending_supply', null, 0, { amount: 1e21 }),
      ev('lending_borrow', null, 0, { amount: 5e20, counterparty: USDC }),
      ev('lending_repay', null, 30, { amount: 5e20, counterparty: USDC }),
    ]);
    expect(p.collateralUsdDays).toBeCloseTo(100 * 30, 3);
    expect(p.debtUsdDays).toBeCloseTo(50 * 30, 3);
  });

  it('replays the same from events in any order', () => {
    const events = [ev('lending_supply', 20_000, 0), ev('lending_borrow', 5_000, 3), ev('lending_repay', 5_020, 33)];
    expect(replayLending([...events].reverse())).toEqual(replayLending(events));
  });
});
