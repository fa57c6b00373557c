// Moonwell, the Compound V2 fork that is Base's third lender and OP Mainnet's: read as Compound V2 is, so that a
// borrower whose credit history is there is not "0, no lending activity". Through the ethereum-etl import at the real
// pinned Base addresses (moonwell-fi/moonwell-contracts-v2 chains/8453.json, via data/registry/moonwell-8453.json), the
// same two-year history on Aave V3 Base and on Moonwell scores within 5%, a liquidation counts as one, and the cost
// model's attacks (a flash round trip, collateral moved by sending the mToken) hold as on Compound V2. Over JSON-RPC,
// mWETH pays a borrow out as ether through its unwrapper (no Transfer names the borrower): the MultiRewardDistributor's
// DisbursedBorrowerRewards finds the transaction, as Compound's DistributedBorrowerComp finds cETH's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, parseUnits } from 'viem';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { EtlExport, SIGS, type EtlLog } from '../../../test/helpers/etl-export.js';
import { lendingRows } from '../../../test/helpers/lending-rows.js';
import { receiptChain, syncedLendingRows } from '../../../test/helpers/receipt-chain.js';
import { AAVE_SIGS, writeBorrowers, type LendingActs } from '../../../test/helpers/lending-histories.js';
import type { SimChain } from '../../../test/fakes/rpc-provider-chain.js';
import type { FakeProvider } from '../../../test/fakes/rpc-provider.js';
import { historyOfLogs, startFakeExplorer } from '../../../test/fakes/explorer-api.js';
import type { Db } from '../../platform/db/types.js';
import type { Category } from '../scoring/contracts.js';
import { model } from '../scoring/params.js';
import { importEthereumEtl } from './etl/import.js';
import { buildPlan, DISBURSED_BORROWER_REWARDS, walletTopic } from './log-plan.js';
import { contractInfo, pinnedContracts, protocolsRead, unreadContracts } from './registry/index.js';
import { createIngestionRepo, type IngestionRepo } from './repo.js';
import { createExplorerClient } from './explorer/source.js';
import { syncWalletFromExplorer } from './explorer/sync.js';

const { scoreWallet } = model;

// moonwell-fi/moonwell-contracts-v2 chains/8453.json @45866f4
const M_USDBC = '0x703843c3379b52f9ff486c9f5892218d2a065cc8'; // MOONWELL_USDBC
const M_USDC = '0xedc817a28e8b93b03976fbd4a3ddbc9f7d176c22'; // MOONWELL_USDC
const M_WETH = '0x628ff693426583d9a7fb391e54366292f509d457'; // MOONWELL_WETH (an MWethDelegate: pays out ether)
const MRD = '0xe9005b078701e2a0948d2eac43010d35870ad9d2'; // MRD_PROXY
const UNITROLLER = '0xfbb21d0380bee3312b33c4353c8936a0f13ef26c'; // UNITROLLER
const WETH_UNWRAPPER = '0x1382cff3cee10d283dcca55a30496187759e4caf'; // WETH_UNWRAPPER
const WETH_ROUTER = '0x70778cfcfc475c7ea0f24cc625baf6eae475d0c9'; // WETH_ROUTER
const WELL = '0xa88594d404727625a9437c3f886c7643872296ae'; // xWELL_PROXY, a reward stream's token
const OP_M_USDC = '0x8e08617b0d66359d73aa11e11017834c29155525'; // chains/10.json MOONWELL_USDC
const AAVE_POOL = '0xa238dd80c259a72e81d7e4664a9801593f98d1c5'; // @bgd-labs/aave-address-book AaveV3Base.POOL
const USDBC = '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca';
const USDC = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const WETH = '0x4200000000000000000000000000000000000006';

