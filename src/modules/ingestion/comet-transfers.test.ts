// A Compound V3 (Comet) base balance moved with `transfer`/`transferFrom` (lending positions over time),
// replayed through the ethereum-etl import with every event at the real pinned mainnet market, cUSDCv3
// (data/registry/1.json, role 'comet', base USDC). Comet is its own ERC-20: `transferBase` emits no Supply or
// Withdraw, only a burn `Transfer(src, 0, withdrawn)` when it takes the sender's positive balance and a mint
// `Transfer(0, dst, supplied)` when it raises the receiver's (compound-finance/comet contracts/Comet.sol). Supply
// itself emits `Supply` and then, for the part that is not a repayment, the same mint; Withdraw emits `Withdraw` and
// then, for the part that came out of a positive balance, the burn; a borrow (below zero) and a repayment emit no
// Transfer at all. Without reading the transfer, the sender's $100k kept counting up to its latest activity: one
// cheap transaction a month was enough to "hold" $100k for a year.
//
// Measured on this export before Comet transfers were read (the tree of 8cd6479): the attacker 36.0M USD-days of
// collateral, DEFI_LENDING 174 and OVERALL 134 (a fresh wallet 0 and 59; the honest Comet supplier's year 36.5M, 174
// and 136: a supply-only position scores what the honest one does); the receiver 0 USD-days and DEFI_LENDING 0 (its
// Withdraw of a balance it was never seen to supply read as a $100k borrow opened on its last day: 0 USD-days).
// Now: the attacker 100k USD-days (one day), DEFI_LENDING 0, OVERALL 96; the receiver 36.5M and 174. The honest
// supplier (36.5M, 174) and the borrower (9.0M USD-days of debt, 16.4M of collateral, one 180-day cycle,
// DEFI_LENDING 513 under an earlier model; conduct 299 now) are the same before and after: their mints and burns are their Supply/Withdraw's own.
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

const COMET = '0xc3d688b66703497daa19211eedff47f25384cdc3'; // Compound V3 cUSDCv3 (mainnet)
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const ZERO = '0x0000000000000000000000000000000000000000';
const SIG = {
  supply: 'event Supply(address indexed from, address indexed dst, uint256 amount)',
  withdraw: 'event Withdraw(address indexed src, address indexed to, uint256 amount)',
  supplyCollateral: 'event SupplyCollateral(address indexed from, address indexed dst, address indexed asset, uint256 amount)',
};
const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1, 12);
const day = (n: number) => new Date(T0 + n * DAY);
const usdc = (n: number) => parseUnits(String(n), 6);

const transfer = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});
/** Comet.supply of base: the USDC paid in, Supply, then the mint of the part that raised a positive balance (none
 *  when it only repaid debt). */
const supplyLogs = (w: string, usd: number, minted = usd): EtlLog[] => [
  transfer(USDC, w, COMET, usdc(usd)),
  { address: COMET, event: SIG.supply, args: { from: w, dst: w, amount: usdc(usd) } },
  ...(minted > 0 ? [transfer(COMET, ZERO, w, usdc(minted))] : []),
];
/** Comet.withdraw of base: the USDC paid out, Withdraw, then the burn of the part taken from a positive balance
 *  (none for a borrow from a balance at or below zero). */
const withdrawLogs = (w: string, usd: number, burnt = usd): EtlLog[] => [
  transfer(USDC, COMET, w, usdc(usd)),
  { address: COMET, event: SIG.withdraw, args: { src: w, to: w, amount: usdc(usd) } },
  ...(burnt > 0 ? [transfer(COMET, w, ZERO, usdc(burnt))] : []),
];
/** Comet.transfer of base between two accounts with positive balances: a burn from the sender, a mint to the receiver. */
const transferBaseLogs = (from: string, to: string, usd: number): EtlLog[] => [
  transfer(COMET, from, ZERO, usdc(usd)),
  transfer(COMET, ZERO, to, usdc(usd)),
];

let counter = 1;
const addr = () =>
  `0x${(counter++).toString(16).padStart(8, '0')}${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}${'c3'.repeat(10)}`;
/** one cheap transaction: 0.001 ETH to someone */
const plain = (x: EtlExport, w: string, d: number) => x.tx({ from: w, to: addr(), at: day(d), value: 10n ** 15n });

const W = { fresh: addr(), attacker: addr(), receiver: addr(), honest: addr(), borrower: addr() };

