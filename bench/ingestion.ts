// Ingestion benchmark: featuresFor (one SQL aggregation per wallet) and featuresMany (one statement per chunk of
// wallets) against a primary-key read baseline in the same run, activity insert throughput, features + model + store
// (a rescoring pass through the scoring service), and ethereum-etl import throughput on the real mainnet export. DATABASE_URL=postgres://... for PostgreSQL.
//   node --import tsx bench/ingestion.ts [wallets=2800 (800 of them the warm-up)] [recordsPerWallet=60]
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../src/platform/db/index.js';
import { createOutbox } from '../src/modules/webhooks/outbox.js';
import { createOutboxRepo } from '../src/modules/webhooks/outbox-repo.js';
import { createIngestionRepo } from '../src/modules/ingestion/repo.js';
import { chunkSizer, FEATURES_CHUNK } from '../src/modules/scoring/features/index.js';
import { importEthereumEtl } from '../src/modules/ingestion/etl/import.js';
import { ACTIVITY_KINDS } from '../src/modules/ingestion/events.js';
import type { ActivityRecord } from '../src/modules/ingestion/decode.js';
import { createScoringService, standaloneInputs } from '../src/modules/scoring/service.js';
import { createEventBus } from '../src/platform/events/bus.js';
import { createCacheFactory } from '../src/platform/cache/index.js';
import { backendsCpuSeconds, loadAverage as load } from './db-cpu.js';
import { scratchDatabase } from './scratch-db.js';

const WALLETS = Number(process.argv[2] ?? 2800);
/** wallets scored before the measured pass (see the warm-up), never measured */
const WARM = 800;
const PER_WALLET = Number(process.argv[3] ?? 60);
const MAINNET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/ethereum-etl/mainnet-17173049-17173050-json');

// every protocol the registry reads: the lending replay and the trading features see each of them
const LENDING = ['aave-v2', 'aave-v3', 'morpho-blue', 'compound-v2', 'spark', 'compound-v3', 'moonwell'];
const DEXES = ['uniswap-v2', 'uniswap-v3', 'uniswap-v4', 'balancer-v2'];
const addr = () => `0x${randomBytes(20).toString('hex')}`;
const hash = () => `0x${randomBytes(32).toString('hex')}`;

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

/** CPU (µs) used so far by the server processes of this database's connections (0 on PGlite or another host). */
const backendsCpu = async (db: Db) => (await backendsCpuSeconds(db)) * 1e6;