const SIG = {
  ...AAVE_SIGS,
  // src/MTokenInterfaces.sol: Compound V2's CToken events, unchanged
  mint: 'event Mint(address minter, uint256 mintAmount, uint256 mintTokens)',
  redeem: 'event Redeem(address redeemer, uint256 redeemAmount, uint256 redeemTokens)',
  borrow: 'event Borrow(address borrower, uint256 borrowAmount, uint256 accountBorrows, uint256 totalBorrows)',
  repay: 'event RepayBorrow(address payer, address borrower, uint256 repayAmount, uint256 accountBorrows, uint256 totalBorrows)',
  liquidate:
    'event LiquidateBorrow(address liquidator, address borrower, uint256 repayAmount, address mTokenCollateral, uint256 seizeTokens)',
  // src/rewards/MultiRewardDistributorCommon.sol
  disbursed:
    'event DisbursedBorrowerRewards(address indexed mToken, address indexed borrower, address indexed emissionToken, uint256 totalAccrued)',
};

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 10, 12);
const day = (n: number) => new Date(T0 + n * DAY);
const usd = (n: number) => parseUnits(String(n), 6); // USDbC and USDC: 6 decimals
/** mUSDbC per USDbC at an exchange rate of 0.02 USDbC per mToken (8 decimals): mantissa 2e14 */
const RATE = 2n * 10n ** 14n;
const mTokens = (underlying: bigint) => (underlying * 10n ** 18n) / RATE;
const transfer = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});

type Protocol = 'aave' | 'moonwell';
const PROTOCOLS: Protocol[] = ['aave', 'moonwell'];

/** What each protocol emits for the same action on a USDbC-collateral, USDC-debt position. */
const act: LendingActs<Protocol> = {
  supply: (p: Protocol, w: string, n: number): EtlLog[] =>
    p === 'moonwell'
      ? [
          transfer(USDBC, w, M_USDBC, usd(n)),
          { address: M_USDBC, event: SIG.mint, args: { minter: w, mintAmount: usd(n), mintTokens: mTokens(usd(n)) } },
          transfer(M_USDBC, M_USDBC, w, mTokens(usd(n))),
        ]
      : [
          transfer(USDBC, w, AAVE_POOL, usd(n)),
          { address: AAVE_POOL, event: SIG.aaveSupply, args: { reserve: USDBC, user: w, onBehalfOf: w, amount: usd(n), referralCode: 0 } },
        ],
  withdraw: (p: Protocol, w: string, n: number): EtlLog[] =>
    p === 'moonwell'
      ? [
          transfer(M_USDBC, w, M_USDBC, mTokens(usd(n))),
          { address: M_USDBC, event: SIG.redeem, args: { redeemer: w, redeemAmount: usd(n), redeemTokens: mTokens(usd(n)) } },
          transfer(USDBC, M_USDBC, w, usd(n)),
        ]
      : [
          { address: AAVE_POOL, event: SIG.aaveWithdraw, args: { reserve: USDBC, user: w, to: w, amount: usd(n) } },
          transfer(USDBC, AAVE_POOL, w, usd(n)),
        ],
  borrow: (p: Protocol, w: string, n: number): EtlLog[] =>
    p === 'moonwell'
      ? [
          transfer(USDC, M_USDC, w, usd(n)),
          { address: MRD, event: SIG.disbursed, args: { mToken: M_USDC, borrower: w, emissionToken: WELL, totalAccrued: 0n } },
          {
            address: M_USDC,
            event: SIG.borrow,
            args: { borrower: w, borrowAmount: usd(n), accountBorrows: usd(n), totalBorrows: usd(1e8) },
          },
        ]
      : [
          {
            address: AAVE_POOL,
            event: SIG.aaveBorrow,
            args: { reserve: USDC, user: w, onBehalfOf: w, amount: usd(n), interestRateMode: 2, borrowRate: 0n, referralCode: 0 },
          },
          transfer(USDC, AAVE_POOL, w, usd(n)),
        ],
  repay: (p: Protocol, w: string, n: number): EtlLog[] =>
    p === 'moonwell'
      ? [
          transfer(USDC, w, M_USDC, usd(n)),
          {
            address: M_USDC,
            event: SIG.repay,
            args: { payer: w, borrower: w, repayAmount: usd(n), accountBorrows: 0n, totalBorrows: usd(1e8) },
          },
        ]
      : [
          { address: AAVE_POOL, event: SIG.aaveRepay, args: { reserve: USDC, user: w, repayer: w, amount: usd(n), useATokens: false } },
          transfer(USDC, w, AAVE_POOL, usd(n)),
        ],
  liquidate: (p: Protocol, w: string, liquidator: string, n: number): EtlLog[] =>
    p === 'moonwell'
      ? [
          {
            address: M_USDC,
            event: SIG.liquidate,
            args: { liquidator, borrower: w, repayAmount: usd(n), mTokenCollateral: M_USDBC, seizeTokens: mTokens(usd(n * 1.05)) },
          },
          transfer(M_USDBC, w, liquidator, mTokens(usd(n * 1.05))),
        ]
      : [
          {
            address: AAVE_POOL,
            event: SIG.aaveLiquidation,
            args: {
              collateralAsset: USDBC,
              debtAsset: USDC,
              user: w,
              debtToCover: usd(n),
              liquidatedCollateralAmount: usd(n * 1.05),
              liquidator,
              receiveAToken: false,
            },
          },
        ],
};

