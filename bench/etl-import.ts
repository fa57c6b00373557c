// `credence ingest --format ethereum-etl` at scale: a generated export of about a million rows (the real 2-block
// mainnet export in /work/shared/data/ethereum-etl repeated under new block numbers, times and hashes, written to a
// temporary directory at bench time), imported into a new database, against the database's own bulk-load rates in
// the same run, with no reading, parsing or decoding: COPY of as many rows into a plain table of wallet_activity's
// width (no key, no index: the most the database takes in), and multi-row INSERTs of them into a table shaped like
// wallet_activity (its columns, key and indexes: what any writer of that table pays). Memory is sampled through the
// import (the reader streams: it should stay flat whatever the export's size). The rescoring after the load is
// timed apart (the CLI runs it; BENCH_RESCORE=0 skips it). The import's CPU is printed split into the importing
// process's (reading, parsing and decoding on their own thread, and the writes' own) and its database backends'.
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/etl-import.ts [rows=1000000]
//   (without DATABASE_URL: embedded PGlite in memory)
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from '../src/platform/db/index.js';
import { scratchDatabase } from './scratch-db.js';
import { copyFromText } from '../src/platform/db/copy.js';
import { createIngestionRepo } from '../src/modules/ingestion/repo.js';
import { importEthereumEtl } from '../src/modules/ingestion/etl/import.js';
import { backendsCpuSeconds, loadAverage as load } from './db-cpu.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const MAINNET = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/ethereum-etl/mainnet-17173049-17173050-json');
const KINDS = ['blocks', 'transactions', 'logs', 'token_transfers'] as const;

/** Writes the real export `copies` times; copy k has its blocks moved k*blocks on, its hashes replaced. */
async function generate(dir: string, rows: number): Promise<{ rows: number; copies: number; bytes: number }> {
  const lines = Object.fromEntries(
    KINDS.map((k) => [
      k,
      readFileSync(path.join(MAINNET, `${k}.json`), 'utf8')
        .split('\n')
        .filter(Boolean),
    ]),
  ) as Record<(typeof KINDS)[number], string[]>;
  const perCopy = lines.transactions.length + lines.logs.length + lines.token_transfers.length;
  const copies = Math.ceil(rows / perCopy);
  const blocks = lines.blocks.map((l) => JSON.parse(l) as { number: number; hash: string; timestamp: number });
  const span = blocks.length;
  // every transaction and block hash of the export, renamed per copy (topics and data keep their words)
  const hashes = new Set<string>();
  for (const l of [...lines.transactions, ...lines.blocks])
    for (const m of l.matchAll(/"(?:hash|parent_hash)": "(0x[0-9a-f]{64})"/g)) hashes.add(m[1]);
  let bytes = 0;
  for (const kind of KINDS) {
    const out = createWriteStream(path.join(dir, `${kind}.json`));
    for (let k = 0; k < copies; k++) {
      const salt = `copy-${k}`;
      const renamed = new Map<string, string>();
      const rename = (h: string) => {
        if (!hashes.has(h)) return h;
        let v = renamed.get(h);
        if (!v) renamed.set(h, (v = `0x${createHash('sha256').update(salt).update(h).digest('hex')}`));
        return v;
      };
      const chunk =
        lines[kind]
          .map((l) =>
            l
              .replace(/0x[0-9a-f]{64}/g, rename)
              .replace(/("(?:block_number|number)": )(\d+)/g, (_, p: string, n: string) => `${p}${Number(n) + (k + 1) * span}`)
              .replace(/("(?:block_timestamp|timestamp)": )(\d+)/g, (_, p: string, n: string) => `${p}${Number(n) + (k + 1) * span * 12}`),
          )
          .join('\n') + '\n';
      bytes += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r, j) => {
      out.once('error', j);
      out.end(() => r());
    });
  }
  return { rows: copies * perCopy, copies, bytes };
}

const COLUMNS =
  'chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id, amount, direction, protocol, ref, value_usd, tx_from';
const PLAIN = `CREATE TABLE etl_bench_plain (chain_id integer, tx_hash text, log_index integer, wallet text, kind text, block_number bigint,
  occurred_at timestamptz, contract text, counterparty text, token_id numeric, amount numeric, direction text, protocol text, ref text,
  value_usd numeric, tx_from text)`;

/** COPY text of baseline rows [from, to): hashes spread like real ones, the widths of an ERC-20 transfer's record. */
function copyRows(from: number, to: number): string {
  let out = '';
  for (let x = from; x < to; x++) {
    const w = `0x${(x % 50_000).toString(16).padStart(40, '0')}`;
    out += `1\t0x${createHash('sha256').update(String(x)).digest('hex')}\t${x % 400}\t${w}\ttransfer_erc20\t${17_000_000 + (x >> 9)}\t2023-05-02T00:00:00Z\t0x${(x % 300).toString(16).padStart(40, '0')}\t${w}\t\\N\t1000000\tout\t\\N\t\\N\t\\N\t${w}\n`;
  }
  return out;
}

