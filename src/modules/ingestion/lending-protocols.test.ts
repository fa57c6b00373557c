// Every borrower where they borrow: Morpho Blue, Compound V2 and SparkLend decode into the very rows
// Aave's Pool produces (lending_supply / _withdraw / _borrow / _repay / _liquidation of a pool and an asset), so the
// same history scores the same on any of them, whatever the model. Everything goes through the ethereum-etl import
// with the events at the real pinned mainnet contracts (addresses from the registry, i.e. from the maintained
// packages and the protocols' published lists); the tests compare protocols with one another, never to fixed
// scores. Also: a liquidation counts as one on each; the attacks of the cost model (flash round trips, positions
// moved by token transfer) on each new protocol; the JSON-RPC plan and the explorer path for Morpho Blue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from 'viem';
import { testDatabase } from '../../../test/helpers/db.js';
import { EtlExport, SIGS, type EtlLog } from '../../../test/helpers/etl-export.js';
import { historyOfLogs, startFakeExplorer } from '../../../test/fakes/explorer-api.js';
import { lendingRows } from '../../../test/helpers/lending-rows.js';
import { AAVE_SIGS, writeBorrowers, type LendingActs } from '../../../test/helpers/lending-histories.js';
import type { Db } from '../../platform/db/types.js';
import type { Category } from '../scoring/contracts.js';
import { importEthereumEtl } from './etl/import.js';
import { createExplorerClient } from './explorer/source.js';
import { syncWalletFromExplorer } from './explorer/sync.js';
import { buildPlan, walletTopic } from './log-plan.js';
import { contractInfo, pinnedContracts, protocolsRead, REGISTRY_CHAINS, unreadContracts } from './registry/index.js';
import { coverageOf } from './coverage.js';
import { createCoverageRepo } from './coverage-repo.js';
import { morphoMarket, morphoMarketId } from './registry/markets.js';
import { createIngestionRepo, type IngestionRepo } from './repo.js';
import { EVENTS } from './events.js';
import { model } from '../scoring/params.js';

const { scoreWallet } = model;

const AAVE_POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2'; // AaveV3Ethereum.POOL
const SPARK_POOL = '0xc13e21b648a5ee794902342038ff3adab66be987'; // SparkLend.POOL
const SP_DAI = '0x4dedf26112b3ec8ec46e7e31ea5e123490b05b8b'; // SparkLend.DAI_SPTOKEN
const MORPHO = '0xbbbbbbbbbb9cc5e90e3b3af64bdaf62c37eeffcb'; // @morpho-org/blue-sdk getChainAddresses(1).morpho
const C_DAI = '0x5d3a536e4d6dbd6114cc1ead35777bab948e3643'; // compound-protocol networks/mainnet.json cTokens.cDAI
const C_USDC = '0x39aa39c021dfbae8fac545936693ac917d5e7563'; // cTokens.cUSDC
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const PARAMS = {
  loanToken: USDC,
  collateralToken: DAI,
  oracle: '0x' + '0a'.repeat(20),
  irm: '0x870ac11d48b15db9a138cf899d20f13f79ba00bc',
  lltv: 860_000_000_000_000_000n,
};
const MARKET = morphoMarketId(PARAMS);

const SIG = {
  ...AAVE_SIGS,
  mCreate:
    'event CreateMarket(bytes32 indexed id, (address loanToken, address collateralToken, address oracle, address irm, uint256 lltv) marketParams)',
  mSupplyCollateral: 'event SupplyCollateral(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets)',
  mWithdrawCollateral:
    'event WithdrawCollateral(bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets)',
  mBorrow:
    'event Borrow(bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets, uint256 shares)',
  mRepay: 'event Repay(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets, uint256 shares)',
  mLiquidate:
    'event Liquidate(bytes32 indexed id, address indexed caller, address indexed borrower, uint256 repaidAssets, uint256 repaidShares, uint256 seizedAssets, uint256 badDebtAssets, uint256 badDebtShares)',
  cMint: 'event Mint(address minter, uint256 mintAmount, uint256 mintTokens)',
  cRedeem: 'event Redeem(address redeemer, uint256 redeemAmount, uint256 redeemTokens)',
  cBorrow: 'event Borrow(address borrower, uint256 borrowAmount, uint256 accountBorrows, uint256 totalBorrows)',
  cRepay: 'event RepayBorrow(address payer, address borrower, uint256 repayAmount, uint256 accountBorrows, uint256 totalBorrows)',
  cLiquidate:
    'event LiquidateBorrow(address liquidator, address borrower, uint256 repayAmount, address cTokenCollateral, uint256 seizeTokens)',
};

