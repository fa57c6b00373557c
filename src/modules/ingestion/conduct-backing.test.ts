// Conduct held to backing, through the real path: every attack on it as an ethereum-etl export with its
// events at the real pinned addresses, imported by `credence ingest`, and each attacker's score held to what its real
// cost buys on the published curve (600 + 120 x log2(cost / $1,000)) or a fresh wallet's + 50, whichever is higher.
// Real cost is computed from the plan (gas at the real coin price, interest net of what the borrowed cash earns
// parked), never from the model. Honest histories rank by conduct; a stranger's transactions move nothing.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { EtlExport } from '../../../test/helpers/etl-export.js';
import {
  addr,
  ARBITRUM_AAVE,
  arbVoter,
  at,
  ETHEREUM_AAVE,
  GAS,
  Lender,
  pairBurnLogs,
  pairMintLogs,
  POSITION_LIQUIDITY,
  positionAddLogs,
  positionExitLogs,
  positionIdOf,
  positionMintLogs,
  REAL,
  stableSwapLogs,
  v2Pair,
  v3Pool,
} from '../../../test/helpers/conduct-histories.js';
import type { Db } from '../../platform/db/types.js';
import { runIngestCommand } from '../../cli/ingest.js';
import { createIngestionRepo } from './repo.js';
import { model } from '../scoring/params.js';

const { ceilingFor } = model;

const ARB_USDCE = ARBITRUM_AAVE.collateral; // USDC.e
const ARB_USDCN = '0xaf88d065e77c8cc2239327c5edb3a432268e5831'; // native USDC (USDCn)
const ARB_USDT = '0xfd086bc7cd5c481dcc9c85ebe478a1c0b69fcbb9';
const MAINNET_USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const MAINNET_USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const POOL_USDC_USDT_1BP = '0x3416cf6c708da44db2624d63ea0aaef7113527c6'; // established: data/scoring/established-pools.json

interface Entry {
  score: number;
  conduct: number;
  backing: number;
  codes: string[];
  factors: { code: string; description: string }[];
}
type Scores = Record<string, Entry>;

let db: Db;
// one instance's settings for every import into the one database (an instance's generated keys are checked)
const config = testConfig();
async function ingest(x: EtlExport, chain: number): Promise<void> {
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    expect(
      await runIngestCommand(['--format', 'ethereum-etl', '--chain', String(chain), x.write()], config, {
        db: { ...db, close: async () => undefined },
      }),
    ).toBe(0);
  } finally {
    log.mockRestore();
  }
}
async function scoresOf(w: string): Promise<Scores> {
  const rows = await db.query<{ category: string; score: number; conduct: number | null; backing_usd: number | null; factors: unknown }>(
    'SELECT category, score, conduct, backing_usd, factors FROM scores WHERE address = $1',
    [w.toLowerCase()],
  );
  expect(rows.length, `scores of ${w}`).toBe(9);
  const out: Scores = {};
  for (const r of rows) {
    const factors = (typeof r.factors === 'string' ? JSON.parse(r.factors) : r.factors) as { code: string; description: string }[];
    out[r.category] = {
      score: r.score,
      conduct: r.conduct ?? -1,
      backing: Number(r.backing_usd ?? 0),
      codes: factors.map((f) => f.code),
      factors,
    };
  }
  return out;
}
/** the most an attack of this real cost may score: the curve at that cost, or a fresh wallet's score + 50 */
const allowed = (realCost: number, fresh: number) => Math.max(ceilingFor(realCost), fresh + 50);

const arbGasUsd = (Number(GAS.arbitrum.gasUsed * GAS.arbitrum.priceWei) / 1e18) * REAL.ethUsd;
const mainGasUsd = (Number(GAS.mainnet.gasUsed * GAS.mainnet.priceWei) / 1e18) * REAL.ethUsd;

beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await db?.close();
});