/** The database's raw bulk-load rate: COPY of `rows` rows into a plain table of wallet_activity's width, 50,000
 *  (PGlite 5,000) a COPY and a transaction (PostgreSQL: FROM STDIN; PGlite: FROM '/dev/blob', in a PGlite of its own). The rows'
 *  text is made before the clock starts. */
async function copyBaseline(url: string | null, rows: number): Promise<number> {
  // PGlite's COPY FROM '/dev/blob' slows as the table grows (a million rows: ~3,000-3,600 rows/s in 5,000- or
  // 50,000-row blobs, against 63,000 for 20,000 rows): on PGlite read the INSERT baseline
  const chunk = url ? 50_000 : 5_000;
  const texts: string[] = [];
  for (let i = 0; i < rows; i += chunk) texts.push(copyRows(i, Math.min(rows, i + chunk)));
  if (url) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(`DROP TABLE IF EXISTS etl_bench_plain; ${PLAIN}`);
      const t = performance.now();
      for (const text of texts) {
        await c.query('BEGIN');
        await copyFromText(c, `COPY etl_bench_plain (${COLUMNS}) FROM STDIN`, text);
        await c.query('COMMIT');
      }
      const ms = performance.now() - t;
      await c.query('DROP TABLE etl_bench_plain');
      return rows / (ms / 1000);
    } finally {
      await c.end();
    }
  }
  const lite = await PGlite.create();
  try {
    await lite.exec(PLAIN);
    const t = performance.now();
    for (const text of texts)
      await lite.transaction((tx) => tx.query(`COPY etl_bench_plain (${COLUMNS}) FROM '/dev/blob'`, [], { blob: new Blob([text]) }));
    return rows / ((performance.now() - t) / 1000);
  } finally {
    await lite.close();
  }
}

/** The database's own rate: `rows` rows of wallet_activity's shape, 5,000 a statement, one transaction per 20,000. */
async function baseline(db: Db, rows: number): Promise<number> {
  await db.exec('DROP TABLE IF EXISTS etl_bench_baseline; CREATE TABLE etl_bench_baseline (LIKE wallet_activity INCLUDING ALL)');
  const batch = 5000;
  const t = performance.now();
  for (let done = 0; done < rows;) {
    await db.tx(async (q) => {
      for (let i = 0; i < 4 && done < rows; i++) {
        const n = Math.min(batch, rows - done);
        const ix = Array.from({ length: n }, (_, j) => done + j);
        await q.query(
          `INSERT INTO etl_bench_baseline (chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id, amount, direction, protocol, ref, value_usd, tx_from)
           SELECT 1, h, i, w, 'transfer_erc20', b, now(), c, w, NULL, '1000000', 'out', NULL, NULL, NULL, w
           FROM unnest($1::text[], $2::int[], $3::text[], $4::bigint[], $5::text[]) AS t(h, i, w, b, c)
           ON CONFLICT DO NOTHING`,
          // hashes spread like real ones (an ordered key would only ever append to the primary key's last page)
          [
            ix.map((x) => `0x${createHash('sha256').update(String(x)).digest('hex')}`),
            ix.map((x) => x % 400),
            ix.map((x) => `0x${(x % 50_000).toString(16).padStart(40, '0')}`),
            ix.map((x) => 17_000_000 + (x >> 9)),
            ix.map((x) => `0x${(x % 300).toString(16).padStart(40, '0')}`),
          ],
        );
        done += n;
      }
    });
  }
  const ms = performance.now() - t;
  await db.exec('DROP TABLE etl_bench_baseline');
  return rows / (ms / 1000);
}

