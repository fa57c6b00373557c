// Applies migrations/NNNN_<name>.sql in order, once each, recorded in schema_migrations.
// The same plain SQL runs on PGlite and on PostgreSQL; an advisory lock keeps two instances from racing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './types.js';
import { isUnavailable } from './unavailable.js';

/** A start whose migration run is cut (the database restarting or failing over) tries again this long. */
const START_RETRY_MS = 30_000;
const UNDEFINED_TABLE = '42P01';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../migrations');

export async function migrate(db: Db, dir = MIGRATIONS_DIR, opts: { retryForMs?: number } = {}): Promise<string[]> {
  // The run is one transaction (each file recorded in it), so a run cut mid-way left nothing behind and is run
  // again whole; one whose commit was cut and did land finds its files recorded and applies nothing twice.
  const until = Date.now() + (opts.retryForMs ?? START_RETRY_MS);
  for (let wait = 250; ; wait = Math.min(wait * 2, 4_000)) {
    try {
      return await migrateOnce(db, dir);
    } catch (err) {
      if (!isUnavailable(err) || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

async function migrateOnce(db: Db, dir: string): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort();
  // The usual start finds every file recorded: one read, no lock, no DDL. Recorded rows are committed, so what they
  // list is applied whatever another instance is doing; anything pending takes the locked path below.
  const recorded = await recordedVersions(db);
  if (recorded && files.every((f) => recorded.has(f.replace(/\.sql$/, '')))) return [];
  if (db.kind === 'pglite') return migrateEmbedded(db, dir, files, recorded);
  const applied: string[] = [];
  await db.tx(async (q) => {
    // The lock comes first: instances starting together on a new database would otherwise race even on
    // CREATE TABLE IF NOT EXISTS (a unique violation in pg_type for all but one of them).
    await q.query('SELECT pg_advisory_xact_lock(727274)');
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set((await q.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    for (const f of files) {
      const version = f.replace(/\.sql$/, '');
      if (done.has(version)) continue;
      const sql = readFileSync(path.join(dir, f), 'utf8');
      // Split on statement boundaries so the same script runs through any driver's extended protocol.
      for (const stmt of splitSql(sql)) await q.query(stmt);
      await q.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      applied.push(version);
    }
  });
  return applied;
}

/**
 * The embedded database: one process holds the data directory (lock.ts), so no instance races this one. What is
 * pending runs as one script in one transaction: a new data directory's 150-odd statements in one call instead of
 * a protocol round trip (parse, bind, describe, execute) each, and every file recorded by one INSERT.
 */
async function migrateEmbedded(db: Db, dir: string, files: string[], recorded: Set<string> | null): Promise<string[]> {
  if (!recorded)
    await db.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  const done = recorded ?? new Set<string>();
  const pending = files.map((f) => f.replace(/\.sql$/, '')).filter((v) => !done.has(v));
  if (!pending.length) return [];
  // each file ends on its own line: a last line comment without a newline cannot swallow what follows
  const script = [
    'BEGIN',
    ...pending.map((v) => readFileSync(path.join(dir, `${v}.sql`), 'utf8')),
    `INSERT INTO schema_migrations (version) VALUES ${pending.map((v) => `('${v}')`).join(', ')}`,
    'COMMIT',
  ].join('\n;\n');
  try {
    await db.exec(script);
  } catch (err) {
    // a failed statement leaves the transaction aborted: nothing of the run stays
    await db.exec('ROLLBACK').catch(() => undefined);
    throw err;
  }
  return pending;
}

/** The versions schema_migrations records, or null when the table is not there yet (a new database). */
async function recordedVersions(db: Db): Promise<Set<string> | null> {
  try {
    return new Set((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
  } catch (err) {
    if ((err as { code?: string }).code === UNDEFINED_TABLE) return null;
    throw err;
  }
}

/** Splits a script on semicolons outside quotes, dollar-quoted bodies and comments. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      cur += '\n';
      continue;
    }
    if (c === "'") {
      const end = sql.indexOf("'", i + 1);
      cur += sql.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (c === '$') {
      const m = /^\$[A-Za-z_]*\$/.exec(sql.slice(i));
      if (m) {
        const end = sql.indexOf(m[0], i + m[0].length);
        cur += sql.slice(i, end + m[0].length);
        i = end + m[0].length;
        continue;
      }
    }
    if (c === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      i++;
      continue;
    }
    cur += c;
    i++;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
