// Non-stable assets valued at the event's time by Aave V3's own oracle, on the in-process chain run as chain 1: a
// price-oracle mock sits at the address book's AaveV3Ethereum.ORACLE, the Aave pool mock at the pinned Pool, a WETH
// mock at WETH's address. Read over JSON-RPC (the wallet sync, `credence ingest --wallet`, and the ethereum-etl
// import with the chain's RPC configured), exactly as mainnet is.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseEther, toHex } from 'viem';
import { createTestApp, testConfig } from '../../../../test/helpers/app.js';
import { keepOpen, testDatabase } from '../../../../test/helpers/db.js';
import { deploymentSettings } from '../../../../test/helpers/deployment.js';
import { startLocalChain, type LocalChain } from '../../../../test/helpers/local-chain.js';
import { chainClient, MAINNET_LIKE_BLOCK, PINNED } from '../../../../scripts/scenarios.js';
import { exportEthereumEtl } from '../../../../scripts/export-ethereum-etl.js';
import type { App } from '../../../platform/http/types.js';
import type { Db } from '../../../platform/db/types.js';
import type { ScoringService } from '../../scoring/contracts.js';
import { runIngestCommand } from '../../../cli/ingest.js';
import type { IngestionEngine } from '../service.js';
import { oracleFor } from './oracle.js';

const WBTC = '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599';
const ORACLE = oracleFor(1)!.address;
const BUCKET = oracleFor(1)!.bucketBlocks;
const usd = (n: number) => BigInt(n) * 10n ** 8n; // the oracle's 8 decimals
/** each wallet's own collateral, and how long its 500-WETH loan stays open */
const COLLATERAL_WETH = 1_000;
const LOAN_DAYS = 60;

let chain: LocalChain;
let c: ReturnType<typeof chainClient>;
let app: App;
let engine: IngestionEngine;
let scoring: ScoringService;
const dbs: Db[] = [];
let op: string;
let priced: string;
let unpriced: string;
let firstBlock: number;
const blocks: Record<string, number> = {};

const head = async () => Number(await c.rpc<string>('eth_blockNumber'));
/** Mines to the first block of the next price bucket (the next transaction lands in it). */
async function nextBucket() {
  const h = await head();
  await c.rpc('hardhat_mine', [toHex(BUCKET - (h % BUCKET)), '0x1']);
}
const rows = async (db: Db, wallet: string) =>
  db.query<{ kind: string; counterparty: string; block_number: string; value_usd: string | null }>(
    "SELECT kind, counterparty, block_number, value_usd FROM wallet_activity WHERE wallet = $1 AND kind LIKE 'lending%' ORDER BY block_number, kind",
    [wallet],
  );
const values = async (db: Db, wallet: string) =>
  (await rows(db, wallet)).map((r) => [r.kind, r.counterparty, r.value_usd === null ? null : Number(r.value_usd)]);

/** A database the ingest command may "close" (kept open to read the rows afterwards), closed after the file. */
async function commandDb() {
  const db = keepOpen(await testDatabase());
  dbs.push({ ...db, close: db.reallyClose });
  return db;
}

/** Runs `credence ingest` quietly; answers what it printed. */
async function ingest(args: string[], config: Parameters<typeof testConfig>[0], db: Db): Promise<string[]> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  try {
    expect(await runIngestCommand(args, testConfig(config), { db })).toBe(0);
  } finally {
    log.mockRestore();
  }
  return out;
}

