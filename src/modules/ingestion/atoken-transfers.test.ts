// Collateral that leaves by aToken transfer (lending positions over time), replayed through the ethereum-etl
// import with every event at the real pinned mainnet contracts: the Aave V3 Ethereum Pool and its aUSDC token
// (@bgd-labs/aave-address-book AaveV3Ethereum.ASSETS.USDC.A_TOKEN). An Aave position is the wallet's aTokens: a
// wallet that supplies $100k and transfers its aUSDC away no longer holds the $100k (the receiver does, and can
// withdraw it), though no Withdraw event names the sender. Without reading the transfer, the sender's collateral
// kept counting up to its latest activity: one cheap transaction a month was enough to "hold" $100k for a year.
//
// Measured on this export before aToken transfers were read (the tree of 3d7d20f): the attacker 36.0M USD-days of
// collateral, DEFI_LENDING 174 and OVERALL 134 (a fresh wallet 0 and 59; the honest supplier's year 36.5M, 174 and
// 136: a supply-only position scores what the honest one does); the receiver 0 USD-days and DEFI_LENDING 0 (its
// Withdraw of collateral it was never seen to supply counted nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from 'viem';
import { testDatabase } from '../../../test/helpers/db.js';
import { encodeLog, EtlExport, SIGS, type EtlLog } from '../../../test/helpers/etl-export.js';
import { historyOfLogs, startFakeExplorer } from '../../../test/fakes/explorer-api.js';
import { asLendingEvent, lendingRows as lendingRowsOf, type LendingRow } from '../../../test/helpers/lending-rows.js';
import type { Db } from '../../platform/db/types.js';
import type { Category } from '../scoring/contracts.js';
import { replayLending } from '../scoring/model/lending-positions.js';
import { importEthereumEtl } from './etl/import.js';
import { createExplorerClient } from './explorer/source.js';
import { syncWalletFromExplorer } from './explorer/sync.js';
import { contractInfo, pinnedContracts } from './registry/index.js';
import { buildPlan, walletTopic } from './log-plan.js';
import { createIngestionRepo, type IngestionRepo } from './repo.js';
import { model } from '../scoring/params.js';

const { scoreWallet } = model;

const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2'; // Aave V3 Ethereum Pool
const AUSDC = '0x98c23e9d8f34fefb1b7bd6a91b7ff122f4e16f5c'; // its aUSDC (AaveV3Ethereum.ASSETS.USDC.A_TOKEN)
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ZERO = '0x0000000000000000000000000000000000000000';
const SIG = {
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  withdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  // AToken (V3): emitted with every Transfer between holders; its value is scaled (divided by the liquidity index)
  balanceTransfer: 'event BalanceTransfer(address indexed from, address indexed to, uint256 value, uint256 index)',
};
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1, 12);
const day = (n: number) => new Date(T0 + n * DAY);
const usdc = (n: number) => parseUnits(String(n), 6);
const RAY = 10n ** 27n;
const INDEX = (RAY * 105n) / 100n; // a liquidity index of 1.05

const transfer = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});
/** What a Pool.supply of USDC emits: the USDC paid to the aToken, the aTokens minted (from the zero address), Supply. */
const supplyLogs = (w: string, usd: number): EtlLog[] => [
  transfer(USDC, w, AUSDC, usdc(usd)),
  transfer(AUSDC, ZERO, w, usdc(usd)),
  { address: POOL, event: SIG.supply, args: { reserve: USDC, user: w, onBehalfOf: w, amount: usdc(usd), referralCode: 0 } },
];
/** What a Pool.withdraw emits: the aTokens burnt (to the zero address), the USDC paid out, Withdraw. */
const withdrawLogs = (w: string, usd: number): EtlLog[] => [
  transfer(AUSDC, w, ZERO, usdc(usd)),
  transfer(USDC, AUSDC, w, usdc(usd)),
  { address: POOL, event: SIG.withdraw, args: { reserve: USDC, user: w, to: w, amount: usdc(usd) } },
];
/** What an aToken transfer between holders emits (V3): Transfer (underlying units) and BalanceTransfer (scaled). */
const aTokenTransferLogs = (from: string, to: string, usd: number): EtlLog[] => [
  transfer(AUSDC, from, to, usdc(usd)),
  { address: AUSDC, event: SIG.balanceTransfer, args: { from, to, value: (usdc(usd) * RAY) / INDEX, index: INDEX } },
];