const DAY = 86_400_000;
const T0 = Date.UTC(2023, 5, 1, 12);
const day = (n: number) => new Date(T0 + n * DAY);
const dai = (n: number) => parseUnits(String(n), 18);
const usdc = (n: number) => parseUnits(String(n), 6);
/** cDAI per DAI at an exchange rate of 0.022 DAI per cDAI (8 decimals): rate mantissa 2.2e26 */
const C_RATE = 22n * 10n ** 25n;
const cTokens = (underlying: bigint) => (underlying * 10n ** 18n) / C_RATE;
const transfer = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});

type Protocol = 'aave' | 'spark' | 'morpho' | 'compound';
const PROTOCOLS: Protocol[] = ['aave', 'spark', 'morpho', 'compound'];
const pool = (p: Protocol) => (p === 'aave' ? AAVE_POOL : SPARK_POOL);

/** What each protocol emits for the same action on a DAI-collateral, USDC-debt position. */
const act: LendingActs<Protocol> = {
  supply(p: Protocol, w: string, n: number): EtlLog[] {
    if (p === 'morpho')
      return [
        transfer(DAI, w, MORPHO, dai(n)),
        { address: MORPHO, event: SIG.mSupplyCollateral, args: { id: MARKET, caller: w, onBehalf: w, assets: dai(n) } },
      ];
    if (p === 'compound')
      return [
        transfer(DAI, w, C_DAI, dai(n)),
        { address: C_DAI, event: SIG.cMint, args: { minter: w, mintAmount: dai(n), mintTokens: cTokens(dai(n)) } },
        transfer(C_DAI, C_DAI, w, cTokens(dai(n))),
      ];
    return [
      transfer(DAI, w, SP_DAI, dai(n)),
      { address: pool(p), event: SIG.aaveSupply, args: { reserve: DAI, user: w, onBehalfOf: w, amount: dai(n), referralCode: 0 } },
    ];
  },
  withdraw(p: Protocol, w: string, n: number): EtlLog[] {
    if (p === 'morpho')
      return [
        { address: MORPHO, event: SIG.mWithdrawCollateral, args: { id: MARKET, caller: w, onBehalf: w, receiver: w, assets: dai(n) } },
        transfer(DAI, MORPHO, w, dai(n)),
      ];
    if (p === 'compound')
      return [
        transfer(C_DAI, w, C_DAI, cTokens(dai(n))),
        { address: C_DAI, event: SIG.cRedeem, args: { redeemer: w, redeemAmount: dai(n), redeemTokens: cTokens(dai(n)) } },
        transfer(DAI, C_DAI, w, dai(n)),
      ];
    return [
      { address: pool(p), event: SIG.aaveWithdraw, args: { reserve: DAI, user: w, to: w, amount: dai(n) } },
      transfer(DAI, SP_DAI, w, dai(n)),
    ];
  },
  borrow(p: Protocol, w: string, n: number): EtlLog[] {
    if (p === 'morpho')
      return [
        {
          address: MORPHO,
          event: SIG.mBorrow,
          args: { id: MARKET, caller: w, onBehalf: w, receiver: w, assets: usdc(n), shares: usdc(n) * 10n ** 6n },
        },
        transfer(USDC, MORPHO, w, usdc(n)),
      ];
    if (p === 'compound')
      return [
        transfer(USDC, C_USDC, w, usdc(n)),
        {
          address: C_USDC,
          event: SIG.cBorrow,
          args: { borrower: w, borrowAmount: usdc(n), accountBorrows: usdc(n), totalBorrows: usdc(1e8) },
        },
      ];
    return [
      {
        address: pool(p),
        event: SIG.aaveBorrow,
        args: { reserve: USDC, user: w, onBehalfOf: w, amount: usdc(n), interestRateMode: 2, borrowRate: 0n, referralCode: 0 },
      },
      transfer(USDC, SP_DAI, w, usdc(n)),
    ];
  },
  repay(p: Protocol, w: string, n: number): EtlLog[] {
    if (p === 'morpho')
      return [
        { address: MORPHO, event: SIG.mRepay, args: { id: MARKET, caller: w, onBehalf: w, assets: usdc(n), shares: usdc(n) * 10n ** 6n } },
        transfer(USDC, w, MORPHO, usdc(n)),
      ];
    if (p === 'compound')
      return [
        transfer(USDC, w, C_USDC, usdc(n)),
        {
          address: C_USDC,
          event: SIG.cRepay,
          args: { payer: w, borrower: w, repayAmount: usdc(n), accountBorrows: 0n, totalBorrows: usdc(1e8) },
        },
      ];
    return [
      { address: pool(p), event: SIG.aaveRepay, args: { reserve: USDC, user: w, repayer: w, amount: usdc(n), useATokens: false } },
      transfer(USDC, w, SP_DAI, usdc(n)),
    ];
  },
  liquidate(p: Protocol, w: string, liquidator: string, n: number): EtlLog[] {
    if (p === 'morpho')
      return [
        {
          address: MORPHO,
          event: SIG.mLiquidate,
          args: {
            id: MARKET,
            caller: liquidator,
            borrower: w,
            repaidAssets: usdc(n),
            repaidShares: usdc(n) * 10n ** 6n,
            seizedAssets: dai(n * 1.05),
            badDebtAssets: 0n,
            badDebtShares: 0n,
          },
        },
      ];
    if (p === 'compound')
      return [
        {
          address: C_USDC,
          event: SIG.cLiquidate,
          args: { liquidator, borrower: w, repayAmount: usdc(n), cTokenCollateral: C_DAI, seizeTokens: cTokens(dai(n * 1.05)) },
        },
        transfer(C_DAI, w, liquidator, cTokens(dai(n * 1.05))),
      ];
    return [
      {
        address: pool(p),
        event: SIG.aaveLiquidation,
        args: {
          collateralAsset: DAI,
          debtAsset: USDC,
          user: w,
          debtToCover: usdc(n),
          liquidatedCollateralAmount: dai(n * 1.05),
          liquidator,
          receiveAToken: false,
        },
      },
    ];
  },
};