describe('the attacks on conduct and backing, through the ethereum-etl import at the real addresses (Arbitrum)', () => {
  const x = new EtlExport(200_000_000, GAS.arbitrum);
  const fresh = addr();
  // rows 1 and 2: a second wallet is the only LP of three new 1% stable pools and a V2 pair; the first wallet swaps
  // $25k one way each day, the LP swaps the price back. Funded through an exchange: no link between the two.
  const pools = [
    { pool: v3Pool(42161, ARB_USDCE, ARB_USDT, 10_000), a: ARB_USDCE, b: ARB_USDT, v2: false },
    { pool: v3Pool(42161, ARB_USDCN, ARB_USDT, 10_000), a: ARB_USDCN, b: ARB_USDT, v2: false },
    { pool: v3Pool(42161, ARB_USDCN, ARB_USDCE, 10_000), a: ARB_USDCN, b: ARB_USDCE, v2: false },
    { pool: v2Pair(42161, ARB_USDCE, ARB_USDT), a: ARB_USDCE, b: ARB_USDT, v2: true },
  ];
  const washers = { d30: { trader: addr(), lp: addr(), days: 30, txs: 0 }, d4: { trader: addr(), lp: addr(), days: 4, txs: 0 } };
  // the same, but the LP wallet was funded by the trader on-chain: a funding cluster the stored data shows
  const linked = { trader: addr(), lp: addr(), days: 10, txs: 0 };
  for (const w of [washers.d30, washers.d4, linked]) {
    if (w === linked) {
      x.tx({ from: w.trader, to: w.lp, at: at(-2), value: 10n ** 17n });
      w.txs++;
    }
    for (const p of pools) {
      const mint = p.v2
        ? pairMintLogs(p.pool, [p.a, p.b].sort()[0], [p.a, p.b].sort()[1], w.lp, 200_000)
        : positionMintLogs(42161, p.pool, p.a, p.b, w.lp, w.lp, 200_000);
      x.tx({ from: w.lp, to: p.pool, at: at(-1), logs: mint });
    }
    for (let d = 0; d < w.days; d++) {
      const p = pools[d % pools.length];
      x.tx({ from: w.trader, to: p.pool, at: at(d, 1), logs: stableSwapLogs(p.pool, p.v2, p.a, p.b, w.trader, 25_000) });
      w.txs++;
      x.tx({ from: w.lp, to: p.pool, at: at(d, 2), logs: stableSwapLogs(p.pool, p.v2, p.b, p.a, w.lp, 25_000) });
    }
  }
  // row 3: $1M USDC.e supplied to Aave V3 for 90 days (it earns its own yield), three $250k loans of 2 days
  const parked90 = new Lender(x, addr(), ARBITRUM_AAVE);
  parked90.supply(0, 1_000_000);
  for (const d of [10, 40, 70]) parked90.loan(d, 250_000, 2);
  parked90.withdraw(90, 1_000_000);
  // row 4: $1M parked a year, 12 loans of $30k for 25 days
  const parkedYear = new Lender(x, addr(), ARBITRUM_AAVE);
  parkedYear.supply(0, 1_000_000);
  for (let m = 0; m < 12; m++) parkedYear.loan(m * 30 + 1, 30_000, 25);
  parkedYear.withdraw(365, 1_000_000);
  // row 5: one $1M aUSDC.e position handed on by aToken transfer every 13 days; each holder borrows $250k twice
  const holders = Array.from({ length: 4 }, () => new Lender(x, addr(), ARBITRUM_AAVE));
  holders[0].supply(0, 1_000_000);
  holders.forEach((h, i) => {
    const d = i * 13;
    h.loan(d + 1, 250_000, 5);
    h.loan(d + 7, 250_000, 5);
    if (i < holders.length - 1) h.sendATokens(d + 13, holders[i + 1].who, 1_000_000);
  });
  // row 6: 200k ARB already held, self-delegated, 20 votes on the two Arbitrum governors
  const voter = addr();
  const voterTxs = arbVoter(x, voter, '200000', 20);
  x.tx({ from: fresh, to: addr(), at: at(1), value: 10n ** 15n });

  const s: Record<string, Scores> = {};
  beforeAll(async () => {
    await ingest(x, 42161);
    for (const w of [
      fresh,
      washers.d30.trader,
      washers.d4.trader,
      linked.trader,
      parked90.who,
      parkedYear.who,
      voter,
      ...holders.map((h) => h.who),
    ])
      s[w] = await scoresOf(w);
  }, 240_000);

  it('own-liquidity wash trading in new 1% pools: 30 days or 4, the trader scores what ~$1-$5 of gas buys', () => {
    const f = s[fresh].DEFI_TRADING.score;
    for (const w of [washers.d30, washers.d4]) {
      const r = s[w.trader].DEFI_TRADING;
      const real = w.txs * arbGasUsd; // its pool fees go back to its own LP
      expect(r.score, `${w.days} days`).toBeLessThanOrEqual(allowed(real, f));
      // its conduct still shows the swaps; their fees back nothing: the pools are not established
      expect(r.conduct).toBeGreaterThan(r.score);
      expect(r.codes).toContain('FEES_UNBACKED');
    }
    // 3.0.0 gave 834 and 599
    expect(s[washers.d30.trader].DEFI_TRADING.score).toBeLessThan(100);
  });

  it("with the LP funded by the trader on-chain, the swaps are discounted as the cluster's own liquidity, and named", () => {
    const r = s[linked.trader].DEFI_TRADING;
    expect(r.score).toBeLessThanOrEqual(allowed(linked.txs * arbGasUsd, s[fresh].DEFI_TRADING.score));
    expect(r.conduct).toBe(0);
    expect(r.factors.find((f) => f.code === 'SWAPS_DISCOUNTED')?.description).toMatch(
      /10 swaps in pools where a wallet it funded, or that funded it, provides liquidity/,
    );
    expect(r.codes).not.toContain('NO_TRADING_HISTORY');
  });

  it('$1M parked 90 days and three 2-day loans (~$57 real): what ~$57 buys, not 665', () => {
    const real = parked90.realCost(arbGasUsd);
    expect(real).toBeGreaterThan(50);
    expect(real).toBeLessThan(65);
    const r = s[parked90.who].DEFI_LENDING;
    expect(r.score).toBeLessThanOrEqual(allowed(real, s[fresh].DEFI_LENDING.score));
    expect(r.score).toBeLessThanOrEqual(110);
    expect(r.backing).toBeLessThanOrEqual(real);
  });

  it('$1M parked a year and twelve $30k loans (~$345 real): what ~$345 buys, not 922', () => {
    const real = parkedYear.realCost(arbGasUsd);
    expect(real).toBeGreaterThan(300);
    expect(real).toBeLessThan(400);
    const r = s[parkedYear.who].DEFI_LENDING;
    expect(r.score).toBeLessThanOrEqual(allowed(real, s[fresh].DEFI_LENDING.score));
    expect(r.score).toBeLessThan(600);
    // the conduct is a good one: twelve loans repaid on time; the lender can read it apart from what backs it
    expect(r.conduct).toBeGreaterThan(r.score);
  });

  it('one $1M aToken position handed on every 13 days: each holder scores what its own ~$100 buys, not 620', () => {
    for (const h of holders) {
      const real = h.realCost(arbGasUsd);
      const r = s[h.who].DEFI_LENDING;
      expect(r.score, h.who).toBeLessThanOrEqual(allowed(real, s[fresh].DEFI_LENDING.score));
      expect(r.score, h.who).toBeLessThan(250);
    }
  });

  it('200k ARB already held, self-delegated, 20 votes (~$1 of gas): what $1 buys, not 604', () => {
    const real = voterTxs * arbGasUsd;
    const r = s[voter].GOVERNANCE;
    expect(r.score).toBeLessThanOrEqual(allowed(real, s[fresh].GOVERNANCE.score));
    expect(r.conduct).toBeGreaterThan(300);
    expect(r.codes).toContain('COST_CEILING');
  });
});