/** Wall time spent in each kind of statement (its first words), for the import's breakdown. */
function timedDb(db: Db): { db: Db; report(): string } {
  const spent = new Map<string, { ms: number; n: number }>();
  const time = async <T>(sql: string, run: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    try {
      return await run();
    } finally {
      const key = sql.replace(/\s+/g, ' ').trim().slice(0, 48);
      const e = spent.get(key) ?? { ms: 0, n: 0 };
      e.ms += performance.now() - t;
      e.n++;
      spent.set(key, e);
    }
  };
  const wrap = (q: Queryable): Queryable => ({
    query: (sql, params, o) => time(sql, () => q.query(sql, params, o)),
    ...(q.copyFrom ? { copyFrom: (sql: string, data: string) => time(sql, () => q.copyFrom!(sql, data)) } : {}),
  });
  return {
    db: { ...db, ...wrap(db), tx: (fn) => time('(transaction)', () => db.tx((q) => fn(wrap(q)))) },
    report: () =>
      [...spent]
        .sort((a, b) => b[1].ms - a[1].ms)
        .slice(0, 6)
        .map(([k, v]) => `    ${(v.ms / 1000).toFixed(1).padStart(6)} s in ${String(v.n).padStart(4)} x ${k}`)
        .join('\n'),
  };
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-bench-'));
  try {
    let t = performance.now();
    const gen = await generate(dir, ROWS);
    console.log(
      `generated ${gen.rows} rows (${gen.copies} copies of the mainnet export, ${(gen.bytes / 2 ** 20).toFixed(0)} MB) in ${((performance.now() - t) / 1000).toFixed(1)} s (load ${load()})`,
    );

    const { db, url, drop } = await scratchDatabase('credence_bench_etl');
    try {
      const repo = createIngestionRepo(db);
      let peakRss = 0;
      const samples: number[] = [];
      const sampler = setInterval(() => {
        const rss = process.memoryUsage().rss;
        peakRss = Math.max(peakRss, rss);
        samples.push(rss);
      }, 250);
      const timed = timedDb(db);
      t = performance.now();
      const cpu0 = process.cpuUsage();
      const backends0 = await backendsCpuSeconds(db);
      const writers = process.env.BENCH_WRITERS ? Number(process.env.BENCH_WRITERS) : undefined;
      // BENCH_THREAD=0 or 1: decoded on the importing thread or on its own (default: its own beyond two cores)
      const decodeThread = process.env.BENCH_THREAD ? process.env.BENCH_THREAD === '1' : undefined;
      const r = await importEthereumEtl({ db: timed.db, repo: createIngestionRepo(timed.db) }, dir, { chainId: 1, writers, decodeThread });
      const ms = performance.now() - t;
      const cpu = process.cpuUsage(cpu0);
      const backends = (await backendsCpuSeconds(db)) - backends0;
      clearInterval(sampler);
      const rows = r.files.reduce((s, f) => s + f.rows, 0);
      const rate = rows / (ms / 1000);
      const q = (p: number) => [...samples].sort((a, b) => a - b)[Math.floor(p * (samples.length - 1))] / 2 ** 20;
      console.log(
        `import (${db.kind}, ${writers ?? 'default'} writers, decoded ${(decodeThread ?? true) ? 'on its own thread' : 'on the importing thread'}): ${rows} rows -> ${r.records} records for ${r.wallets.size} wallets in ${(ms / 1000).toFixed(1)} s: ${Math.round(rate)} rows/s (load ${load()})`,
      );
      // this process's CPU (reading, parsing, decoding; on PGlite the database's work too): the load-independent part
      console.log(
        `  CPU of the importing process: ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (${((cpu.user + cpu.system) / rows).toFixed(1)} µs a row)`,
      );
      if (db.kind === 'postgres')
        console.log(
          `  CPU of its database backends (a server on this machine): ${backends.toFixed(1)} s (${((backends * 1e6) / rows).toFixed(1)} µs a row)`,
        );
      console.log(`  where the import waited on the database (wall time per statement, writes overlap reading):\n${timed.report()}`);
      console.log(
        `  memory through the import: rss median ${q(0.5).toFixed(0)} MB, peak ${(peakRss / 2 ** 20).toFixed(0)} MB (first quarter's median ${q(0.25).toFixed(0)} MB)`,
      );

      // the baselines after the import, so that their own garbage (the COPY text) is not in the import's memory
      const copyBase = await copyBaseline(url, gen.rows);
      console.log(
        `baseline (${db.kind}): COPY of ${gen.rows} rows into a plain table of wallet_activity's width (no key, no index): ${Math.round(copyBase)} rows/s (load ${load()})`,
      );
      const base = await baseline(db, gen.rows);
      console.log(
        `baseline (${db.kind}): multi-row INSERTs of ${gen.rows} rows into a table shaped like wallet_activity (its key and indexes): ${Math.round(base)} rows/s (load ${load()})`,
      );
      console.log(
        `  ratio to the baselines: ${(rate / copyBase).toFixed(2)} of COPY into a plain table, ${(rate / base).toFixed(2)} of INSERTs into wallet_activity's shape; goal 50,000 rows/s on PostgreSQL${db.kind === 'postgres' ? `: ${rate >= 50_000 ? 'met' : 'not met'}` : ''}`,
      );

      if (process.env.BENCH_RESCORE !== '0') {
        const { createScoringService, standaloneInputs } = await import('../src/modules/scoring/service.js');
        const { createEventBus } = await import('../src/platform/events/bus.js');
        const { createCacheFactory } = await import('../src/platform/cache/index.js');
        const bus = createEventBus({ instanceId: 'bench', channel: 'bench' });
        const scoring = createScoringService({
          db,
          bus,
          caches: createCacheFactory(bus),
          features: { forMany: (ws) => repo.featuresMany(ws, db) },
          services: standaloneInputs(),
        });
        t = performance.now();
        await scoring.recomputeMany([...r.wallets], 'ingestion');
        const rs = performance.now() - t;
        console.log(
          `rescoring after the load: ${r.wallets.size} wallets in ${(rs / 1000).toFixed(1)} s (${Math.round(r.wallets.size / (rs / 1000))} wallets/s)`,
        );
      }
    } finally {
      await drop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