let counter = 1;
const addr = () =>
  `0x${(counter++).toString(16).padStart(8, '0')}${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}${'c4'.repeat(10)}`;
const W = {
  fresh: addr(),
  honest: Object.fromEntries(PROTOCOLS.map((p) => [p, addr()])) as Record<Protocol, string>,
  liquidated: Object.fromEntries(PROTOCOLS.map((p) => [p, addr()])) as Record<Protocol, string>,
  flash: Object.fromEntries(PROTOCOLS.map((p) => [p, addr()])) as Record<Protocol, string>,
  mover: { spark: addr(), compound: addr() },
  receiver: { spark: addr(), compound: addr() },
  liquidator: addr(),
  unknownMarket: addr(),
  curve: addr(),
};
const CURVE_USDC_USDT = '0x4f493b7de8aac7d55f71853688b1f7c8f0243c85'; // unread.json: spark-address-registry Ethereum.CURVE_USDCUSDT
const plain = (x: EtlExport, w: string, d: number) => x.tx({ from: w, to: addr(), at: day(d), value: 10n ** 15n });

function buildExport(): string {
  const x = new EtlExport(17_500_000);
  // the Morpho market is created first (its id names it from then on)
  x.tx({
    from: addr(),
    to: MORPHO,
    at: day(-1),
    logs: [{ address: MORPHO, event: SIG.mCreate, args: { id: MARKET, marketParams: PARAMS } }],
  });
  plain(x, W.fresh, 730);
  // the same borrowers on each (test/helpers/lending-histories.ts): DAI as collateral, USDC borrowed
  writeBorrowers(x, act, PROTOCOLS, pool, W, day, (w, d) => plain(x, w, d));
  // positions moved by token transfer: $100k supplied, the spDAI / cDAI sent to another wallet the next day
  x.tx({ from: W.mover.spark, to: SPARK_POOL, at: day(0), logs: act.supply('spark', W.mover.spark, 100_000) });
  x.tx({ from: W.mover.spark, to: SP_DAI, at: day(1), logs: [transfer(SP_DAI, W.mover.spark, W.receiver.spark, dai(100_000))] });
  x.tx({ from: W.mover.compound, to: C_DAI, at: day(0), logs: act.supply('compound', W.mover.compound, 100_000) });
  x.tx({
    from: W.mover.compound,
    to: C_DAI,
    at: day(1),
    logs: [transfer(C_DAI, W.mover.compound, W.receiver.compound, cTokens(dai(100_000)))],
  });
  for (let m = 1; m <= 12; m++)
    for (const w of [W.mover.spark, W.mover.compound, W.receiver.spark, W.receiver.compound]) plain(x, w, 30 * m);
  // a Morpho market the export never saw created
  const other = '0x' + 'ab'.repeat(32);
  x.tx({
    from: W.unknownMarket,
    to: MORPHO,
    at: day(0),
    logs: [
      {
        address: MORPHO,
        event: SIG.mSupplyCollateral,
        args: { id: other, caller: W.unknownMarket, onBehalf: W.unknownMarket, assets: dai(5) },
      },
    ],
  });
  // a trader on Curve (not read): USDC paid into the pool, USDT back
  x.tx({
    from: W.curve,
    to: CURVE_USDC_USDT,
    at: day(3),
    logs: [
      transfer(USDC, W.curve, CURVE_USDC_USDT, usdc(5_000)),
      transfer('0xdac17f958d2ee523a2206206994597c13d831ec7', CURVE_USDC_USDT, W.curve, usdc(4_999)),
    ],
  });
  return x.write('credence-etl-lending-protocols-');
}

