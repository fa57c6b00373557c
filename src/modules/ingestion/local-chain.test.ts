// Ingestion against a local Hardhat chain read over JSON-RPC exactly as mainnet is: scenario histories, idempotent
// re-runs, cursor safety under RPC errors, bulk import of an ethereum-etl export of the same chain, and the
// rankings a person would expect from the scores (one chain and one scenario run for the whole file).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createKey, createTestApp, eventually, randomAddress, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import { ROLES, runScenarios, type ScenarioResult } from '../../../scripts/scenarios.js';
import { LOCAL_CHAIN_ID } from './registry/index.js';
import { exportEthereumEtl } from '../../../scripts/export-ethereum-etl.js';
import type { App } from '../../platform/http/types.js';
import type { Db } from '../../platform/db/types.js';
import type { WalletFeatures } from '../scoring/contracts.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource, type ChainSource } from './rpc-source.js';
import { RpcError } from './rpc-errors.js';
import { createIngestionService, type IngestionEngine } from './service.js';
import { createRefreshWorker } from './worker.js';
import { importEthereumEtl } from './etl/import.js';
import { runIngestCommand } from '../../cli/ingest.js';
import { model } from '../scoring/params.js';
import { featuresFor } from '../scoring/index.js';

const { ceilingFor } = model;

const CHAIN = LOCAL_CHAIN_ID;
let chain: LocalChain;
let sc: ScenarioResult;
let app: App;
let engine: IngestionEngine;
const extraDbs: Db[] = [];
const everyone = () => [...Object.values(sc.wallets), sc.operator];

beforeAll(async () => {
  // the local chain id: the scenario registers its mocks as operator registry entries for it (chain 1 is
  // reserved to the reviewed registry; forged-evidence.test.ts runs the mainnet-address variant)
  chain = await startLocalChain({ chainId: CHAIN, initialDate: new Date(Date.now() - 340 * 86_400_000) });
  sc = await runScenarios(chain.url, chain.accounts);
  app = await createTestApp({ config: { rpcUrls: { [CHAIN]: chain.url }, ingestConfirmations: 0 } });
  engine = app.ctx.services.ingestion as IngestionEngine;
});

afterAll(async () => {
  await app?.close();
  for (const db of extraDbs) await db.close();
  await chain?.stop();
});

async function featuresIn(db: Db, wallets: string[]): Promise<Record<string, WalletFeatures>> {
  const repo = createIngestionRepo(db);
  return Object.fromEntries(await Promise.all(wallets.map(async (w) => [w, await repo.features(w)] as const)));
}

/** Gas in USD to the cent: the features sum each transaction's fee in floating point, in the order the rows come. */
const cents = (g: WalletFeatures['gasUsd']) => g && Object.fromEntries(Object.entries(g).map(([k, v]) => [k, Math.round(v * 100) / 100]));
/** The features both paths read alike: third-party calls to a wallet's contracts are seen by the bulk import only. */
const alike = (all: Record<string, WalletFeatures>) =>
  Object.fromEntries(
    Object.entries(all).map(([w, f]) => [
      w,
      { ...f, gasUsd: cents(f.gasUsd), developer: { ...f.developer, usedContracts: 0, thirdPartyUsers: 0 } },
    ]),
  );

async function freshDb(): Promise<Db> {
  const db = await testDatabase();
  extraDbs.push(db);
  return db;
}

