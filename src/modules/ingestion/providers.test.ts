// Ingestion over JSON-RPC against provider simulators shaped like the hosted ones (test/fakes/rpc-provider.ts),
// over a simulated 20,000,000-block chain with one wallet holding ~2,000 evidence logs at the registry's contracts.
// Every profile must complete through `credence ingest --wallet` (exit 0, records stored); the call counts show the
// cost: at a 10,000-block cap a first sync needs at most a quarter of the 12,321 eth_getLogs the issue measured (a
// fifth before Compound V2 and Morpho Blue were read).
import { afterAll, describe, expect, it, vi } from 'vitest';
import { randomAddress, testConfig } from '../../../test/helpers/app.js';
import { keepOpen, testDatabase } from '../../../test/helpers/db.js';
import { simulateChain, type SimChain } from '../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider, type ProviderProfile } from '../../../test/fakes/rpc-provider.js';
import type { Db } from '../../platform/db/types.js';
import { runIngestCommand } from '../../cli/ingest.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { createIngestionService } from './service.js';
import { pinnedContracts } from './registry/index.js';
import { buildPlan } from './log-plan.js';

const dbs: Db[] = [];
const providers: FakeProvider[] = [];
afterAll(async () => {
  for (const p of providers) await p.close();
  for (const d of dbs) await d.close();
});

async function ingest(chain: SimChain, profile: ProviderProfile, opts: Parameters<typeof startFakeProvider>[2] = {}) {
  const provider = await startFakeProvider(chain, profile, opts);
  providers.push(provider);
  const db = keepOpen(await testDatabase());
  dbs.push({ ...db, close: db.reallyClose });
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  let code: number;
  try {
    code = await runIngestCommand(['--wallet', chain.wallet], testConfig({ rpcUrls: { 1: provider.url } }), { db });
  } finally {
    log.mockRestore();
  }
  const kinds = Object.fromEntries(
    (
      await db.query<{ kind: string; n: number }>('SELECT kind, count(*)::int AS n FROM wallet_activity WHERE wallet = $1 GROUP BY kind', [
        chain.wallet,
      ])
    ).map((r) => [r.kind, r.n]),
  );
  const [state] = await db.query<{ last_block: string; complete: boolean; source: string }>(
    'SELECT last_block, complete, source FROM wallet_sync WHERE wallet = $1 AND chain_id = 1',
    [chain.wallet],
  );
  return { code, out, kinds, state, provider };
}

/** What the wallet's simulated history holds, in records per kind. */
function expectAll(kinds: Record<string, number>, chain: SimChain) {
  for (const [kind, n] of Object.entries(chain.expected)) expect(kinds[kind] ?? 0, kind).toBe(n);
}

describe('JSON-RPC ingestion completes on every provider profile (simulated 20,000,000-block chain)', () => {
  const chain = simulateChain({ wallet: randomAddress(), events: 2000 });

  for (const profile of ['infura', 'quicknode', 'cap10k', 'ankr', 'results', 'ratelimit'] as const) {
    it(`${profile}: exit 0, every record stored, the cursor at the final block`, async () => {
      const r = await ingest(chain, profile);
      expect(r.code).toBe(0);
      expectAll(r.kinds, chain);
      expect(Number(r.state.last_block)).toBe(chain.head - 64);
      expect(r.state.complete).toBe(true);
      expect(r.out.join('\n')).toMatch(/chain 1: \d+ new records, synced to block 19999936/);
      if (profile === 'ratelimit') expect(r.provider.refusals).toBeGreaterThan(0);
    }, 120_000);
  }

  it('at a 10,000-block cap (Infura-like) a first sync needs at most a quarter of the 12,321 eth_getLogs measured before, one probe refused to learn the cap', async () => {
    const r = await ingest(chain, 'infura');
    expect(r.code).toBe(0);
    const getLogs = r.provider.calls.get('eth_getLogs') ?? 0;
    console.info('infura-like calls', Object.fromEntries(r.provider.calls), 'requests', r.provider.requests);
    // at most a quarter of them (2,799 measured): every pinned contract is read from its deployment block, but
    // positions 1 and 2 now start at Compound V2's Comptroller (7,710,671, May 2019) instead of the ENS registrar's
    // 9,300,000, and Morpho Blue names the wallet at position 3 from its deployment: 2,570 queries by the plan alone
    // (a fifth, 2,464, held before those protocols; half was needed while Uniswap V4 and Balancer V2 were read from 0)
    expect(getLogs).toBeLessThanOrEqual(Math.floor(12_321 / 4));
    // the cap is learned from the message, once per URL, by the first window's probe: one refused query per topic
    // position in it, three since Morpho Blue names the wallet at position 3 from its deployment (two before)
    expect(r.provider.refusals).toBeLessThanOrEqual(3);
    // block times: one eth_getBlockByNumber per distinct block (plus the finalized tag), never one per log
    const blocks = new Set(chain.logs.map((l) => l.blockNumber)).size;
    expect(r.provider.calls.get('eth_getBlockByNumber') ?? 0).toBeLessThanOrEqual(blocks + 2 + 64);
  }, 120_000);

  it('a result-size refusal (10,000-result cap, here 300) takes the suggested range and never asks past a refused size again', async () => {
    const r = await ingest(chain, 'results', { resultCap: 300 });
    expect(r.code).toBe(0);
    expectAll(r.kinds, chain);
    expect(r.provider.refusals).toBeGreaterThan(0);
    expect(r.provider.refusals).toBeLessThan(40);
  }, 120_000);
});