beforeAll(async () => {
  chain = await startLocalChain({ initialDate: new Date(Date.now() - 200 * 86_400_000), accounts: 6 });
  c = chainClient(chain.url);
  [op, priced, unpriced] = chain.accounts;
  // past the registry's deployment blocks (the Aave pool is asked from its own), one second per block
  await c.rpc('hardhat_mine', [toHex(MAINNET_LIKE_BLOCK - (await head())), '0x1']);
  firstBlock = (await head()) + 1;
  const pin = async (name: string, args: unknown[], at: string) => c.pinAt(await c.deploy(op, name, args), at);
  await pin('MockERC20', ['Wrapped Ether', 'WETH'], PINNED.weth);
  await pin('MockERC20', ['Wrapped BTC', 'WBTC'], WBTC);
  await pin('MockAavePool', [], PINNED.aave);
  // the oracle mock's code at AaveV3Ethereum.ORACLE (no storage: prices are set on it there)
  await c.pinAt(await c.deploy(op, 'MockAaveOracle'), ORACLE, 0);
  await c.call(op, PINNED.weth, 'MockERC20', 'mint', [PINNED.aave, parseEther('10000')]);
  await c.call(op, WBTC, 'MockERC20', 'mint', [PINNED.aave, 10n ** 12n]);
  for (const w of [priced, unpriced]) {
    await c.call(op, PINNED.weth, 'MockERC20', 'mint', [w, parseEther(String(COLLATERAL_WETH))]);
    await c.call(w, PINNED.weth, 'MockERC20', 'approve', [PINNED.aave, 2n ** 256n - 1n]);
  }

  // Each wallet supplies 1,000 WETH of its own as collateral, borrows 500 WETH against it and repays it 60 days
  // later (the model scores only what was held over time, up to what the own capital held backs: cost-ceiling.ts).
  // Before the oracle has a price for WETH (it reverts), in one price bucket: all unvalued
  await nextBucket();
  await c.call(unpriced, PINNED.aave, 'MockAavePool', 'supply', [PINNED.weth, parseEther(String(COLLATERAL_WETH)), unpriced, 0]);
  await c.call(unpriced, PINNED.aave, 'MockAavePool', 'borrow', [PINNED.weth, parseEther('500'), 2, 0, unpriced]);
  await c.rpc('evm_increaseTime', [LOAN_DAYS * 86_400]);
  await c.call(unpriced, PINNED.aave, 'MockAavePool', 'repay', [PINNED.weth, parseEther('500'), 2, unpriced]);
  // WETH at $2,000, then the priced wallet supplies 1,000 WETH ($2M), borrows 500 WETH ($1M) and 20 WBTC (the oracle
  // has no WBTC price: reverts); it repays the WETH after LOAN_DAYS (below)
  await c.call(op, ORACLE, 'MockAaveOracle', 'setAssetPrice', [PINNED.weth, usd(2000)]);
  await nextBucket();
  await c.call(priced, PINNED.aave, 'MockAavePool', 'supply', [PINNED.weth, parseEther(String(COLLATERAL_WETH)), priced, 0]);
  blocks.borrow = Number(
    (await c.call(priced, PINNED.aave, 'MockAavePool', 'borrow', [PINNED.weth, parseEther('500'), 2, 0, priced])).blockNumber,
  );
  await c.call(priced, PINNED.aave, 'MockAavePool', 'borrow', [WBTC, 20n * 10n ** 8n, 2, 0, priced]);
  // the next block (the repay's bucket, below) is LOAN_DAYS later
  await c.rpc('evm_increaseTime', [LOAN_DAYS * 86_400]);

  app = await createTestApp({ config: { rpcUrls: { 1: chain.url }, ingestConfirmations: 0 } });
  engine = app.ctx.services.ingestion as IngestionEngine;
  scoring = app.ctx.services.scoring!;
}, 180_000);

afterAll(async () => {
  await app?.close();
  for (const d of dbs) await d.close();
  await chain?.stop();
});