let db: Db;
let repo: IngestionRepo;
beforeAll(async () => {
  db = await testDatabase();
  repo = createIngestionRepo(db);
  await importEthereumEtl({ db, repo }, buildExport(), { chainId: 1 });
}, 180_000);
afterAll(async () => {
  await db?.close();
});

const scores = async (w: string) =>
  Object.fromEntries(scoreWallet({ features: await repo.features(w) }).map((r) => [r.category, r.score])) as Record<Category, number>;
const rowsOf = async (w: string) =>
  (await lendingRows(db, w)).map((r) => [r.kind, r.protocol, r.contract, r.counterparty, Number(r.value_usd), r.ref]);

describe('the registry pins the new protocols from maintained sources', () => {
  it('Morpho Blue, SparkLend, Compound V2, Uniswap V4 and Balancer V2 at their published addresses, each with its source', () => {
    expect(contractInfo(1, MORPHO)).toMatchObject({
      protocol: 'morpho-blue',
      role: 'morpho-blue',
      source: expect.stringContaining('@morpho-org/blue-sdk'),
    });
    expect(contractInfo(1, SPARK_POOL)).toMatchObject({
      protocol: 'spark',
      role: 'lending-pool',
      source: expect.stringContaining('spark-address-registry'),
    });
    expect(contractInfo(1, SP_DAI)).toMatchObject({ protocol: 'spark', role: 'a-token', pool: SPARK_POOL, reserve: DAI });
    expect(contractInfo(1, C_DAI)).toMatchObject({
      protocol: 'compound-v2',
      role: 'c-token',
      reserve: DAI,
      source: expect.stringContaining('compound-protocol networks/mainnet.json'),
    });
    // cETH: ether, valued as WETH
    expect(contractInfo(1, '0x4ddc2d193948926d02f9b1fe9e1daa0718270ed5')).toMatchObject({
      role: 'c-token',
      reserve: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    });
    expect(contractInfo(1, '0x000000000004444c5dc75cb358380d2e3de08a90')).toMatchObject({
      protocol: 'uniswap-v4',
      role: 'v4-pool-manager',
      source: expect.stringContaining('@uniswap/sdk-core'),
    });
    expect(contractInfo(1, '0xba12222222228d8ba445958a75a0704d566bf2c8')).toMatchObject({
      protocol: 'balancer-v2',
      role: 'balancer-vault',
      source: expect.stringContaining('@balancer-labs/v2-deployments'),
    });
    for (const c of pinnedContracts(1)) expect(contractInfo(1, c.address)!.source, c.address).toMatch(/\S/);
    expect(protocolsRead(1)).toEqual(
      expect.arrayContaining(['aave-v3', 'spark', 'morpho-blue', 'compound-v2', 'compound-v3', 'uniswap-v4', 'balancer-v2']),
    );
    expect(protocolsRead(8453)).toEqual(expect.arrayContaining(['morpho-blue', 'uniswap-v4']));
  });

  it('the JSON-RPC plan reads each new protocol from its deployment block on every chain, never from block 0', () => {
    const NEW = ['morpho-blue', 'spark', 'compound-v2', 'uniswap-v4', 'balancer-v2'];
    for (const chainId of REGISTRY_CHAINS) {
      const mine = pinnedContracts(chainId).filter((c) => NEW.includes(c.protocol));
      for (const c of mine) expect(c.fromBlock, `${chainId} ${c.protocol} ${c.address}`).toBeGreaterThan(0);
      // no stream the plan builds for them starts earlier than its contract's deployment
      const plan = buildPlan(mine.filter((c) => c.role === 'v4-pool-manager' || c.role === 'balancer-vault'));
      expect(plan.streams.length, String(chainId)).toBeGreaterThan(0);
      for (const st of plan.streams) expect(st.fromBlock, `${chainId} ${st.address}`).toBeGreaterThan(0);
    }
    // the published blocks (Uniswap's and Balancer's own subgraphs, the L2 ones also in Uniswap's deployment receipts)
    const from = (chainId: number, a: string) => pinnedContracts(chainId).find((c) => c.address === a)?.fromBlock;
    expect(from(1, '0x000000000004444c5dc75cb358380d2e3de08a90')).toBe(21_688_329);
    expect(from(42161, '0x360e68faccca8ca495c1b759fd9eee466db9fb32')).toBe(297_842_872);
    expect(from(1, '0xba12222222228d8ba445958a75a0704d566bf2c8')).toBe(12_272_146);
    // Base's Vault: from balancer-deployments (the installed package predates it), with its block
    expect(contractInfo(8453, '0xba12222222228d8ba445958a75a0704d566bf2c8')).toMatchObject({
      role: 'balancer-vault',
      fromBlock: 1_196_036,
      source: expect.stringContaining('balancer-deployments'),
    });
    expect(protocolsRead(8453)).toContain('balancer-v2');
    // chain 1's first sync starts at Compound V2's Comptroller (May 2019), not at genesis
    expect(buildPlan(pinnedContracts(1)).start).toBe(7_710_671);
  });

  it('the import learned the Morpho market from its CreateMarket (the id is the hash of its params)', () => {
    expect(morphoMarket(1, MARKET)).toEqual({ loanToken: USDC, collateralToken: DAI });
  });
});