let counter = 1;
const addr = () =>
  `0x${(counter++).toString(16).padStart(8, '0')}${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}${'a7'.repeat(10)}`;
/** one cheap transaction: 0.001 ETH to someone */
const plain = (x: EtlExport, w: string, d: number) => x.tx({ from: w, to: addr(), at: day(d), value: 10n ** 15n });

const W = { fresh: addr(), attacker: addr(), receiver: addr(), honest: addr() };

function buildExport(): string {
  const x = new EtlExport();
  plain(x, W.fresh, 360);
  // the attack: $100k supplied, the aUSDC sent to another wallet the next day, one plain transaction a month
  x.tx({ from: W.attacker, to: POOL, at: day(0), logs: supplyLogs(W.attacker, 100_000) });
  x.tx({ from: W.attacker, to: AUSDC, at: day(1), logs: aTokenTransferLogs(W.attacker, W.receiver, 100_000) });
  for (let m = 1; m <= 12; m++) plain(x, W.attacker, 30 * m);
  // the receiver holds the $100k from then on (one transaction a month too), and withdraws it after a year
  for (let m = 1; m <= 12; m++) plain(x, W.receiver, 30 * m + 2);
  x.tx({ from: W.receiver, to: POOL, at: day(366), logs: withdrawLogs(W.receiver, 100_000) });
  // an honest supplier: $100k supplied, held a year, withdrawn (its aTokens minted and burnt, never transferred)
  x.tx({ from: W.honest, to: POOL, at: day(0), logs: supplyLogs(W.honest, 100_000) });
  for (let m = 1; m <= 12; m++) plain(x, W.honest, 30 * m + 1);
  x.tx({ from: W.honest, to: POOL, at: day(365), logs: withdrawLogs(W.honest, 100_000) });
  return x.write('credence-etl-atoken-');
}

let db: Db;
let repo: IngestionRepo;
beforeAll(async () => {
  db = await testDatabase();
  repo = createIngestionRepo(db);
  await importEthereumEtl({ db, repo }, buildExport(), { chainId: 1 });
}, 120_000);
afterAll(async () => {
  await db?.close();
});

type Row = LendingRow;
const lendingRows = (w: string) => lendingRowsOf(db, w);
const asEvent = (r: Row) => asLendingEvent(r);
const scores = async (w: string) =>
  Object.fromEntries(scoreWallet({ features: await repo.features(w) }).map((r) => [r.category, r.score])) as Record<Category, number>;