describe("a stranger's transactions move nothing (Ethereum)", () => {
  const x = new EtlExport(21_000_000, GAS.mainnet);
  const victim = addr();
  const control = addr();
  const stranger = addr();
  for (const w of [victim, control]) {
    for (let d = 0; d < 20; d++) {
      const [a, b] = d % 2 === 0 ? [MAINNET_USDC, MAINNET_USDT] : [MAINNET_USDT, MAINNET_USDC];
      x.tx({
        from: w,
        to: POOL_USDC_USDT_1BP,
        at: at(d * 7, w === victim ? 1 : 2),
        logs: stableSwapLogs(POOL_USDC_USDT_1BP, false, a, b, w, 400_000),
      });
    }
  }
  // after the victim's first swaps: USDC.transferFrom(victim, pool, 0) beside NPM.mint(recipient = victim), paid by
  // the stranger; a dust transfer; a token it never asked for
  x.tx({
    from: stranger,
    to: '0xc36442b4a4522e871399cd717abdd847ab11fe88',
    at: at(20),
    logs: positionMintLogs(1, POOL_USDC_USDT_1BP, MAINNET_USDC, MAINNET_USDT, victim, stranger, 1, victim),
  });
  x.tx({
    from: stranger,
    to: MAINNET_USDC,
    at: at(21),
    logs: [
      {
        address: MAINNET_USDC,
        event: 'event Transfer(address indexed from, address indexed to, uint256 value)',
        args: { from: stranger, to: victim, value: 1n },
      },
    ],
  });
  const junk = addr();
  x.tx({
    from: stranger,
    to: junk,
    at: at(22),
    logs: [
      {
        address: junk,
        event: 'event Transfer(address indexed from, address indexed to, uint256 value)',
        args: { from: stranger, to: victim, value: 10n ** 24n },
      },
    ],
  });

  let v: Scores;
  let c: Scores;
  beforeAll(async () => {
    await ingest(x, 1);
    v = await scoresOf(victim);
    c = await scoresOf(control);
  }, 240_000);

  it('a zero-value transferFrom and a position minted to the victim leave its trading where its control is', async () => {
    expect(c.DEFI_TRADING.score).toBeGreaterThan(100);
    expect(Math.abs(v.DEFI_TRADING.score - c.DEFI_TRADING.score)).toBeLessThanOrEqual(20);
    expect(v.DEFI_TRADING.codes).not.toContain('SWAPS_DISCOUNTED');
    const marked = await db.query("SELECT 1 FROM wallet_activity WHERE wallet = $1 AND kind = 'lp_position'", [victim]);
    expect(marked).toEqual([]);
    // and nothing else of the victim moved either
    for (const cat of Object.keys(c)) expect(Math.abs(v[cat].score - c[cat].score), cat).toBeLessThanOrEqual(20);
  });

  it('the fees of an established pool back the honest trader: fees and gas, both counted', () => {
    // 20 one-way $400k swaps at 1 bp: $40 a swap
    expect(c.DEFI_TRADING.backing).toBeGreaterThan(20 * 40);
    expect(c.DEFI_TRADING.backing).toBeLessThan(20 * 40 + 20 * mainGasUsd);
  });
});