describe('non-stable amounts valued by the Aave V3 oracle at the event block', () => {
  it('a 500-WETH borrow is valued at 500 x the oracle price at its block; an asset the oracle reverts on stays unvalued', async () => {
    await engine.syncWallet(priced);
    expect(await values(app.ctx.db, priced)).toEqual([
      ['lending_supply', PINNED.weth, 2_000_000],
      ['lending_borrow', PINNED.weth, 1_000_000],
      ['lending_borrow', WBTC, null],
    ]);
    // one eth_call per (asset, bucket): WETH (supply and borrow) and WBTC in the borrow's bucket
    expect(engine.priceReader(1)!.stats).toMatchObject({ calls: 2, priced: 1, unpriced: 1, noState: 0 });
  });

  it('the price changes later: a later repay gets the new price, the borrow keeps its own', async () => {
    await nextBucket();
    await c.call(op, ORACLE, 'MockAaveOracle', 'setAssetPrice', [PINNED.weth, usd(3000)]);
    await nextBucket();
    blocks.repay = Number(
      (await c.call(priced, PINNED.aave, 'MockAavePool', 'repay', [PINNED.weth, parseEther('500'), 2, priced])).blockNumber,
    );
    expect(Math.floor(blocks.repay / BUCKET)).toBeGreaterThan(Math.floor(blocks.borrow / BUCKET));
    await engine.syncWallet(priced);
    expect(await values(app.ctx.db, priced)).toEqual([
      ['lending_supply', PINNED.weth, 2_000_000],
      ['lending_borrow', PINNED.weth, 1_000_000],
      ['lending_borrow', WBTC, null],
      ['lending_repay', PINNED.weth, 1_500_000],
    ]);
    expect(engine.priceReader(1)!.stats.calls).toBe(3);
  });

  it("a fresh sync of the whole history (credence ingest --wallet) reads each price at its own block, not today's", async () => {
    const db = await commandDb();
    await ingest(['--wallet', priced, '--wallet', unpriced], { rpcUrls: { 1: chain.url }, ingestConfirmations: 0 }, db);
    expect(await values(db, priced)).toEqual(await values(app.ctx.db, priced));
    expect(await values(db, unpriced)).toEqual([
      ['lending_supply', PINNED.weth, null],
      ['lending_borrow', PINNED.weth, null],
      ['lending_repay', PINNED.weth, null],
    ]);
  });

  it('the ethereum-etl import of the same chain, with the chain RPC configured, values the same events the same way', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-prices-'));
    await exportEthereumEtl(chain.url, dir, { fromBlock: firstBlock });
    const db = await commandDb();
    const out = await ingest(['--format', 'ethereum-etl', '--chain', '1', '--no-score', dir], { rpcUrls: { 1: chain.url } }, db);
    expect(await values(db, priced)).toEqual(await values(app.ctx.db, priced));
    expect(await values(db, unpriced)).toEqual([
      ['lending_supply', PINNED.weth, null],
      ['lending_borrow', PINNED.weth, null],
      ['lending_repay', PINNED.weth, null],
    ]);
    // WETH before its price, WETH at 2,000, WBTC, WETH at 3,000: four buckets, one eth_call each
    expect(out.join('\n')).toMatch(/oracle prices: 4 eth_call \(2 priced, 2 without a price, 0 without state at the block\)/);
  });

  it('end effect: the valued 500-WETH borrow and repay score DEFI_LENDING above the same loan unvalued', async () => {
    await engine.syncWallet(unpriced);
    await scoring.recompute(priced, 'ingestion');
    await scoring.recompute(unpriced, 'ingestion');
    const valued = await scoring.getScore(priced, 'DEFI_LENDING');
    const flat = await scoring.getScore(unpriced, 'DEFI_LENDING');
    // valued: $2M of collateral, $1M borrowed for 60 days and repaid (500 WETH back: no interest): a credit record
    // (conduct); repaid without interest on a local chain's cheap gas, little backs it. Unvalued: a
    // market never priced counts its largest event as $100 (UNVALUED_EVENT_USD): the same loan is $50 of debt, a
    // record of the same shape but of no size.
    console.info('DEFI_LENDING valued', valued.score, valued.conduct, 'unvalued', flat.score, flat.conduct);
    expect(flat.score).toBe(0);
    expect(valued.conduct).toBeGreaterThan(flat.conduct + 50);
    expect(valued.conduct).toBeGreaterThan(250);
    expect(valued.score).toBeLessThanOrEqual(valued.conduct);
    // what holds it is said: the ceiling names the backing (its gas: it paid no interest)
    expect(valued.factors?.map((f) => f.code)).toContain('COST_CEILING');
  });

  it('rows imported without a price source are valued at the next JSON-RPC sync, and the score follows', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-revalue-'));
    // the command and the app share the database, so they share its keys (README, "Several instances")
    const deployment = deploymentSettings();
    await exportEthereumEtl(chain.url, dir, { fromBlock: firstBlock });
    const db = await commandDb();
    // no CREDENCE_RPC_URL_1: nothing to price with
    await ingest(['--format', 'ethereum-etl', '--chain', '1', '--no-score', dir], deployment.config, db);
    expect(await values(db, priced)).toEqual([
      ['lending_supply', PINNED.weth, null],
      ['lending_borrow', PINNED.weth, null],
      ['lending_borrow', WBTC, null],
      ['lending_repay', PINNED.weth, null],
    ]);
    // the same database, now served with the chain's JSON-RPC configured: the next sync values what it can
    const upgraded = await createTestApp({ db, config: { ...deployment.config, rpcUrls: { 1: chain.url }, ingestConfirmations: 0 } });
    try {
      const [r] = await (upgraded.ctx.services.ingestion as IngestionEngine).syncWallet(priced);
      expect(r.newRecords).toBeGreaterThanOrEqual(2);
      expect(await values(db, priced)).toEqual(await values(app.ctx.db, priced));
      // what has no price at its block stays unvalued (the oracle reverted for WETH before it was listed)
      await (upgraded.ctx.services.ingestion as IngestionEngine).syncWallet(unpriced);
      expect((await values(db, unpriced)).map((v) => v[2])).toEqual([null, null, null]);
      // valued, the loan earns what the same rows earn where they were priced at ingestion (unvalued: 0)
      const valued = await upgraded.ctx.services.scoring!.getScore(priced, 'DEFI_LENDING');
      const there = await scoring.getScore(priced, 'DEFI_LENDING');
      expect(valued.score).toBe(there.score);
      expect(valued.conduct).toBe(there.conduct);
      expect(valued.conduct).toBeGreaterThan(250);
    } finally {
      await upgraded.close();
    }
  });
});