describe('aToken transfers move Aave collateral (ethereum-etl import, real pinned contracts)', () => {
  it('the registry pins every market aToken with its pool and reserve', () => {
    expect(contractInfo(1, AUSDC)).toMatchObject({ role: 'a-token', protocol: 'aave-v3', pool: POOL, reserve: USDC });
    // the V2 market's aUSDC too, with the V2 LendingPool
    expect(contractInfo(1, '0xbcca60bb61934080951369a648fb03df4f96263c')).toMatchObject({
      role: 'a-token',
      protocol: 'aave-v2',
      pool: '0x7d2768de32b0b80b7a3454c06bdac94a69ddc7a9',
      reserve: USDC,
    });
  });

  it('the JSON-RPC plan asks for aToken Transfer logs with the wallet as from (topic 1) and as to (topic 2)', () => {
    const pinned = pinnedContracts(1);
    const plan = buildPlan(pinned);
    const aTokens = pinned.filter((c) => c.role === 'a-token');
    expect(aTokens.length).toBeGreaterThan(100); // every market's, V2 and V3
    // from its pool's block on (no earlier than what the plan starts at)
    expect(aTokens.find((c) => c.address === AUSDC)!.fromBlock).toBe(pinned.find((c) => c.address === POOL)!.fromBlock);
    const w = addr();
    const qs = plan.queries(w, 19_000_000, 19_010_000, {});
    const TRANSFER = encodeLog(SIGS.transfer, { from: w, to: w, value: 0n }).topics[0];
    for (const position of [1, 2]) {
      const q = qs.find((x) => x.topics[position] === walletTopic(w))!;
      expect((q.topics[0] as string[]).includes(TRANSFER), `position ${position}`).toBe(true);
      expect(q.address === null || (q.address as string[]).includes(AUSDC), `position ${position}`).toBe(true);
    }
    expect(plan.keep({ address: AUSDC, topics: [TRANSFER] })).toBe(true);
  });

  it('supplying $100k and sending the aUSDC away the next day holds $100k for one day, not a year of cheap transactions', async () => {
    const f = await repo.features(W.attacker);
    const p = f.lending.positions!;
    // one day of $100k (the supply to the transfer), whatever it sends later
    expect(p.collateralUsdDays).toBeGreaterThan(99_000);
    expect(p.collateralUsdDays).toBeLessThan(101_000);
    const s = await scores(W.attacker);
    const fresh = await scores(W.fresh);
    expect(s.DEFI_LENDING).toBeLessThanOrEqual(fresh.DEFI_LENDING + 50);
    expect(s.OVERALL).toBeLessThanOrEqual(fresh.OVERALL + 100);

    // the transfer is what closes it: its row is a withdrawal of USDC from the Pool, valued like the Pool's rows
    const rows = await lendingRows(W.attacker);
    expect(rows.map((r) => [r.kind, r.contract, r.counterparty, Number(r.value_usd), r.ref])).toEqual([
      ['lending_supply', POOL, USDC, 100_000, null],
      ['lending_withdraw', POOL, USDC, 100_000, 'atoken-transfer'],
    ]);
    // without it (the replay before aToken transfers were read) the $100k stays to the latest cheap transaction:
    // ~36M USD-days (an earlier model scored that 174 as "own capital"; now capital held is no credit record either way)
    const without = replayLending(rows.filter((r) => r.ref !== 'atoken-transfer').map(asEvent), f.lastActivityAt!.getTime());
    expect(without.collateralUsdDays).toBeGreaterThan(35_000_000);
    const blind = Object.fromEntries(
      scoreWallet({ features: { ...f, lending: { ...f.lending, positions: without } } }).map((r) => [r.category, r.score]),
    ) as Record<Category, number>;
    expect(blind.DEFI_LENDING).toBe((await scores(W.honest)).DEFI_LENDING);
  });

  it('the receiving wallet holds the collateral from the transfer on, and its withdrawal closes it', async () => {
    const rows = await lendingRows(W.receiver);
    expect(rows.map((r) => [r.kind, r.contract, r.counterparty, Number(r.value_usd), r.ref, r.tx_from])).toEqual([
      ['lending_supply', POOL, USDC, 100_000, 'atoken-transfer', W.attacker],
      ['lending_withdraw', POOL, USDC, 100_000, null, W.receiver],
    ]);
    const p = (await repo.features(W.receiver)).lending.positions!;
    // $100k from day 1 to day 366
    expect(p.collateralUsdDays).toBeGreaterThan(100_000 * 364.9);
    expect(p.collateralUsdDays).toBeLessThan(100_000 * 365.1);
    // it scores what the honest supplier of a year does
    expect((await scores(W.receiver)).DEFI_LENDING).toBe((await scores(W.honest)).DEFI_LENDING);
  });

  it('an honest supplier is unchanged, and the aToken mint and burn around Supply and Withdraw are not counted again', async () => {
    const rows = await lendingRows(W.honest);
    // one supply and one withdrawal: the Pool's own events; Transfer from and to the zero address add nothing
    expect(rows.map((r) => [r.kind, r.contract, r.counterparty, Number(r.value_usd), r.ref])).toEqual([
      ['lending_supply', POOL, USDC, 100_000, null],
      ['lending_withdraw', POOL, USDC, 100_000, null],
    ]);
    const f = await repo.features(W.honest);
    expect(f.lending.supplies).toBe(1);
    expect(f.lending.positions!.collateralUsdDays).toBeCloseTo(100_000 * 365, -3);
    // the same as the replay of the Pool's Supply and Withdraw alone
    expect(f.lending.positions).toEqual(replayLending(rows.map(asEvent), f.lastActivityAt!.getTime()));
    // a year of supplying alone is no credit record (174 under an earlier model, see the header)
    expect((await scores(W.honest)).DEFI_LENDING).toBe(0);
    // the aToken's own transfers are still the wallet's token movements (never scored as trading)
    const [{ n }] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM wallet_activity WHERE wallet = $1 AND kind = 'transfer_erc20' AND contract = $2",
      [W.honest, AUSDC],
    );
    expect(n).toBe(2);
  });

  it('BalanceTransfer (the scaled twin of a V3 aToken Transfer) is not read: one transfer counts once', async () => {
    const all = await db.query<{ wallet: string; kind: string; log_index: number }>(
      "SELECT wallet, kind, log_index FROM wallet_activity WHERE contract = $1 AND kind LIKE 'lending\\_%' AND ref = 'atoken-transfer'",
      [POOL],
    );
    expect(all.map((r) => [r.wallet, r.kind, r.log_index]).sort()).toEqual(
      [
        [W.attacker, 'lending_withdraw', 0],
        [W.receiver, 'lending_supply', 0],
      ].sort(),
    );
  });
});