describe('the 500-block cap of free tiers', () => {
  it('completes from the contracts deployment blocks on (a shorter chain keeps the test quick)', async () => {
    // same history shape on a chain whose pinned contracts start close to its head
    const head = Math.max(...pinnedContracts(1).map((c) => c.fromBlock)) + 300_000;
    const chain = simulateChain({ wallet: randomAddress(), events: 300, head, firstBorrowBlock: head - 200_000 });
    const r = await ingest(chain, 'cap500');
    expect(r.code).toBe(0);
    expectAll(r.kinds, chain);
    // one refused window (its queries, one per topic position) teaches the cap for good
    expect(r.provider.refusals).toBeLessThanOrEqual(3);
  }, 300_000);
});

describe("L2s: a first sync starts at the chain's first pinned deployment, not at block 0", () => {
  // Every contract whose events a chain's plan asks for carries its deployment block (data/registry/<chain>.json
  // fromBlocks, each with its source). Before, the Aave pools, Uniswap factories, Comets and EAS of the L2s were read
  // from block 0, so positions 1 and 2 cost a query per 10,000 blocks from genesis: 2 x 1,999 on this 20,000,000-block
  // chain. Measured here, on a wallet with no history (infura-like cap): Polygon 1,466 eth_getLogs instead of 4,000
  // (from Aave V2's 12,687,211), Base 4,368 instead of 4,603 (from Balancer V2's 1,196,036). OP Mainnet and Arbitrum
  // gain little: their Uniswap V3 factory is at blocks 27,446 and 175 (Uniswap's v3-subgraph).
  for (const [chainId, first] of [
    [137, 12_687_211],
    [8453, 1_196_036],
  ] as const) {
    it(`chain ${chainId}: the plan starts at block ${first.toLocaleString('en')} and asks no window before it`, async () => {
      const plan = buildPlan(pinnedContracts(chainId));
      expect(plan.start).toBe(first);
      const chain = simulateChain({ wallet: randomAddress(), events: 0, chainId });
      const provider = await startFakeProvider(chain, 'infura');
      providers.push(provider);
      const db = await testDatabase();
      dbs.push(db);
      const eng = createIngestionService({
        db,
        repo: createIngestionRepo(db),
        sources: [createRpcSource(chainId, provider.url)],
        log: console as never,
        concurrency: 1,
        ingestOnRead: true,
        sync: { useFinalized: true },
        pinned: (id) => pinnedContracts(id),
      });
      const [res] = await eng.syncWallet(chain.wallet);
      expect(res.complete).toBe(true);
      await eng.stop();
      const getLogs = provider.calls.get('eth_getLogs') ?? 0;
      const finalized = chain.head - 64;
      const windows = (from: number) => Math.max(0, Math.ceil((finalized - from) / 10_000));
      // at most one query per position per 10,000-block window from where each position starts, plus the refused
      // probe that teaches the cap (one per position)
      const starts = [1, 2, 3].map((p) =>
        Math.min(...plan.streams.filter((st) => st.position === p && !st.after).map((st) => st.fromBlock)),
      );
      expect(getLogs).toBeLessThanOrEqual(starts.reduce((n, st) => n + windows(st), 0) + 3);
      // fewer than the same plan with positions 1 and 2 from block 0 (before the L2 deployment blocks) would ask
      const before = 2 * windows(0) + windows(starts[2]);
      expect(getLogs).toBeLessThan(before);
      console.info(`chain ${chainId} eth_getLogs`, getLogs, 'with positions 1 and 2 from block 0:', before);
    }, 120_000);
  }
});