describe('the same two-year history scores the same on Aave, SparkLend, Morpho Blue and Compound V2', () => {
  it('each protocol stores the same rows: supply, 24 borrow/repay cycles and a withdrawal, valued alike', async () => {
    const shapes = await Promise.all(
      PROTOCOLS.map(async (p) => (await rowsOf(W.honest[p])).map(([kind, , , counterparty, usd]) => [kind, counterparty, usd])),
    );
    expect(shapes[0]).toHaveLength(50);
    for (const s of shapes.slice(1)) expect(s).toEqual(shapes[0]);
    expect((await rowsOf(W.honest.morpho))[0]).toEqual(['lending_supply', 'morpho-blue', MORPHO, DAI, 60_000, null]);
    expect((await rowsOf(W.honest.compound))[1]).toEqual(['lending_borrow', 'compound-v2', C_USDC, USDC, 10_000, null]);
    expect((await rowsOf(W.honest.spark))[1]).toEqual(['lending_borrow', 'spark', SPARK_POOL, USDC, 10_000, null]);
  });

  it('positions over time and DEFI_LENDING within 5% of one another (and above a fresh wallet)', async () => {
    const feats = await Promise.all(PROTOCOLS.map((p) => repo.features(W.honest[p])));
    const debt = feats.map((f) => f.lending.positions!.debtUsdDays);
    const cycles = feats.map((f) => f.lending.positions!.cycles);
    expect(cycles).toEqual([24, 24, 24, 24]);
    expect(Math.max(...debt) / Math.min(...debt)).toBeLessThan(1.01);
    const lending = await Promise.all(PROTOCOLS.map(async (p) => (await scores(W.honest[p])).DEFI_LENDING));
    const fresh = (await scores(W.fresh)).DEFI_LENDING;
    expect(Math.min(...lending)).toBeGreaterThan(fresh);
    expect(Math.max(...lending)).toBeLessThanOrEqual(Math.min(...lending) * 1.05);
  });

  it('a liquidation counts as one on each', async () => {
    for (const p of PROTOCOLS) {
      const f = await repo.features(W.liquidated[p]);
      expect(f.lending.liquidations, p).toBe(1);
      expect(f.lending.liquidatedUsd ?? 7_500, p).toBe(7_500);
    }
    // the liquidator is not liquidated, and gets no borrower's rows
    expect((await repo.features(W.liquidator)).lending.liquidations).toBe(0);
  });
});