async function main() {
  const { db, drop } = await scratchDatabase('credence_bench_ingestion');
  const repo = createIngestionRepo(db);
  const wallets = Array.from({ length: WALLETS }, addr);
  const pools = Array.from({ length: 50 }, addr);
  const start = Date.now() - 400 * 86_400_000;

  const records: ActivityRecord[] = [];
  for (const w of wallets) {
    for (let i = 0; i < PER_WALLET; i++) {
      const kind = ACTIVITY_KINDS[(i * 7 + w.charCodeAt(3)) % ACTIVITY_KINDS.length];
      records.push({
        chainId: [1, 10, 8453][i % 3],
        txHash: hash(),
        logIndex: i,
        wallet: w,
        kind,
        blockNumber: 17_000_000 + i,
        occurredAt: new Date(start + ((i * 86_400_000 * 6.5) % (400 * 86_400_000))),
        contract: pools[i % pools.length],
        counterparty: pools[(i * 3) % pools.length],
        tokenId: null,
        amount: String(i * 1000),
        direction: i % 2 ? 'in' : 'out',
        protocol: kind.startsWith('lending') ? LENDING[i % LENDING.length] : kind === 'swap' ? DEXES[i % DEXES.length] : null,
        ref: kind === 'gov_vote' ? String(i) : null,
      });
    }
    await repo.recordAccount(w, 1, { nonce: PER_WALLET, balance: '1' });
  }
  const [, insertMs] = await timed(() => db.tx((q) => repo.insertActivity(records, q)));
  const [, reinsertMs] = await timed(() => db.tx((q) => repo.insertActivity(records.slice(0, 20_000), q)));
  console.log(
    `activity rows: ${records.length} inserted in ${insertMs.toFixed(0)} ms (${Math.round(records.length / (insertMs / 1000))} rows/s); ` +
      `20,000 duplicates ignored in ${reinsertMs.toFixed(0)} ms`,
  );

  // the table's statistics, as autovacuum leaves them a minute after a load (without them the plan depends on
  // whether autovacuum happened to run before the measurement)
  if (db.kind !== 'pglite') await db.query('ANALYZE wallet_activity');
  const sample = wallets.slice(0, Math.min(1000, WALLETS));
  for (const w of sample.slice(0, 50)) await repo.features(w); // warm-up
  const [, baseMs] = await timed(async () => {
    for (const w of sample) await db.query('SELECT * FROM wallet_sync WHERE wallet = $1 AND chain_id = 1', [w]);
  });
  const [, featMs] = await timed(async () => {
    for (const w of sample) await repo.features(w);
  });
  const base = sample.length / (baseMs / 1000);
  const feat = sample.length / (featMs / 1000);
  console.log(
    `featuresFor (${PER_WALLET} records/wallet, ${db.kind}): ${feat.toFixed(0)} wallets/s, ${(featMs / sample.length).toFixed(2)} ms each`,
  );
  console.log(`baseline primary-key read: ${base.toFixed(0)} reads/s; ratio featuresFor/baseline = ${(feat / base).toFixed(2)}`);
  // the bulk path: one statement per chunk of wallets (as the ingestion service sizes it for this database), 1 in flight
  const chunk = db.kind === 'pglite' ? chunkSizer(50) : FEATURES_CHUNK;
  const [, manyMs] = await timed(() => repo.featuresMany(sample, db, chunk));
  const many = sample.length / (manyMs / 1000);
  console.log(
    `featuresMany (${typeof chunk === 'number' ? chunk : `~${chunk.size}`} wallets a statement, ${db.kind}): ${many.toFixed(0)} wallets/s, ${(manyMs / sample.length).toFixed(2)} ms each; ratio to baseline = ${(many / base).toFixed(2)}`,
  );

  // features + model + store: a rescoring pass as the service runs it (features from this store, the model with
  // its lending replay, the nine rows written in one transaction per 100 wallets), 8 batches in flight
  // where the time goes: each stage's time summed over the batches in flight (they overlap, so the shares are of
  // the summed time, not of the wall clock): the features statement (and its rows turned into features), the store
  // transaction (lock, upsert, score changes, outbox), and the rest (the model, coverage, signals) by difference
  // the store transaction split by statement (the rest of it is BEGIN, COMMIT and the plan in between)
  const spent = { features: 0, store: 0, total: 0 };
  const inStore = new Map<string, number>();
  const stage = (sql: string) =>
    /FOR UPDATE/.test(sql)
      ? 'lock rows'
      : /pg_advisory_xact_lock/.test(sql)
        ? 'feed lock'
        : /INSERT INTO scores/.test(sql)
          ? 'scores upsert'
          : /INSERT INTO score_changes/.test(sql)
            ? 'history'
            : /webhook_deliveries/.test(sql)
              ? 'outbox'
              : sql.replace(/\s+/g, ' ').trim().slice(0, 30);
  const timedQ = (q: Queryable): Queryable => ({
    query: async (sql, params, o) => {
      const t = performance.now();
      try {
        return await q.query(sql, params, o);
      } finally {
        const k = stage(sql);
        inStore.set(k, (inStore.get(k) ?? 0) + performance.now() - t);
      }
    },
  });
  const timedDb = {
    ...db,
    tx: async <T>(fn: Parameters<typeof db.tx<T>>[0]) => {
      const t = performance.now();
      try {
        return await db.tx((q) => fn(timedQ(q)));
      } finally {
        spent.store += performance.now() - t;
      }
    },
  } as typeof db;
  const featuresTimed = async (ws: string[]) => {
    const t = performance.now();
    try {
      return await repo.featuresMany(ws, db, chunk);
    } finally {
      spent.features += performance.now() - t;
    }
  };
  const bus = createEventBus({ instanceId: 'bench', channel: 'bench' });
  const scoring = createScoringService({
    db: timedDb,
    bus,
    caches: createCacheFactory(bus),
    // the outbox rows are written in the score's transaction (no subscription here: the statement, no rows)
    features: { forMany: featuresTimed },
    services: standaloneInputs(createOutbox(createOutboxRepo(db))),
  });
  // warm-up: the last WARM wallets, never measured, scored in as many batches in flight as the measured pass. Each
  // connection then has planned the features statement once (a new connection's first execution costs ~100 ms of
  // the server's CPU: parsing and planning it, and loading the catalog), and the model's code is optimized, as in a
  // server that has been scoring for a while (a bulk rescoring of a lender's applicants is minutes of this): the
  // first few hundred wallets of a process cost ~30% more CPU each while V8 compiles the model
  const pass = wallets.slice(0, Math.min(4000, WALLETS - WARM));
  const batches: string[][] = [];
  for (let i = 0; i < pass.length; i += 100) batches.push(pass.slice(i, i + 100));
  const warm = wallets.slice(WALLETS - WARM);
  await Promise.all(Array.from({ length: 8 }, (_, i) => scoring.recomputeMany(warm.slice(i * 100, (i + 1) * 100), 'bench')));
  Object.assign(spent, { features: 0, store: 0, total: 0 });
  inStore.clear();
  const cpu0 = process.cpuUsage();
  const db0 = await backendsCpu(db);
  const [, storeMs] = await timed(async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < batches.length) {
          const t = performance.now();
          await scoring.recomputeMany(batches[next++], 'bench');
          spent.total += performance.now() - t;
        }
      }),
    );
  });
  console.log(
    `features + model + store (${PER_WALLET} records/wallet, ${db.kind}): ${Math.round(pass.length / (storeMs / 1000))} wallets/s (${pass.length} wallets, 100 a transaction, 8 in flight; target 2,000/s on PostgreSQL); ratio to baseline = ${(pass.length / (storeMs / 1000) / base).toFixed(2)}`,
  );
  const cpu = process.cpuUsage(cpu0);
  const dbCpu = (await backendsCpu(db)) - db0;
  const share = (ms: number) => `${((100 * ms) / spent.total).toFixed(0)}%`;
  console.log(
    `  breakdown of the batches' summed time: features ${share(spent.features)}, store transaction ${share(spent.store)}, model and the rest ${share(spent.total - spent.features - spent.store)}`,
  );
  const inTx = [...inStore.values()].reduce((a, b) => a + b, 0);
  console.log(
    `  the store transaction: ${[...inStore].map(([k, ms]) => `${k} ${share(ms)}`).join(', ')}, BEGIN/COMMIT and between ${share(spent.store - inTx)}`,
  );
  // CPU, whatever the machine's load: this process (the model, the driver) and the database's backends of this
  // database (PostgreSQL on this machine; /proc), per wallet: 2 cores at 100% take at most 2 s / (the sum) wallets a second
  const perWallet = (us: number) => `${(us / pass.length).toFixed(0)} µs`;
  console.log(
    `  CPU per wallet: this process ${perWallet(cpu.user + cpu.system)}` +
      (dbCpu > 0 ? `, the database's backends ${perWallet(dbCpu)}` : " (the database's backends: not on this machine or not readable)") +
      ` (load ${load()})`,
  );

  if (existsSync(MAINNET)) {
    const [r, ms] = await timed(() => importEthereumEtl({ db, repo }, MAINNET, { chainId: 1 }));
    const rows = r.files.reduce((s, f) => s + f.rows, 0);
    console.log(
      `ethereum-etl import of the mainnet export: ${rows} rows -> ${r.records} records for ${r.wallets.size} wallets in ${ms.toFixed(0)} ms (${Math.round(rows / (ms / 1000))} rows/s)`,
    );
  }
  await drop();
}

await main();