const both = () => Object.fromEntries(PROTOCOLS.map((p) => [p, randomAddress().toLowerCase()])) as Record<Protocol, string>;
const W = {
  fresh: randomAddress().toLowerCase(),
  honest: both(),
  liquidated: both(),
  flash: both(),
  mover: randomAddress().toLowerCase(),
  receiver: randomAddress().toLowerCase(),
  liquidator: randomAddress().toLowerCase(),
};
const target = (p: Protocol) => (p === 'aave' ? AAVE_POOL : M_USDC);

function buildExport(): string {
  const x = new EtlExport(11_000_000);
  const plain = (w: string, d: number) => x.tx({ from: w, to: randomAddress(), at: day(d), value: 10n ** 15n });
  plain(W.fresh, 730);
  // the same borrowers on each (test/helpers/lending-histories.ts): USDbC as collateral, USDC borrowed
  writeBorrowers(x, act, PROTOCOLS, target, W, day, plain);
  // a position moved by sending the mToken: $100k supplied, the mUSDbC sent to another wallet the next day
  x.tx({ from: W.mover, to: M_USDBC, at: day(0), logs: act.supply('moonwell', W.mover, 100_000) });
  x.tx({ from: W.mover, to: M_USDBC, at: day(1), logs: [transfer(M_USDBC, W.mover, W.receiver, mTokens(usd(100_000)))] });
  for (let m = 1; m <= 12; m++) for (const w of [W.mover, W.receiver]) plain(w, 30 * m);
  return x.write('credence-etl-moonwell-');
}

let db: Db;
let repo: IngestionRepo;
const dbs: Db[] = [];
const fakes: FakeProvider[] = [];
beforeAll(async () => {
  db = await testDatabase();
  repo = createIngestionRepo(db);
  await importEthereumEtl({ db, repo }, buildExport(), { chainId: 8453 });
}, 180_000);
afterAll(async () => {
  for (const f of fakes) await f.close();
  for (const d of [db, ...dbs]) await d?.close();
});

const scores = async (w: string) =>
  Object.fromEntries(scoreWallet({ features: await repo.features(w) }).map((r) => [r.category, r.score])) as Record<Category, number>;
const rowsOf = async (w: string) =>
  (await lendingRows(db, w)).map((r) => [r.kind, r.protocol, r.contract, r.counterparty, Math.round(Number(r.value_usd)), r.ref]);