describe('a self-dealing marker lasts while its liquidity is in the pool (Ethereum)', () => {
  const x = new EtlExport(23_000_000, GAS.mainnet);
  const pool = POOL_USDC_USDT_1BP;
  const pair = v2Pair(1, MAINNET_USDC, MAINNET_USDT);
  const [p0, p1] = [MAINNET_USDC, MAINNET_USDT].sort();
  let day = 0;
  const swap = (who: string, v2 = false) => {
    const [a, b] = day % 2 === 0 ? [MAINNET_USDC, MAINNET_USDT] : [MAINNET_USDT, MAINNET_USDC];
    const where = v2 ? pair : pool;
    x.tx({ from: who, to: where, at: at(day++, 1), logs: stableSwapLogs(where, v2, a, b, who, 10_000) });
  };
  const swaps = (who: string, n: number, v2 = false) => Array.from({ length: n }, () => swap(who, v2));
  const mintV3 = (who: string) => {
    const logs = positionMintLogs(1, pool, MAINNET_USDC, MAINNET_USDT, who, who, 50_000);
    x.tx({ from: who, to: pool, at: at(day++), logs });
    return positionIdOf(logs);
  };
  const exitV3 = (who: string, id: bigint, liquidity: bigint, burn: boolean) =>
    x.tx({ from: who, to: pool, at: at(day++), logs: positionExitLogs(1, pool, id, who, liquidity, burn) });

  // V3: all the liquidity out and the NFT burned; half of it out; all of it out, then added again
  const burned = addr();
  const id1 = mintV3(burned);
  swaps(burned, 3);
  exitV3(burned, id1, POSITION_LIQUIDITY, true);
  swaps(burned, 4);
  const half = addr();
  const id2 = mintV3(half);
  swaps(half, 3);
  exitV3(half, id2, POSITION_LIQUIDITY / 2n, false);
  swaps(half, 4);
  const again = addr();
  const id3 = mintV3(again);
  swaps(again, 2);
  exitV3(again, id3, POSITION_LIQUIDITY, false);
  swaps(again, 3);
  x.tx({ from: again, to: pool, at: at(day++), logs: positionAddLogs(1, pool, id3, MAINNET_USDC, MAINNET_USDT, again, 50_000) });
  swaps(again, 2);
  // V2: the LP tokens burned at the pair; the LP tokens sent to another wallet (the liquidity is still there)
  const v2burned = addr();
  x.tx({ from: v2burned, to: pair, at: at(day++), logs: pairMintLogs(pair, p0, p1, v2burned, 50_000) });
  swaps(v2burned, 3, true);
  x.tx({ from: v2burned, to: pair, at: at(day++), logs: pairBurnLogs(pair, p0, p1, v2burned, 50_000) });
  swaps(v2burned, 4, true);
  const v2moved = addr();
  x.tx({ from: v2moved, to: pair, at: at(day++), logs: pairMintLogs(pair, p0, p1, v2moved, 50_000) });
  swaps(v2moved, 3, true);
  x.tx({
    from: v2moved,
    to: pair,
    at: at(day++),
    logs: [
      {
        address: pair,
        event: 'event Transfer(address indexed from, address indexed to, uint256 value)',
        args: { from: v2moved, to: addr(), value: 50_000_000_000n },
      },
    ],
  });
  swaps(v2moved, 4, true);

  const seen: Record<string, { swaps: number; own: number }> = {};
  beforeAll(async () => {
    await ingest(x, 1);
    const repo = createIngestionRepo(db);
    for (const w of [burned, half, again, v2burned, v2moved]) {
      const f = await repo.features(w);
      seen[w] = { swaps: f.trading.swaps, own: f.trading.discounted?.ownLiquidity ?? -1 };
    }
  }, 240_000);

  it("V3: swaps count again once the position's liquidity is out; not while some of it is there, nor once it is added back", () => {
    expect(seen[burned]).toEqual({ swaps: 4, own: 3 });
    expect(seen[half]).toEqual({ swaps: 0, own: 7 });
    expect(seen[again]).toEqual({ swaps: 3, own: 4 });
  });

  it('V2: swaps count again once the LP tokens are burned at the pair, not when they are sent to another wallet', () => {
    expect(seen[v2burned]).toEqual({ swaps: 4, own: 3 });
    expect(seen[v2moved]).toEqual({ swaps: 0, own: 7 });
  });
});