describe('timeouts', () => {
  it('a node that times out on wide ranges: the run shrinks its span and completes, the endpoint learns no cap', async () => {
    const chain = simulateChain({ wallet: randomAddress(), events: 200 });
    const provider = await startFakeProvider(chain, 'timeout');
    providers.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const source = createRpcSource(1, provider.url);
    const eng = createIngestionService({
      db,
      repo: createIngestionRepo(db),
      sources: [source],
      log: console as never,
      concurrency: 1,
      ingestOnRead: true,
      sync: { useFinalized: true },
      pinned: (id) => pinnedContracts(id),
    });
    const [res] = await eng.syncWallet(chain.wallet);
    expect(res.complete).toBe(true);
    const kinds = Object.fromEntries(
      (
        await db.query<{ kind: string; n: number }>(
          'SELECT kind, count(*)::int AS n FROM wallet_activity WHERE wallet = $1 GROUP BY kind',
          [chain.wallet],
        )
      ).map((r) => [r.kind, r.n]),
    );
    expectAll(kinds, chain);
    expect(provider.refusals).toBeGreaterThan(0);
    // what a timeout taught stayed in that run: no stated cap, no refused size for the endpoint
    expect(source.limits.snapshot()).toMatchObject({ statedCap: null, refusedMin: null });
    expect(source.limits.span()).toBeGreaterThan(50_000);
    await eng.stop();
  }, 120_000);
});

describe('deployments: a nonce scan never holds back the other evidence', () => {
  it('a bot with nonce 323,847 is synced in one run: CREATE addresses scanned up to the bound, logs stored', async () => {
    const chain = simulateChain({ wallet: randomAddress(), events: 50, nonce: 323_847 });
    const provider = await startFakeProvider(chain, 'open');
    providers.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const repo = createIngestionRepo(db);
    const source = createRpcSource(1, provider.url);
    const eng = createIngestionService({
      db,
      repo,
      sources: [source],
      log: console as never,
      concurrency: 1,
      ingestOnRead: true,
      sync: { useFinalized: true, maxNonceScan: 5_000 },
      pinned: (id) => pinnedContracts(id),
    });
    const [res] = await eng.syncWallet(chain.wallet);
    // nonces past the bound are not looked for by design: the chain is complete, and the result says the scan was capped
    expect(res.complete).toBe(true);
    expect(res.nonceScanCapped).toBe(true);
    const [s] = await db.query<{ nonce: string; deploy_nonce_checked: string }>(
      'SELECT nonce, deploy_nonce_checked FROM wallet_sync WHERE wallet = $1',
      [chain.wallet],
    );
    expect(Number(s.nonce)).toBe(323_847);
    expect(Number(s.deploy_nonce_checked)).toBe(5_000);
    const kinds = await db.query<{ kind: string }>('SELECT kind FROM wallet_activity WHERE wallet = $1', [chain.wallet]);
    expect(kinds.filter((k) => k.kind === 'contract_deploy')).toHaveLength(1);
    // eth_getCode in batches: at most 5,000 address checks plus a binary search, in a handful of round trips
    expect(provider.calls.get('eth_getCode') ?? 0).toBeLessThan(5_100);
    expect(provider.requests).toBeLessThan(200);
    await eng.stop();
  }, 120_000);
});