describe('the registry reads Moonwell on Base and OP Mainnet from its published list', () => {
  it('pins each market with its underlying, the Comptroller and the reward distributor, each with its source and block', () => {
    expect(contractInfo(8453, M_USDC)).toMatchObject({
      protocol: 'moonwell',
      role: 'c-token',
      reserve: USDC,
      fromBlock: 2_162_390, // moonwell-subgraph config/base.subgraph.json comptrollerStartBlock
      source: expect.stringContaining('moonwell-contracts-v2 chains/8453.json'),
    });
    expect(contractInfo(8453, M_WETH)).toMatchObject({ protocol: 'moonwell', role: 'c-token', reserve: WETH });
    expect(contractInfo(8453, UNITROLLER)).toMatchObject({ protocol: 'moonwell', role: 'comptroller' });
    expect(contractInfo(8453, MRD)).toMatchObject({ protocol: 'moonwell', role: 'reward-distributor' });
    expect(contractInfo(10, OP_M_USDC)).toMatchObject({
      protocol: 'moonwell',
      role: 'c-token',
      reserve: '0x0b2c639c533813f4aa9d7837caf62653d097ff85',
    });
    // OP's weETH entry carries Base's address in the published file: not pinned on OP
    expect(contractInfo(10, '0xb8051464c8c92209c92f3a4cd9c73746c4c3cfb3')).toBeUndefined();
    const markets = (chainId: number) => pinnedContracts(chainId).filter((c) => c.protocol === 'moonwell' && c.role === 'c-token');
    expect(markets(8453)).toHaveLength(17);
    expect(markets(10)).toHaveLength(11);
    for (const chainId of [8453, 10]) {
      expect(protocolsRead(chainId)).toContain('moonwell');
      for (const c of pinnedContracts(chainId).filter((x) => x.protocol === 'moonwell')) {
        expect(c.fromBlock, c.address).toBeGreaterThan(0);
        expect(contractInfo(chainId, c.address)!.source, c.address).toMatch(/moonwell-contracts-v2 chains\/\d+\.json@45866f4/);
      }
      // no longer listed as unread
      expect(unreadContracts().filter((u) => u.chainId === chainId && u.protocol === 'moonwell')).toEqual([]);
    }
  });
});

describe('the same two-year history scores the same on Aave V3 and Moonwell (Base)', () => {
  it('each stores the same rows: supply, 24 borrow/repay cycles and a withdrawal, valued alike, under its protocol', async () => {
    const shapes = await Promise.all(PROTOCOLS.map(async (p) => (await rowsOf(W.honest[p])).map(([kind, , , cp, v]) => [kind, cp, v])));
    expect(shapes[0]).toHaveLength(50);
    expect(shapes[1]).toEqual(shapes[0]);
    expect((await rowsOf(W.honest.moonwell)).slice(0, 3)).toEqual([
      ['lending_supply', 'moonwell', M_USDBC, USDBC, 60_000, null],
      ['lending_borrow', 'moonwell', M_USDC, USDC, 10_000, null],
      ['lending_repay', 'moonwell', M_USDC, USDC, 10_100, null],
    ]);
  });

  it('positions over time and DEFI_LENDING within 5% of each other, above a fresh wallet', async () => {
    const feats = await Promise.all(PROTOCOLS.map((p) => repo.features(W.honest[p])));
    expect(feats.map((f) => f.lending.positions!.cycles)).toEqual([24, 24]);
    const debt = feats.map((f) => f.lending.positions!.debtUsdDays);
    expect(Math.max(...debt) / Math.min(...debt)).toBeLessThan(1.01);
    const lending = await Promise.all(PROTOCOLS.map(async (p) => (await scores(W.honest[p])).DEFI_LENDING));
    expect(Math.min(...lending)).toBeGreaterThan((await scores(W.fresh)).DEFI_LENDING);
    expect(Math.max(...lending)).toBeLessThanOrEqual(Math.min(...lending) * 1.05);
  });

  it('a liquidation counts as one on each; its seized mTokens leave the borrower', async () => {
    for (const p of PROTOCOLS) {
      const f = await repo.features(W.liquidated[p]);
      expect(f.lending.liquidations, p).toBe(1);
      expect(f.lending.liquidatedUsd ?? 7_500, p).toBe(7_500);
    }
    expect((await rowsOf(W.liquidated.moonwell)).map(([kind, , contract, , v, ref]) => [kind, contract, v, ref])).toEqual([
      ['lending_supply', M_USDBC, 20_000, null],
      ['lending_borrow', M_USDC, 15_000, null],
      ['lending_liquidation', M_USDC, 7_500, null],
      ['lending_withdraw', M_USDBC, 7_875, 'atoken-transfer'],
    ]);
    expect((await repo.features(W.liquidator)).lending.liquidations).toBe(0);
  });
});