describe('the attacks of the cost model on each new protocol', () => {
  it('a flash round trip (supply, borrow, repay, withdraw in one transaction) holds nothing for any time', async () => {
    const fresh = (await scores(W.fresh)).DEFI_LENDING;
    for (const p of PROTOCOLS) {
      const pos = (await repo.features(W.flash[p])).lending.positions!;
      expect(pos.debtUsdDays, p).toBe(0);
      expect(pos.collateralUsdDays, p).toBe(0);
      expect(pos.cycles, p).toBe(0);
      expect((await scores(W.flash[p])).DEFI_LENDING, p).toBeLessThanOrEqual(fresh + 50);
    }
  });

  it('a SparkLend spToken or Compound V2 cToken sent away moves the collateral: one day held, not a year', async () => {
    for (const p of ['spark', 'compound'] as const) {
      const rows = await rowsOf(W.mover[p]);
      expect(
        rows.map(([kind, , , counterparty, usd, ref]) => [kind, counterparty, Math.round(Number(usd)), ref]),
        p,
      ).toEqual([
        ['lending_supply', DAI, 100_000, null],
        ['lending_withdraw', DAI, 100_000, 'atoken-transfer'],
      ]);
      const sender = (await repo.features(W.mover[p])).lending.positions!;
      expect(sender.collateralUsdDays, p).toBeGreaterThan(99_000);
      expect(sender.collateralUsdDays, p).toBeLessThan(101_000);
      // the receiver holds it from the transfer to its latest transaction (day 360)
      const receiver = (await repo.features(W.receiver[p])).lending.positions!;
      expect(receiver.collateralUsdDays / 100_000, p).toBeCloseTo(359, 0);
      // counted as a move, not as a Supply of its own
      expect((await repo.features(W.receiver[p])).lending.supplies, p).toBe(0);
    }
  });

  it('a cToken mint and redeem (Transfer from and to the cToken itself) add no move to the Mint and Redeem rows', async () => {
    const rows = await rowsOf(W.flash.compound);
    expect(rows.map(([kind, , contract]) => [kind, contract])).toEqual([
      ['lending_supply', C_DAI],
      ['lending_borrow', C_USDC],
      ['lending_repay', C_USDC],
      ['lending_withdraw', C_DAI],
    ]);
  });

  it('a liquidation seizing cTokens moves the seized collateral from the borrower to the liquidator', async () => {
    const rows = await rowsOf(W.liquidated.compound);
    expect(rows.map(([kind, , contract, , usd, ref]) => [kind, contract, Math.round(Number(usd)), ref])).toEqual([
      ['lending_supply', C_DAI, 20_000, null],
      ['lending_borrow', C_USDC, 15_000, null],
      ['lending_liquidation', C_USDC, 7_500, null],
      ['lending_withdraw', C_DAI, 7_875, 'atoken-transfer'],
    ]);
  });

  it('a Morpho market never seen created is stored as its own unvalued position (the id as counterparty)', async () => {
    expect(await rowsOf(W.unknownMarket)).toEqual([['lending_supply', 'morpho-blue', MORPHO, '0x' + 'ab'.repeat(32), 0, null]]);
    const [{ v }] = await db.query<{ v: string | null }>(
      "SELECT value_usd::text AS v FROM wallet_activity WHERE wallet = $1 AND kind = 'lending_supply'",
      [W.unknownMarket],
    );
    expect(v).toBeNull();
  });
});