describe('JSON-RPC ingestion of the scenario histories', () => {
  it('the first API read of a wallet starts its ingestion; its score follows once the history is stored', async () => {
    const key = await createKey(app, 'Starter');
    const dev = sc.wallets.developer;
    const first = await app.inject({ method: 'GET', url: `/api/v1/reputation/${dev}/DEVELOPER`, headers: key.headers });
    expect(first.statusCode).toBe(200);
    await eventually(
      async () => {
        const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/${dev}/DEVELOPER`, headers: key.headers });
        return res.statusCode === 200 && res.json().score > 0 && res.json().factors.length > 0;
      },
      { timeoutMs: 30_000 },
    );
    expect((await featuresFor(app.ctx.db, dev.toLowerCase())).developer.contractsDeployed).toBe(sc.developerContracts.length);
  });

  it('a wallet seen for the first time is ingested in the background; ensureFresh waits for it', async () => {
    const op = sc.operator;
    await engine.ensureFresh(op, 30_000);
    const [row] = await app.ctx.db.query<{ last_synced_at: Date | null }>('SELECT last_synced_at FROM tracked_wallets WHERE wallet = $1', [
      op,
    ]);
    expect(row.last_synced_at).not.toBeNull();
    const f = await featuresFor(app.ctx.db, op.toLowerCase());
    expect(f.developer.contractsDeployed).toBe(13);
    expect(f.governance.delegationsMade).toBe(1);

    // a zero wait returns at once and the sync still happens in the background
    const other = sc.wallets.collector;
    await engine.ensureFresh(other, 0);
    await eventually(async () => (await featuresFor(app.ctx.db, other.toLowerCase())).nft.mints > 0, { timeoutMs: 30_000 });
    // an unknown wallet with no history is tracked and synced to an empty record
    const nobody = randomAddress();
    await engine.ensureFresh(nobody, 30_000);
    expect((await featuresFor(app.ctx.db, nobody.toLowerCase())).evidenceCount).toBe(0);
  });

  it('stores the activity each history implies', async () => {
    for (const w of Object.values(sc.wallets)) await engine.syncWallet(w);
    const f = await featuresIn(app.ctx.db, Object.values(sc.wallets));
    const { borrower, liquidated, trader, voter, collector, developer, fresh } = sc.wallets;

    // the evidence registry: USDC amounts valued at 1 USD, WETH supplies unvalued (no oracle on this chain)
    expect(f[borrower].lending).toMatchObject({
      supplies: 5,
      borrows: 11,
      repays: 11,
      liquidations: 0,
      protocols: 2,
      borrowedUsd: 440_000,
      suppliedUsd: 75_000,
      unvaluedSupplies: 1,
    });
    // each $40k loan held about a month and repaid with interest at 6% a year: about $2,170 over the eleven
    expect(f[borrower].lending.repaidUsd! - 440_000).toBeGreaterThan(2_000);
    expect(f[borrower].lending.repaidUsd! - 440_000).toBeLessThan(2_400);
    // the $60k lent on Compound from the first month is own capital held all year (~$20M-days)
    expect(f[borrower].lending.positions).toMatchObject({ cycles: 11, cycleMonths: 11, protocolsHeld: 2 });
    expect(f[borrower].lending.positions!.collateralUsdDays).toBeGreaterThan(15_000_000);
    expect(f[liquidated].lending).toMatchObject({ borrows: 4, repays: 0, liquidations: 4, protocols: 2 });
    expect(f[trader].trading).toMatchObject({ swaps: 66, distinctPools: 2, protocols: 2 });
    expect(f[trader].trading.activeDays).toBeGreaterThanOrEqual(30);
    // self-delegation earns nothing, nor does an attestation from an attester the registry does not trust
    expect(f[voter].governance).toMatchObject({
      votes: 11,
      proposalsVotedOn: 11,
      delegationsMade: 0,
      delegationsReceived: 1,
      governors: 1,
      selfDelegations: 1,
    });
    expect(f[voter].governance.votePower).toBeGreaterThan(1);
    // (found and left out: the factors say so)
    expect(f[voter].identity).toEqual({
      ensNames: 1,
      attestationsReceived: 0,
      attestationsMade: 0,
      untrustedReceived: 1,
      untrustedMade: 0,
    });
    // the NFTs the operator sent it (in the operator's transactions) are not its own doing
    expect(f[collector].nft).toMatchObject({ received: 0, sent: 1, notTheirs: 6 });
    expect(f[collector].nft.mints).toBeGreaterThanOrEqual(12);
    expect(f[developer].developer).toMatchObject({
      contractsDeployed: sc.developerContracts.length,
      contractsWithCode: sc.developerContracts.length,
    });
    expect(f[fresh]).toMatchObject({ evidenceCount: 0, txCount: 0, chains: [], firstActivityAt: null });

    for (const w of Object.values(sc.wallets)) {
      const nonce = Number(await chain.request('eth_getTransactionCount', [w, 'latest']));
      expect(f[w].txCount).toBe(nonce);
    }
    // about eleven months of history, ending within the last weeks
    expect(f[borrower].activeMonths).toBeGreaterThanOrEqual(10);
    expect(Date.now() - f[borrower].lastActivityAt!.getTime()).toBeLessThan(40 * 86_400_000);
    const [cursor] = await app.ctx.db.query<{ last_block: number }>(
      'SELECT last_block FROM wallet_sync WHERE wallet = $1 AND chain_id = $2',
      [borrower, CHAIN],
    );
    expect(Number(cursor.last_block)).toBe(sc.headBlock);
  });

  it('running ingestion again changes nothing, even from reset cursors', async () => {
    const wallets = everyone();
    const before = await featuresIn(app.ctx.db, wallets);
    const [{ n }] = await app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_activity');
    for (const w of wallets) {
      const r = await engine.syncWallet(w);
      expect(r[0].newRecords).toBe(0);
    }
    await app.ctx.db.query('UPDATE wallet_sync SET last_block = NULL, deploy_nonce_checked = 0');
    for (const w of wallets) await engine.syncWallet(w);
    const [{ n: after }] = await app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_activity');
    expect(after).toBe(n);
    expect(await featuresIn(app.ctx.db, wallets)).toEqual(before);
  });

  it('an RPC error keeps the cursor at the last complete range; "range too large" halves the range', async () => {
    const db = await freshDb();
    const repo = createIngestionRepo(db);
    const real = createRpcSource(CHAIN, chain.url, { attempts: 2, baseDelayMs: 5, maxRange: 1000 });
    const failAt = Math.floor(sc.headBlock / 2);
    let failing = true;
    let rangeErrors = 0;
    const flaky: ChainSource = {
      ...real,
      async getLogs(queries) {
        const out = await real.getLogs(queries);
        return out.map((o, i) => {
          const q = queries[i];
          if (q.toBlock - q.fromBlock + 1 > 40) {
            rangeErrors++;
            return { ok: false, error: new RpcError('query returned more than 10000 results', -32005) };
          }
          if (failing && q.fromBlock <= failAt && failAt <= q.toBlock)
            return { ok: false, error: new RpcError('upstream connect error', -32601) };
          return o;
        });
      },
    };
    const eng = createIngestionService({
      db,
      repo,
      sources: [flaky],
      log: app.log,
      concurrency: 2,
      ingestOnRead: true,
    });
    const trader = sc.wallets.trader;
    await expect(eng.syncWallet(trader)).rejects.toThrow(/upstream/);
    const [c1] = await db.query<{ last_block: number | null; last_error: string }>(
      'SELECT last_block, last_error FROM wallet_sync WHERE wallet = $1',
      [trader],
    );
    expect(Number(c1.last_block)).toBeLessThan(failAt);
    expect(c1.last_error).toMatch(/upstream/);
    const [{ max }] = await db.query<{ max: number }>('SELECT max(block_number)::int AS max FROM wallet_activity WHERE wallet = $1', [
      trader,
    ]);
    expect(max).toBeLessThanOrEqual(Number(c1.last_block));
    expect(rangeErrors).toBeGreaterThan(0);

    failing = false;
    await eng.syncWallet(trader);
    expect(alike(await featuresIn(db, [trader]))).toEqual(alike(await featuresIn(app.ctx.db, [trader])));
    await eng.stop();
  });

  it('stays the configured number of confirmations behind the head', async () => {
    const db = await freshDb();
    const repo = createIngestionRepo(db);
    const eng = createIngestionService({
      db,
      repo,
      sources: [createRpcSource(CHAIN, chain.url)],
      log: app.log,
      concurrency: 1,
      ingestOnRead: true,
      sync: { confirmations: 10 },
    });
    const voter = sc.wallets.voter;
    await eng.syncWallet(voter);
    expect(await repo.syncStates(voter)).toMatchObject([{ lastBlock: sc.headBlock - 10 }]);
    // the ENS registration and the attestation are in the last blocks: not read yet
    expect((await repo.features(voter)).identity).toEqual({
      ensNames: 0,
      attestationsReceived: 0,
      attestationsMade: 0,
      untrustedReceived: 0,
      untrustedMade: 0,
    });
    expect((await repo.features(voter)).governance.votes).toBe(11);
    await eng.stop();
  });

  it('reads the chain over WebSocket as well (CREDENCE_RPC_URL_<id> may be ws://) and closes the socket', async () => {
    const src = createRpcSource(CHAIN, chain.url.replace(/^http/, 'ws'));
    expect(await src.head()).toBe(sc.headBlock);
    const t = await src.blockTimes([1]);
    expect(t.get(1)!.getTime()).toBeLessThan(Date.now());
    await src.close();
  });

  it('credence ingest --wallet syncs wallets over JSON-RPC from the command line', async () => {
    const out: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
    try {
      const db = await testDatabase();
      const code = await runIngestCommand(
        ['--wallet', sc.wallets.voter, '--wallet', sc.wallets.fresh],
        testConfig({ rpcUrls: { [CHAIN]: chain.url }, ingestConfirmations: 0 }),
        { db },
      );
      expect(code).toBe(0);
      expect(out).toEqual([
        // 18 evidence records, the two developer tokens it minted itself, and the fees of those 15 transactions
        `${sc.wallets.voter} chain ${CHAIN}: 35 new records, synced to block ${sc.headBlock}`,
        `${sc.wallets.fresh} chain ${CHAIN}: 0 new records, synced to block ${sc.headBlock}`,
      ]);
    } finally {
      log.mockRestore();
    }
  });

  it('the refresh worker re-syncs stale tracked wallets and stops cleanly', async () => {
    const voter = sc.wallets.voter;
    await app.ctx.db.query('INSERT INTO tracked_wallets (wallet) VALUES ($1) ON CONFLICT DO NOTHING', [voter]);
    await app.ctx.db.query("UPDATE tracked_wallets SET last_synced_at = now() - interval '2 days' WHERE wallet = $1", [voter]);
    const repo = createIngestionRepo(app.ctx.db);
    const eng = createIngestionService({
      db: app.ctx.db,
      repo,
      sources: [createRpcSource(CHAIN, chain.url)],
      log: app.log,
      concurrency: 2,
      ingestOnRead: true,
    });
    const worker = createRefreshWorker(eng, repo, {
      refreshIntervalSeconds: 3600,
      tickMs: 20,
      batch: 10,
      leaseSeconds: 600,
      onError: (e) => app.log.error(e),
    });
    await worker.start();
    await eventually(async () => {
      const [r] = await app.ctx.db.query<{ last_synced_at: Date }>('SELECT last_synced_at FROM tracked_wallets WHERE wallet = $1', [voter]);
      return Date.now() - new Date(r.last_synced_at).getTime() < 60_000;
    });
    expect(await repo.dueWallets(3600, 10)).not.toContain(voter);
    const [claim] = await app.ctx.db.query<{ claimed_until: Date | null }>('SELECT claimed_until FROM tracked_wallets WHERE wallet = $1', [
      voter,
    ]);
    expect(claim.claimed_until).toBeNull();
    await worker.stop();
    expect(eng.running).toBe(0);
    expect(eng.queued).toBe(0);
  });
});

describe('bulk import of an ethereum-etl export of the same chain', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-'));
    // mixed formats, as exports come: CSV transactions and token transfers, JSON-lines logs and blocks
    // the blocks before the histories are empty (mined to pass the registry's deployment blocks)
    await exportEthereumEtl(chain.url, dir, {
      fromBlock: sc.firstBlock,
      formats: { transactions: 'csv', token_transfers: 'csv', logs: 'json', blocks: 'json' },
    });
  });

  it('imports to the same features as JSON-RPC ingestion, and re-importing changes nothing', async () => {
    const db = await freshDb();
    const repo = createIngestionRepo(db);
    const r = await importEthereumEtl({ db, repo }, dir, { chainId: CHAIN });
    expect(r.records).toBeGreaterThan(300);
    expect(r.recordsWithoutTime).toBe(0);
    const wallets = everyone();
    const rpc = await featuresIn(app.ctx.db, wallets);
    expect(alike(await featuresIn(db, wallets))).toEqual(alike(rpc));

    const again = await importEthereumEtl({ db, repo }, dir, { chainId: CHAIN });
    expect(again.records).toBe(0);
    expect(again.files.every((f) => f.skipped)).toBe(true);
  });

  it('an interrupted import resumes from its recorded offsets to the same result', async () => {
    const db = await freshDb();
    const repo = createIngestionRepo(db);
    let updates = 0;
    const crashing = {
      start() {},
      stop() {},
      update() {
        if (++updates === 3) throw new Error('killed');
      },
    };
    await expect(importEthereumEtl({ db, repo }, dir, { chainId: CHAIN, batchSize: 50, progress: crashing })).rejects.toThrow('killed');
    const progress = [...(await repo.importProgress(`ethereum-etl:${CHAIN}:${dir}`)).values()];
    expect(progress.some((p) => p.linesDone > 0 && !p.completed)).toBe(true);

    const resumed = await importEthereumEtl({ db, repo }, dir, { chainId: CHAIN, batchSize: 50 });
    expect(resumed.files.some((f) => f.resumedAt > 0)).toBe(true);
    const wallets = everyone();
    expect(alike(await featuresIn(db, wallets))).toEqual(alike(await featuresIn(app.ctx.db, wallets)));
  });
});

describe('scores from the ingested histories', () => {
  it('rank the scenario wallets as a person would expect', async () => {
    const scoring = app.ctx.services.scoring;
    if (!scoring) return expect(scoring).toBeUndefined(); // the scoring module is not wired in this build
    for (const w of Object.values(sc.wallets)) await scoring.recompute(w, 'ingestion');
    const entry = (role: (typeof ROLES)[number], category: Parameters<typeof scoring.getScore>[1]) =>
      scoring.getScore(sc.wallets[role], category);
    const score = async (role: (typeof ROLES)[number], category: Parameters<typeof scoring.getScore>[1]) =>
      (await entry(role, category)).score;
    const conduct = async (role: (typeof ROLES)[number], category: Parameters<typeof scoring.getScore>[1]) =>
      (await entry(role, category)).conduct;
    // conduct ranks behaviour; the score is conduct held to what the wallet lost (its backing)
    expect(await conduct('borrower', 'DEFI_LENDING')).toBeGreaterThan(await conduct('liquidated', 'DEFI_LENDING'));
    expect(await conduct('borrower', 'DEFI_LENDING')).toBeGreaterThan(await conduct('fresh', 'DEFI_LENDING'));
    expect(await conduct('borrower', 'DEFI_LENDING')).toBeGreaterThanOrEqual(550);
    expect(await conduct('trader', 'DEFI_TRADING')).toBeGreaterThanOrEqual(600);
    expect(await conduct('voter', 'GOVERNANCE')).toBeGreaterThanOrEqual(500);
    // the trader's fees went to the demo's own established pools: backed; the voter's tokens came back: its score is
    // what the gas of its votes supports, and the ceiling says so
    expect(await score('trader', 'DEFI_TRADING')).toBeGreaterThanOrEqual(600);
    const voter = await entry('voter', 'GOVERNANCE');
    // (a local chain's base fee falls to a few wei: its gas is worth next to nothing)
    expect(voter.backingUsd).not.toBeNull();
    expect(voter.score).toBe(Math.min(voter.conduct, ceilingFor(voter.backingUsd!)));
    expect(voter.score).toBeLessThan(voter.conduct);
    for (const category of ['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE'] as const)
      expect(await score('fresh', category), category).toBe(0);
    for (const [role, category] of [
      ['trader', 'DEFI_TRADING'],
      ['voter', 'GOVERNANCE'],
      ['collector', 'NFT'],
      // DEVELOPER weighs deployments by third-party callers, which JSON-RPC does not see (bulk import only)
    ] as const) {
      const mine = await conduct(role, category);
      for (const other of ROLES.filter((r) => r !== role))
        expect(mine, `${role} vs ${other} in ${category}`).toBeGreaterThan(await conduct(other, category));
    }
    expect(await score('fresh', 'OVERALL')).toBeLessThan(await score('borrower', 'OVERALL'));
  });
});