describe('aToken transfers through the explorer source (Etherscan API V2 simulator)', () => {
  it('reads the transfer from the logs naming the wallet; its token list row (no log index) adds no second row', async () => {
    const [a, r] = [addr(), addr()];
    const { h, tx: txAt } = historyOfLogs(20_000_000, 19_000_000);
    const tx = (from: string, to: string, d: number, logs: EtlLog[], value = '0') => txAt(from, to, day(d), logs, value);
    tx(a, POOL, 0, supplyLogs(a, 100_000));
    tx(a, AUSDC, 1, aTokenTransferLogs(a, r, 100_000));
    for (let m = 1; m <= 12; m++) tx(a, addr(), 30 * m, [], '1000000000000000');
    for (let m = 1; m <= 12; m++) tx(r, addr(), 30 * m + 2, [], '1000000000000000');
    const fake = await startFakeExplorer({ 1: h }, { rps: 1000 });
    const edb = await testDatabase();
    try {
      const erepo = createIngestionRepo(edb);
      const src = createExplorerClient({ url: fake.url, apiKey: fake.apiKey, rps: 1000 }).source(1);
      for (const w of [a, r]) await syncWalletFromExplorer(edb, erepo, src, w, {});
      const rows = async (w: string) =>
        (
          await edb.query<{ kind: string; contract: string; counterparty: string; value_usd: string; ref: string | null }>(
            "SELECT kind, contract, counterparty, value_usd::text AS value_usd, ref FROM wallet_activity WHERE wallet = $1 AND kind LIKE 'lending\\_%' ORDER BY block_number, log_index",
            [w],
          )
        ).map((x) => [x.kind, x.contract, x.counterparty, Number(x.value_usd), x.ref]);
      expect(await rows(a)).toEqual([
        ['lending_supply', POOL, USDC, 100_000, null],
        ['lending_withdraw', POOL, USDC, 100_000, 'atoken-transfer'],
      ]);
      expect(await rows(r)).toEqual([['lending_supply', POOL, USDC, 100_000, 'atoken-transfer']]);
      const pa = (await erepo.features(a)).lending.positions!;
      expect(pa.collateralUsdDays).toBeGreaterThan(99_000);
      expect(pa.collateralUsdDays).toBeLessThan(101_000);
      // the receiver holds it from day 1 to its latest transaction (day 362)
      expect((await erepo.features(r)).lending.positions!.collateralUsdDays).toBeCloseTo(100_000 * 361, -3);
    } finally {
      await fake.close();
      await edb.close();
    }
  }, 60_000);
});