describe('coverage says what is not read', () => {
  it('a wallet that traded on Curve (a listed unread protocol) is partial, naming it; the borrowers on read protocols are not', async () => {
    const cov = createCoverageRepo(db);
    const unread = unreadContracts();
    expect(unread.find((u) => u.address === CURVE_USDC_USDT)).toMatchObject({ chainId: 1, protocol: 'curve' });
    const touched = await cov.unreadTouched([W.curve, ...PROTOCOLS.map((p) => W.honest[p])], unread);
    expect([...touched]).toEqual([[W.curve, ['curve']]]);
    const synced = [{ chainId: 1, syncedToBlock: 100, finalizedBlock: 100, complete: true, source: 'rpc', syncedAt: new Date() }];
    const at = new Date();
    expect(coverageOf([1], synced, at, false, [1], touched.get(W.curve))).toMatchObject({
      status: 'partial',
      reason: 'UNREAD_PROTOCOL:curve',
    });
    expect(coverageOf([1], synced, at, false, [1], touched.get(W.honest.morpho))).toMatchObject({ status: 'complete', reason: null });
  });
});

describe('Morpho Blue over JSON-RPC and the explorer', () => {
  it('the JSON-RPC plan asks Morpho Blue for the wallet as onBehalf (topics 2 and 3), its liquidations after a first borrow', () => {
    const plan = buildPlan(pinnedContracts(1));
    const w = addr();
    const sel = (n: string) => EVENTS.find((e) => e.name === n)!.topic0;
    const before = plan.queries(w, 19_000_000, 19_001_000, {});
    const at = (qs: typeof before, p: number) =>
      qs.find((q) => q.topics[p] === walletTopic(w) && (q.address === null || (q.address as string[]).includes(MORPHO)))!;
    expect(at(before, 2).topics[0]).toEqual(
      expect.arrayContaining([sel('MorphoBorrow'), sel('MorphoWithdraw'), sel('MorphoWithdrawCollateral')]),
    );
    expect(at(before, 3).topics[0]).toEqual(
      expect.arrayContaining([sel('MorphoSupply'), sel('MorphoSupplyCollateral'), sel('MorphoRepay')]),
    );
    expect(at(before, 3).topics[0]).not.toContain(sel('MorphoLiquidate'));
    const after = plan.queries(w, 19_000_000, 19_001_000, { lending_borrow: 19_000_000 });
    expect(after.some((q) => q.topics[3] === walletTopic(w) && (q.topics[0] as string[]).includes(sel('MorphoLiquidate')))).toBe(true);
  });

  it('the explorer source reads the same rows as the import (the market known from its CreateMarket)', async () => {
    const w = addr();
    const { h, tx: txAt } = historyOfLogs(20_000_000, 17_500_000);
    txAt(w, MORPHO, day(0), act.supply('morpho', w, 60_000));
    txAt(w, MORPHO, day(1), act.borrow('morpho', w, 10_000));
    txAt(w, MORPHO, day(21), act.repay('morpho', w, 10_100));
    const fake = await startFakeExplorer({ 1: h }, { rps: 1000 });
    const edb = await testDatabase();
    try {
      const erepo = createIngestionRepo(edb);
      const src = createExplorerClient({ url: fake.url, apiKey: fake.apiKey, rps: 1000 }).source(1);
      await syncWalletFromExplorer(edb, erepo, src, w, {});
      const rows = (await lendingRows(edb, w)).map((r) => [r.kind, r.contract, r.counterparty, Number(r.value_usd)]);
      expect(rows).toEqual([
        ['lending_supply', MORPHO, DAI, 60_000],
        ['lending_borrow', MORPHO, USDC, 10_000],
        ['lending_repay', MORPHO, USDC, 10_100],
      ]);
    } finally {
      await fake.close();
      await edb.close();
    }
  }, 60_000);
});