function buildExport(): string {
  const x = new EtlExport();
  plain(x, W.fresh, 360);
  // the attack: $100k of base supplied, moved to another account the next day, one plain transaction a month
  x.tx({ from: W.attacker, to: COMET, at: day(0), logs: supplyLogs(W.attacker, 100_000) });
  x.tx({ from: W.attacker, to: COMET, at: day(1), logs: transferBaseLogs(W.attacker, W.receiver, 100_000) });
  for (let m = 1; m <= 12; m++) plain(x, W.attacker, 30 * m);
  // the receiver holds the $100k from then on (one transaction a month too), and withdraws it after a year
  for (let m = 1; m <= 12; m++) plain(x, W.receiver, 30 * m + 2);
  x.tx({ from: W.receiver, to: COMET, at: day(366), logs: withdrawLogs(W.receiver, 100_000) });
  // an honest supplier: $100k supplied, held a year, withdrawn (minted and burnt, never transferred)
  x.tx({ from: W.honest, to: COMET, at: day(0), logs: supplyLogs(W.honest, 100_000) });
  for (let m = 1; m <= 12; m++) plain(x, W.honest, 30 * m + 1);
  x.tx({ from: W.honest, to: COMET, at: day(365), logs: withdrawLogs(W.honest, 100_000) });
  // a borrower: WETH collateral (SupplyCollateral: not tracked), $10k of base supplied, then a $60k withdrawal that
  // takes the $10k (burnt) and borrows $50k (no Transfer for that part), repaid after 180 days with interest
  // ($50,500: all of it repays, nothing is minted), then $100k of base supplied and kept to the end of the year
  x.tx({
    from: W.borrower,
    to: COMET,
    at: day(0),
    logs: [
      transfer(WETH, W.borrower, COMET, 40n * 10n ** 18n),
      { address: COMET, event: SIG.supplyCollateral, args: { from: W.borrower, dst: W.borrower, asset: WETH, amount: 40n * 10n ** 18n } },
    ],
  });
  x.tx({ from: W.borrower, to: COMET, at: day(0.5), logs: supplyLogs(W.borrower, 10_000) });
  x.tx({ from: W.borrower, to: COMET, at: day(1), logs: withdrawLogs(W.borrower, 60_000, 10_000) });
  for (let m = 1; m <= 12; m++) plain(x, W.borrower, 30 * m + 3);
  x.tx({ from: W.borrower, to: COMET, at: day(181), logs: supplyLogs(W.borrower, 50_500, 0) });
  x.tx({ from: W.borrower, to: COMET, at: day(200), logs: supplyLogs(W.borrower, 100_000) });
  return x.write('credence-etl-comet-');
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
/** the borrower's DEFI_LENDING, before and after Comet transfers were read */
const BORROWER_DEFI_LENDING_CONDUCT = 299;
const short = (rows: Row[]) => rows.map((r) => [r.kind, r.contract, Number(r.value_usd), r.log_index, r.ref]);

describe('Comet base transfers move the balance (ethereum-etl import, the real pinned cUSDCv3)', () => {
  it('the registry pins the market with its base asset; decode reads its mints and burns as base moves of the account', async () => {
    expect(contractInfo(1, COMET)).toMatchObject({ role: 'comet', protocol: 'compound-v3', baseToken: USDC });
    // the transfer's two logs: a withdrawal of base from the sender, a supply to the receiver, rows of the market
    // valued as USDC, and still the accounts' token movements
    const moved = await db.query<{
      wallet: string;
      kind: string;
      direction: string | null;
      contract: string;
      counterparty: string | null;
      protocol: string | null;
      amount: string;
      value_usd: string | null;
      ref: string | null;
    }>(
      `SELECT wallet, kind, direction, contract, counterparty, protocol, amount::text AS amount, value_usd::text AS value_usd, ref FROM wallet_activity
        WHERE wallet IN ($1, $2) AND contract = $3 AND block_number = (SELECT block_number FROM wallet_activity WHERE wallet = $1 AND ref = 'comet-transfer' AND kind = 'lending_withdraw')
        ORDER BY log_index, kind`,
      [W.attacker, W.receiver, COMET],
    );
    expect(moved.map((r) => [r.wallet, r.kind, r.direction, r.counterparty, r.protocol, r.amount, Number(r.value_usd), r.ref])).toEqual([
      [W.attacker, 'lending_withdraw', 'out', null, 'compound-v3', '100000000000', 100_000, 'comet-transfer'],
      [W.attacker, 'transfer_erc20', 'out', ZERO, null, '100000000000', 0, null],
      [W.receiver, 'lending_supply', null, null, 'compound-v3', '100000000000', 100_000, 'comet-transfer'],
      [W.receiver, 'transfer_erc20', 'in', ZERO, null, '100000000000', 0, null],
    ]);
    // any other token's mint or burn is no lending
    const [{ n }] = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM wallet_activity WHERE ref = 'comet-transfer' AND contract <> $1",
      [COMET],
    );
    expect(n).toBe(0);
  });

  it('the JSON-RPC plan asks for Comet Transfer logs with the wallet as from (topic 1) and as to (topic 2), in no query of their own', () => {
    const pinned = pinnedContracts(1);
    const plan = buildPlan(pinned);
    const w = addr();
    const qs = plan.queries(w, 20_000_000, 20_010_000, {});
    const TRANSFER = encodeLog(SIGS.transfer, { from: w, to: w, value: 0n }).topics[0];
    for (const position of [1, 2]) {
      const q = qs.filter((x) => x.topics[position] === walletTopic(w));
      expect(q, `position ${position}`).toHaveLength(1);
      expect((q[0].topics[0] as string[]).includes(TRANSFER), `position ${position}`).toBe(true);
      expect(q[0].address === null || (q[0].address as string[]).includes(COMET), `position ${position}`).toBe(true);
    }
    // from the market's own block on
    const comet = pinned.find((c) => c.address === COMET)!;
    expect(plan.streams.some((s) => s.address === COMET && s.selectors.includes(TRANSFER) && s.fromBlock === comet.fromBlock)).toBe(true);
    expect(plan.keep({ address: COMET, topics: [TRANSFER] })).toBe(true);
  });

  it('supplying $100k and moving the base balance away the next day holds $100k for one day, not a year of cheap transactions', async () => {
    const f = await repo.features(W.attacker);
    const p = f.lending.positions!;
    // one day of $100k (the supply to the transfer), whatever it sends later (36.0M before)
    expect(p.collateralUsdDays).toBeGreaterThan(99_000);
    expect(p.collateralUsdDays).toBeLessThan(101_000);
    const s = await scores(W.attacker);
    const fresh = await scores(W.fresh);
    expect(s.DEFI_LENDING).toBeLessThanOrEqual(fresh.DEFI_LENDING + 50);
    expect(s.OVERALL).toBeLessThanOrEqual(fresh.OVERALL + 100);

    // the Supply and its own mint (the next log), and the transfer's burn; only the mint is an echo
    const rows = await lendingRows(W.attacker);
    expect(short(rows)).toEqual([
      ['lending_supply', COMET, 100_000, 1, null],
      ['lending_supply', COMET, 100_000, 2, 'comet-transfer'],
      ['lending_withdraw', COMET, 100_000, 0, 'comet-transfer'],
    ]);
    // without the transfer's rows (the replay before Comet transfers were read) the $100k stays to the latest cheap
    // transaction: ~36M USD-days and the honest supplier's DEFI_LENDING (174 measured)
    const without = replayLending(rows.filter((r) => r.ref !== 'comet-transfer').map(asEvent), f.lastActivityAt!.getTime());
    expect(without.collateralUsdDays).toBeGreaterThan(35_000_000);
    const blind = Object.fromEntries(
      scoreWallet({ features: { ...f, lending: { ...f.lending, positions: without } } }).map((r) => [r.category, r.score]),
    ) as Record<Category, number>;
    // (an earlier model scored that 174 as "own capital"; now capital held is no credit record either way)
    expect(blind.DEFI_LENDING).toBe((await scores(W.honest)).DEFI_LENDING);
    // counting the Supply's mint as a second supply would leave $100k held after the transfer: it is not
    expect(replayLending(rows.map((r) => ({ ...asEvent(r), logIndex: undefined }))).collateralUsdDays).toBeGreaterThan(
      p.collateralUsdDays * 1.9,
    );
  });

  it('the receiving account holds the balance from the transfer on, and its withdrawal closes it', async () => {
    const rows = await lendingRows(W.receiver);
    expect(rows.map((r) => [r.kind, r.contract, Number(r.value_usd), r.log_index, r.ref, r.tx_from])).toEqual([
      ['lending_supply', COMET, 100_000, 1, 'comet-transfer', W.attacker],
      ['lending_withdraw', COMET, 100_000, 1, null, W.receiver],
      ['lending_withdraw', COMET, 100_000, 2, 'comet-transfer', W.receiver],
    ]);
    const p = (await repo.features(W.receiver)).lending.positions!;
    // $100k from day 1 to day 366; the Withdraw's own burn takes nothing more (no debt opens)
    expect(p.collateralUsdDays).toBeGreaterThan(100_000 * 364.9);
    expect(p.collateralUsdDays).toBeLessThan(100_000 * 365.1);
    expect(p.debtUsdDays).toBe(0);
    // it scores what the honest supplier of a year does (0 before: its Withdraw read as a borrow)
    expect((await scores(W.receiver)).DEFI_LENDING).toBe((await scores(W.honest)).DEFI_LENDING);
  });

  it('an honest Comet supplier is unchanged: the mint after its Supply and the burn after its Withdraw are not counted again', async () => {
    const rows = await lendingRows(W.honest);
    expect(short(rows)).toEqual([
      ['lending_supply', COMET, 100_000, 1, null],
      ['lending_supply', COMET, 100_000, 2, 'comet-transfer'],
      ['lending_withdraw', COMET, 100_000, 1, null],
      ['lending_withdraw', COMET, 100_000, 2, 'comet-transfer'],
    ]);
    const f = await repo.features(W.honest);
    expect(f.lending.positions!.collateralUsdDays).toBeCloseTo(100_000 * 365, -3);
    expect(f.lending.positions!.debtUsdDays).toBe(0);
    // the supply counters count the Supply, not its mint (a moved position is not a supply)
    expect(f.lending).toMatchObject({ supplies: 1, suppliedUsd: 100_000, unvaluedSupplies: 0 });
    // the same as the replay of the market's Supply and Withdraw alone (what was read before)
    expect(f.lending.positions).toEqual(
      replayLending(rows.filter((r) => r.ref !== 'comet-transfer').map(asEvent), f.lastActivityAt!.getTime()),
    );
    // a year of supplying alone is no credit record (174 under an earlier model, see the header)
    expect((await scores(W.honest)).DEFI_LENDING).toBe(0);
  });

  it('a Comet borrower is unchanged: its borrow emits no Transfer, and the burn of the balance its withdrawal took is not counted again', async () => {
    const rows = await lendingRows(W.borrower);
    // SupplyCollateral is not read; the $60k Withdraw burns only the $10k it took from the balance; the repayment
    // mints nothing; the later $100k supply mints it
    expect(short(rows)).toEqual([
      ['lending_supply', COMET, 10_000, 1, null],
      ['lending_supply', COMET, 10_000, 2, 'comet-transfer'],
      ['lending_withdraw', COMET, 60_000, 1, null],
      ['lending_withdraw', COMET, 10_000, 2, 'comet-transfer'],
      ['lending_supply', COMET, 50_500, 1, null],
      ['lending_supply', COMET, 100_000, 1, null],
      ['lending_supply', COMET, 100_000, 2, 'comet-transfer'],
    ]);
    const f = await repo.features(W.borrower);
    const p = f.lending.positions!;
    // the replay of the market's own events alone (before): $50k borrowed for 180 days, one cycle
    expect(p).toEqual(replayLending(rows.filter((r) => r.ref !== 'comet-transfer').map(asEvent), f.lastActivityAt!.getTime()));
    expect(p.debtUsdDays).toBeCloseTo(50_000 * 180, -3);
    expect(p).toMatchObject({ cycles: 1, cycleMonths: 1, avgCycleDays: 180 });
    // the burn counted again would have made it a $60k borrow ($9.5k still owed after the repayment)
    const burnTwice = rows.map((r) =>
      r.kind === 'lending_withdraw' && r.ref === 'comet-transfer' ? { ...asEvent(r), logIndex: undefined } : asEvent(r),
    );
    const twice = replayLending(burnTwice, f.lastActivityAt!.getTime());
    expect(twice.debtUsdDays).toBeGreaterThan(60_000 * 180);
    // its conduct (one 180-day loan repaid); the score is held to its backing (no gas in this export, and
    // Comet interest is not seen: 0)
    const lending = scoreWallet({ features: await repo.features(W.borrower) }).find((r) => r.category === 'DEFI_LENDING')!;
    expect(lending.conduct).toBe(BORROWER_DEFI_LENDING_CONDUCT);
    expect(lending.score).toBe(0);
  });
});