describe('honest histories rank by conduct (Ethereum Aave V3, USDC collateral)', () => {
  const x = new EtlExport(22_000_000, GAS.mainnet);
  // the four profiles
  const perfect = new Lender(x, addr(), ETHEREUM_AAVE);
  perfect.supply(0, 5_000);
  for (let m = 0; m < 24; m++) perfect.loan(m * 30 + 1, 2_000, 25);
  const lastWeek = new Lender(x, addr(), ETHEREUM_AAVE);
  lastWeek.supply(0, 500_000);
  lastWeek.borrow(30, 195_000);
  lastWeek.liquidated(358, 195_000);
  lastWeek.withdraw(365, 250_000);
  const longAgo = new Lender(x, addr(), ETHEREUM_AAVE);
  longAgo.supply(0, 5_000);
  longAgo.borrow(1, 2_000);
  longAgo.liquidated(20, 1_925);
  longAgo.repay(22, 75, 21);
  for (let m = 1; m <= 17; m++) longAgo.loan(m * 30 + 1, 2_000, 25);
  const neverBorrowed = new Lender(x, addr(), ETHEREUM_AAVE);
  neverBorrowed.supply(0, 1_000_000);
  neverBorrowed.withdraw(30, 1_000_000);

  // generated populations: a base history and its variants, each differing in one way only
  const rand = (() => {
    let seed = 28;
    return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  })();
  interface Family {
    base: Lender;
    liquidatedLongAgo: Lender;
    liquidatedLastWeek: Lender;
    moreCycles: Lender;
    longerTenure: Lender;
    tenfold: Lender;
    threeCycles: Lender;
  }
  const families: Family[] = [];
  for (let k = 0; k < 4; k++) {
    const principal = Math.round(1_000 + rand() * 20_000);
    const cycles = 4 + Math.floor(rand() * 6);
    const days = 7 + Math.floor(rand() * 20);
    const history = (l: Lender, o: { scale?: number; cycles?: number; gap?: number; liquidation?: number } = {}) => {
      const p = principal * (o.scale ?? 1);
      const n = o.cycles ?? cycles;
      const gap = o.gap ?? 30;
      l.supply(0, p * 3);
      for (let c = 0; c < n; c++) l.loan(c * gap + 1, p, days);
      const end = (n - 1) * gap + days + 10;
      if (o.liquidation !== undefined) {
        // a loan liquidated `liquidation` days before the history's end, its remainder repaid
        const d = end - o.liquidation;
        l.borrow(d - 3, p);
        l.liquidated(d, p * 0.9);
        l.repay(d + 1, p * 0.1, 4);
      }
      l.withdraw(end + 1, p);
      return l;
    };
    const f = (o?: Parameters<typeof history>[1]) => history(new Lender(x, addr(), ETHEREUM_AAVE), o);
    families.push({
      base: f({ cycles: cycles + 18 }),
      liquidatedLongAgo: f({ cycles: cycles + 18, liquidation: 540 }),
      liquidatedLastWeek: f({ cycles: cycles + 18, liquidation: 7 }),
      moreCycles: f({ cycles: cycles + 21 }),
      longerTenure: f({ cycles: cycles + 18, gap: 60 }),
      tenfold: f({ cycles: cycles + 18, scale: 10 }),
      threeCycles: f({ cycles: 3 }),
    });
  }
  const s: Record<string, Scores> = {};
  beforeAll(async () => {
    await ingest(x, 1);
    const all = [perfect, lastWeek, longAgo, neverBorrowed, ...families.flatMap((f) => Object.values(f) as Lender[])];
    for (const l of all) s[l.who] = await scoresOf(l.who);
  }, 300_000);
  const conduct = (l: Lender) => s[l.who].DEFI_LENDING.conduct;

  it('the perfect two-year borrower has the highest conduct of the four; the liquidation last week the lowest borrower', () => {
    expect(conduct(perfect)).toBeGreaterThan(conduct(longAgo));
    expect(conduct(longAgo)).toBeGreaterThan(conduct(lastWeek));
    expect(conduct(perfect)).toBeGreaterThan(conduct(neverBorrowed));
    expect(conduct(neverBorrowed)).toBe(0);
    expect(s[neverBorrowed.who].DEFI_LENDING.codes).toContain('NO_CREDIT_RECORD');
    expect(s[lastWeek.who].DEFI_LENDING.codes).toContain('LIQUIDATIONS');
  });

  it('every score is its conduct held to what its backing supports', () => {
    for (const l of [perfect, lastWeek, longAgo, neverBorrowed]) {
      const r = s[l.who].DEFI_LENDING;
      expect(r.score, l.who).toBeLessThanOrEqual(r.conduct);
      expect(r.score, l.who).toBeLessThanOrEqual(ceilingFor(r.backing));
      if (!r.codes.includes('COST_CEILING')) expect(r.score, l.who).toBe(r.conduct);
      // backing never exceeds what the plan really cost (gas at the real coin price, net interest)
      expect(r.backing, l.who).toBeLessThanOrEqual(l.realCost(mainGasUsd) + 0.01);
    }
  });

  it('over generated families: no liquidation > one 18 months ago > one last week; more cycles > fewer; longer tenure > shorter', () => {
    for (const f of families) {
      expect(conduct(f.base)).toBeGreaterThan(conduct(f.liquidatedLongAgo));
      expect(conduct(f.liquidatedLongAgo)).toBeGreaterThan(conduct(f.liquidatedLastWeek));
      expect(conduct(f.moreCycles)).toBeGreaterThan(conduct(f.base));
      expect(conduct(f.longerTenure)).toBeGreaterThan(conduct(f.base));
    }
  });

  it('10x the capital with the same conduct gains at most 60 points; never borrowing is below any three repaid cycles', () => {
    for (const f of families) {
      expect(conduct(f.tenfold) - conduct(f.base)).toBeLessThanOrEqual(60);
      expect(conduct(f.tenfold)).toBeGreaterThanOrEqual(conduct(f.base));
      expect(conduct(f.threeCycles)).toBeGreaterThan(conduct(neverBorrowed));
    }
  });
});
