// Benchmark of bulk scoring jobs (POST /reputation/batch-jobs) against requests, on PGlite and on PostgreSQL:
//  - baseline: /health latency (p50/p99) of the idle instance, measured in the same run;
//  - then one job of BENCH_ADDRESSES never-seen addresses (first reads: every wallet is scored): its rate
//    (addresses/s) and /health p50/p99 while it runs, as a ratio to the idle baseline (target: p99 under 200 ms).
// /health is probed over real HTTP from a separate process (the probe never shares the server's event loop).
// Run: node --import tsx bench/batch-jobs.ts   (BENCH_ADDRESSES=100000, BENCH_BACKENDS=pglite,postgres,
//      BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres, BENCH_IDLE_SECONDS=5)
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Wallet } from 'ethers';
import { buildApp } from '../src/app.js';
import { benchConfig, enterpriseKeys, signInAdmin } from './support.js';

const ADDRESSES = Number(process.env.BENCH_ADDRESSES ?? 100_000);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 5);

const PROBE = `
  const lat = [];
  let on = true;
  let first = true;
  process.on('message', () => { on = false; });
  (async () => {
    while (on) {
      const t = performance.now();
      try { const r = await fetch(process.argv[2] + '/health'); await r.arrayBuffer(); } catch { lat.push(60000); continue; }
      // the first answer (process and connection warm-up) is not counted; it tells the bench the probe is up
      if (first) { first = false; process.send('up'); } else lat.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
    }
    process.send(lat, () => process.exit(0));
  })();
`;

interface Latency {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Starts the /health probe in its own process; stop() returns its latencies. */
function probe(url: string) {
  const file = path.join(tmpdir(), `credence-probe-${randomBytes(4).toString('hex')}.cjs`);
  writeFileSync(file, PROBE);
  const child = fork(file, [url], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let up!: () => void;
  const ready = new Promise<void>((resolve) => (up = resolve));
  const got = new Promise<number[]>((resolve) => child.on('message', (m) => (m === 'up' ? up() : resolve(m as number[]))));
  return {
    ready,
    async stop(): Promise<Latency> {
      child.send('stop');
      const lat = (await got).sort((a, b) => a - b);
      const at = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))] ?? NaN;
      return { n: lat.length, p50: at(50), p99: at(99), max: lat.at(-1) ?? NaN };
    },
  };
}

async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `credence_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

async function run(backend: string) {
  const admin = Wallet.createRandom() as unknown as Wallet;
  const pgdb = backend === 'postgres' ? await freshPostgres() : null;
  // PGlite as `npm start` uses it: in the data dir (not in memory)
  const app = await buildApp(benchConfig(admin, { databaseUrl: pgdb?.url ?? null, sanctionsSnapshot: false }), {
    logger: false,
    secrets: {},
  });
  await app.ready();
  const [key] = await enterpriseKeys(app, await signInAdmin(app, admin), 1);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    let p = probe(base);
    await p.ready;
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = await p.stop();

    const addresses = Array.from({ length: ADDRESSES }, () => '0x' + randomBytes(20).toString('hex'));
    p = probe(base);
    await p.ready;
    const res = await fetch(`${base}/api/v1/reputation/batch-jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...key },
      body: JSON.stringify({ addresses, category: 'OVERALL' }),
    });
    if (res.status !== 202) throw new Error(`job: ${res.status} ${await res.text()}`);
    const { id } = (await res.json()) as { id: string };
    let job: { status: string; processed: number; startedAt: string | null; completedAt: string | null };
    for (;;) {
      job = (await (await fetch(`${base}/api/v1/reputation/batch-jobs/${id}`, { headers: key })).json()) as typeof job;
      if (job.status === 'completed' || job.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const busy = await p.stop();
    if (job.status !== 'completed') throw new Error(`job ${job.status}`);
    const seconds = (Date.parse(job.completedAt!) - Date.parse(job.startedAt!)) / 1000;
    console.log(
      `${backend.padEnd(8)} ${ADDRESSES} addresses in ${seconds.toFixed(1)} s = ${(ADDRESSES / seconds).toFixed(1)} addresses/s | ` +
        `/health idle p50 ${idle.p50.toFixed(1)} p99 ${idle.p99.toFixed(1)} ms (n=${idle.n}) | during the job p50 ${busy.p50.toFixed(1)} p99 ${busy.p99.toFixed(1)} max ${busy.max.toFixed(0)} ms (n=${busy.n}) | ` +
        `p99 ratio job/idle ${(busy.p99 / idle.p99).toFixed(1)}x | p99 under 200 ms: ${busy.p99 < 200 ? 'yes' : 'NO'}`,
    );
  } finally {
    await app.close();
    await pgdb?.drop();
  }
}

console.log(
  `bulk jobs vs /health: ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, node ${process.version}`,
);
for (const b of BACKENDS) await run(b);