describe('Comet base transfers through the explorer source (Etherscan API V2 simulator)', () => {
  it('reads the mint and burn from the logs naming the wallet; their token list rows (no log index) add no second row', async () => {
    const [a, r] = [addr(), addr()];
    const { h, tx: txAt } = historyOfLogs(21_000_000, 20_000_000);
    const tx = (from: string, to: string, d: number, logs: EtlLog[], value = '0') => txAt(from, to, day(d), logs, value);
    tx(a, COMET, 0, supplyLogs(a, 100_000));
    tx(a, COMET, 1, transferBaseLogs(a, r, 100_000));
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
          await edb.query<{ kind: string; contract: string; value_usd: string; log_index: number; ref: string | null }>(
            "SELECT kind, contract, value_usd::text AS value_usd, log_index, ref FROM wallet_activity WHERE wallet = $1 AND kind LIKE 'lending\\_%' ORDER BY block_number, log_index",
            [w],
          )
        ).map((x) => [x.kind, x.contract, Number(x.value_usd), x.log_index, x.ref]);
      expect(await rows(a)).toEqual([
        ['lending_supply', COMET, 100_000, 1, null],
        ['lending_supply', COMET, 100_000, 2, 'comet-transfer'],
        ['lending_withdraw', COMET, 100_000, 0, 'comet-transfer'],
      ]);
      expect(await rows(r)).toEqual([['lending_supply', COMET, 100_000, 1, 'comet-transfer']]);
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