describe("the cost model's attacks on Moonwell", () => {
  it('a flash round trip holds nothing for any time', async () => {
    const fresh = (await scores(W.fresh)).DEFI_LENDING;
    for (const p of PROTOCOLS) {
      const pos = (await repo.features(W.flash[p])).lending.positions!;
      expect([pos.debtUsdDays, pos.collateralUsdDays, pos.cycles], p).toEqual([0, 0, 0]);
      expect((await scores(W.flash[p])).DEFI_LENDING, p).toBeLessThanOrEqual(fresh + 50);
    }
  });

  it('an mToken sent away moves the collateral: one day held by the sender, the rest by the receiver, no new supply', async () => {
    expect((await rowsOf(W.mover)).map(([kind, , , cp, v, ref]) => [kind, cp, v, ref])).toEqual([
      ['lending_supply', USDBC, 100_000, null],
      ['lending_withdraw', USDBC, 100_000, 'atoken-transfer'],
    ]);
    const sender = (await repo.features(W.mover)).lending.positions!;
    expect(sender.collateralUsdDays).toBeGreaterThan(99_000);
    expect(sender.collateralUsdDays).toBeLessThan(101_000);
    const receiver = await repo.features(W.receiver);
    expect(receiver.lending.positions!.collateralUsdDays / 100_000).toBeCloseTo(359, 0);
    expect(receiver.lending.supplies).toBe(0);
  });
});

describe('mWETH over JSON-RPC: a borrow paid out as ether', () => {
  /** The wallet supplies 10 WETH to mWETH, borrows 2 (paid out as ether through the unwrapper) and repays 2.01
   *  through the WETH router; another wallet borrows too. */
  function chainOf(wallet: string, other: string): SimChain {
    // WETH at $2,500 from Aave V3 Base's oracle
    const { tx, chain } = receiptChain({ chainId: 8453, genesis: 1_686_789_347, wallet, weth: WETH, wethUsd: 2500n });
    const rewards = (borrower: string): EtlLog => ({
      address: MRD,
      event: SIG.disbursed,
      args: { mToken: M_WETH, borrower, emissionToken: WELL, totalAccrued: 5n },
    });
    const router = WETH_ROUTER;
    const minted = 50_000_000_000n;
    tx(1, 15_000_000, [
      transfer(WETH, wallet, M_WETH, parseEther('10')),
      { address: M_WETH, event: SIG.mint, args: { minter: wallet, mintAmount: parseEther('10'), mintTokens: minted } },
      transfer(M_WETH, M_WETH, wallet, minted),
    ]);
    // the borrow: WETH goes to the unwrapper, which sends ether: no log names the wallet but the distributor's
    tx(2, 15_000_100, [
      transfer(WETH, M_WETH, WETH_UNWRAPPER, parseEther('2')),
      rewards(wallet),
      {
        address: M_WETH,
        event: SIG.borrow,
        args: { borrower: wallet, borrowAmount: parseEther('2'), accountBorrows: parseEther('2'), totalBorrows: parseEther('900') },
      },
    ]);
    tx(3, 15_000_200, [
      transfer(WETH, M_WETH, WETH_UNWRAPPER, parseEther('5')),
      rewards(other),
      {
        address: M_WETH,
        event: SIG.borrow,
        args: { borrower: other, borrowAmount: parseEther('5'), accountBorrows: parseEther('5'), totalBorrows: parseEther('905') },
      },
    ]);
    // the repay, in ether through the WETH router: the router's WETH reaches mWETH, the payer is the router
    tx(4, 15_100_000, [
      transfer(WETH, router, M_WETH, parseEther('2.01')),
      rewards(wallet),
      {
        address: M_WETH,
        event: SIG.repay,
        args: { payer: router, borrower: wallet, repayAmount: parseEther('2.01'), accountBorrows: 0n, totalBorrows: parseEther('903') },
      },
    ]);
    return chain();
  }

  it('the plan asks the reward distributor for the wallet as borrower (position 2), in a query asked anyway', () => {
    const plan = buildPlan(pinnedContracts(8453));
    const w = randomAddress().toLowerCase();
    const queries = plan.queries(w, 15_000_000, 15_009_999, {});
    const two = queries.filter((q) => q.topics[2] === walletTopic(w));
    expect(two.some((q) => (q.topics[0] as string[]).includes(DISBURSED_BORROWER_REWARDS))).toBe(true);
    // Moonwell's Comptroller distributes nothing itself: Compound's DistributedBorrowerComp is not asked of it
    const comptrollerAsked = queries.some((q) => Array.isArray(q.address) && (q.address as string[]).includes(UNITROLLER));
    expect(comptrollerAsked).toBe(false);
  });

  it("stores the wallet's supply, its ether borrow and its router repay, valued as WETH, and not another borrower's", async () => {
    const wallet = randomAddress().toLowerCase();
    const other = randomAddress().toLowerCase();
    const { complete, rows: rowsOf } = await syncedLendingRows(chainOf(wallet, other), wallet, { fakes, dbs });
    expect(complete).toBe(true);
    const rows = await rowsOf(wallet);
    expect(rows).toEqual([
      ['lending_supply', 'moonwell', M_WETH, WETH, parseEther('10').toString(), 25_000],
      ['lending_borrow', 'moonwell', M_WETH, WETH, parseEther('2').toString(), 5_000],
      ['lending_repay', 'moonwell', M_WETH, WETH, parseEther('2.01').toString(), 5_025],
    ]);
    expect(await rowsOf(other)).toEqual([]);
  }, 60_000);
});

