// Ingestion cost per provider profile: calls and wall time for one wallet's first sync of one chain (a simulated
// 20,000,000-block chain, ~2,000 evidence logs) against each JSON-RPC provider simulator at a 50 ms round trip,
// and the explorer source for a wallet with 2,000 events over five chains reaching a `complete` coverage.
// Each profile runs on a fresh in-memory database; learned caps are forgotten between profiles.
//   node --import tsx bench/ingestion-providers.ts [latencyMs=50] [explorerRps=20] [only=profile,...|explorer|explorer+rpc]
import { openDatabase } from '../src/platform/db/index.js';
import { migrate } from '../src/platform/db/migrate.js';
import type { Db } from '../src/platform/db/types.js';
import { createIngestionRepo } from '../src/modules/ingestion/repo.js';
import { createRpcSource, type ChainSource } from '../src/modules/ingestion/rpc-source.js';
import { resetLearnedLimits } from '../src/modules/ingestion/rpc-limits.js';
import { createIngestionService } from '../src/modules/ingestion/service.js';
import { createExplorerClient, type ExplorerSource } from '../src/modules/ingestion/explorer/source.js';
import { pinnedContracts } from '../src/modules/ingestion/registry/index.js';
import { simulateChain } from '../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type ProviderProfile } from '../test/fakes/rpc-provider.js';
import { explorerHistory, startFakeExplorer } from '../test/fakes/explorer-api.js';

const LATENCY = Number(process.argv[2] ?? 50);
const EXPLORER_RPS = Number(process.argv[3] ?? 20);
const quiet = { warn() {}, error() {}, debug() {} };
const wallet = '0x1111111111111111111111111111111111111111';

async function freshDb() {
  const db = await openDatabase('pglite://memory', '/tmp');
  await migrate(db);
  return db;
}

async function rpcProfile(profile: ProviderProfile) {
  resetLearnedLimits();
  const chain = simulateChain({ wallet, events: 2000 });
  const provider = await startFakeProvider(chain, profile, { latencyMs: LATENCY });
  const db = await freshDb();
  const engine = benchEngine(db, [createRpcSource(1, provider.url)], []);
  const t = performance.now();
  const [r] = await engine.syncWallet(wallet);
  const ms = performance.now() - t;
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_activity WHERE wallet = $1', [wallet]);
  await engine.stop();
  await provider.close();
  await db.close();
  return {
    profile,
    complete: r.complete,
    records: n,
    getLogs: provider.calls.get('eth_getLogs') ?? 0,
    calls: [...provider.calls.values()].reduce((a, b) => a + b, 0),
    httpRequests: provider.requests,
    refusals: provider.refusals,
    seconds: ms / 1000,
  };
}

/** One wallet synced at a time, on finalized blocks, from the registry's contracts. */
function benchEngine(db: Db, sources: ChainSource[], explorers: ExplorerSource[]) {
  return createIngestionService({
    db,
    repo: createIngestionRepo(db),
    sources,
    explorers,
    log: quiet,
    concurrency: 1,
    ingestOnRead: true,
    sync: { useFinalized: true },
    pinned: (id) => pinnedContracts(id),
  });
}

/** The explorer alone (receipts of router swaps from its proxy module), or with JSON-RPC too (receipts batched). */
async function explorer(withRpc: boolean) {
  const chains = [1, 10, 137, 8453, 42161];
  const histories = Object.fromEntries(chains.map((c) => [c, explorerHistory(c, wallet, 400)]));
  const fake = await startFakeExplorer(histories, { latencyMs: LATENCY, rps: EXPLORER_RPS });
  const db = await freshDb();
  const client = createExplorerClient({ url: fake.url, apiKey: fake.apiKey, rps: EXPLORER_RPS });
  const rpcs = withRpc
    ? await Promise.all(
        chains.map(async (c) => {
          const sim = simulateChain({ wallet, events: 0, chainId: c });
          sim.receipts = new Map([...histories[c].receipts].map(([h, logs]) => [h.toLowerCase(), logs]));
          const p = await startFakeProvider(sim, 'open', { latencyMs: LATENCY });
          return { p, source: createRpcSource(c, p.url) };
        }),
      )
    : [];
  const engine = benchEngine(
    db,
    rpcs.map((r) => r.source),
    chains.map((c) => client.source(c)),
  );
  const t = performance.now();
  await engine.syncWallet(wallet);
  const ms = performance.now() - t;
  const coverage = (await engine.coverageFor([wallet])).get(wallet)!;
  const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM wallet_activity WHERE wallet = $1', [wallet]);
  await engine.stop();
  await fake.close();
  for (const r of rpcs) await r.p.close();
  await db.close();
  const rpcCalls = rpcs.reduce((a, r) => a + [...r.p.calls.values()].reduce((x, y) => x + y, 0), 0);
  const rpcRequests = rpcs.reduce((a, r) => a + r.p.requests, 0);
  return {
    profile: `explorer${withRpc ? ' + JSON-RPC (receipts batched, head)' : ' alone'} (5 chains, ${EXPLORER_RPS}/s key)`,
    complete: coverage.status === 'complete',
    records: n,
    getLogs: fake.calls.get('logs.getLogs') ?? 0,
    calls: [...fake.calls.values()].reduce((a, b) => a + b, 0) + rpcCalls,
    httpRequests: [...fake.calls.values()].reduce((a, b) => a + b, 0) + fake.rateLimited + rpcRequests,
    refusals: fake.rateLimited,
    seconds: ms / 1000,
  };
}

async function main() {
  console.log(`round trip ${LATENCY} ms; one wallet, first sync; chain head 20,000,000`);
  const rows = [];
  const only = process.argv[4]?.split(',');
  for (const p of ['open', 'results', 'infura', 'quicknode', 'cap10k', 'ankr', 'ratelimit', 'cap500'] as const) {
    if (only && !only.includes(p)) continue;
    rows.push(await rpcProfile(p));
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  for (const withRpc of [false, true]) {
    if (only && !only.includes(withRpc ? 'explorer+rpc' : 'explorer')) continue;
    rows.push(await explorer(withRpc));
    console.log(JSON.stringify(rows[rows.length - 1]));
  }
  console.log(
    '\n| profile | complete | records | eth_getLogs (explorer: getLogs) | calls | HTTP requests | refusals | wall s |\n|---|---|---|---|---|---|---|---|',
  );
  for (const r of rows)
    console.log(
      `| ${r.profile} | ${r.complete} | ${r.records} | ${r.getLogs} | ${r.calls} | ${r.httpRequests} | ${r.refusals} | ${r.seconds.toFixed(1)} |`,
    );
}

await main();