describe('mWETH through the explorer source', () => {
  it("finds a repay sent through the WETH router, and one made on the wallet's behalf by someone else, by the distributor's mark", async () => {
    const w = randomAddress().toLowerCase();
    const friend = randomAddress().toLowerCase();
    const { h, tx: txAt } = historyOfLogs(20_000_000, 15_000_000);
    const rewards = (borrower: string): EtlLog => ({
      address: MRD,
      event: SIG.disbursed,
      args: { mToken: M_WETH, borrower, emissionToken: WELL, totalAccrued: 5n },
    });
    const repay = (payer: string, n: string): EtlLog[] => [
      transfer(WETH, WETH_ROUTER, M_WETH, parseEther(n)),
      rewards(w),
      {
        address: M_WETH,
        event: SIG.repay,
        args: { payer, borrower: w, repayAmount: parseEther(n), accountBorrows: 0n, totalBorrows: parseEther('900') },
      },
    ];
    txAt(w, M_WETH, day(0), [
      transfer(WETH, w, M_WETH, parseEther('10')),
      { address: M_WETH, event: SIG.mint, args: { minter: w, mintAmount: parseEther('10'), mintTokens: 50_000_000_000n } },
      transfer(M_WETH, M_WETH, w, 50_000_000_000n),
    ]);
    txAt(w, M_WETH, day(1), [
      transfer(WETH, M_WETH, WETH_UNWRAPPER, parseEther('2')),
      rewards(w),
      {
        address: M_WETH,
        event: SIG.borrow,
        args: { borrower: w, borrowAmount: parseEther('2'), accountBorrows: parseEther('2'), totalBorrows: parseEther('900') },
      },
    ]);
    // the wallet repays half in ether through the router; a friend repays the rest for it, the same way
    txAt(w, WETH_ROUTER, day(20), repay(WETH_ROUTER, '1'));
    txAt(friend, WETH_ROUTER, day(21), repay(WETH_ROUTER, '1.01'));
    const fake = await startFakeExplorer({ 8453: h }, { rps: 1000 });
    const edb = await testDatabase();
    dbs.push(edb);
    try {
      const src = createExplorerClient({ url: fake.url, apiKey: fake.apiKey, rps: 1000 }).source(8453);
      await syncWalletFromExplorer(edb, createIngestionRepo(edb), src, w, {});
      const rows = (await lendingRows(edb, w)).map((r) => [r.kind, r.protocol, r.contract, r.counterparty, r.amount]);
      expect(rows).toEqual([
        ['lending_supply', 'moonwell', M_WETH, WETH, parseEther('10').toString()],
        ['lending_borrow', 'moonwell', M_WETH, WETH, parseEther('2').toString()],
        ['lending_repay', 'moonwell', M_WETH, WETH, parseEther('1').toString()],
        ['lending_repay', 'moonwell', M_WETH, WETH, parseEther('1.01').toString()],
      ]);
      // the friend paid, but the debt repaid is the wallet's: nothing of it is the friend's
      expect(await lendingRows(edb, friend)).toEqual([]);
    } finally {
      await fake.close();
    }
  }, 60_000);
});
