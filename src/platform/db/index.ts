// Opens the system of record: PGlite (embedded, default) or a PostgreSQL server (DATABASE_URL).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, QueryOptions } from './types.js';
import { AppError } from '../errors.js';
import { isConnectionError, mapConnectionError } from './unavailable.js';
import { lockDataDir } from './lock.js';
import { withBackgroundLane } from './background.js';
import { copyFromText } from './copy.js';
import { initdbTemplate, PGLITE_START_PARAMS, restoreTemplate } from './pglite-template.js';
import { lazy } from '../lazy.js';

export { DataDirLocked } from './lock.js';
export { inBackground } from './background.js';

export * from './types.js';

// The PostgreSQL driver loads with the first PostgreSQL database: the embedded one never needs its ~30 modules.
const loadPg = lazy(async () => {
  const { default: pg } = await import('pg');
  // int8 (counts, sums of integers) as a JS number on both backends; NUMERIC stays a string (exact decimals).
  pg.types.setTypeParser(20, (v) => Number(v));
  return pg;
});

/** How long opening one connection may take before it counts as an outage (503 `unavailable`). */
export const CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresOptions {
  connectTimeoutMs?: number;
}

export async function openPostgres(url: string, poolSize = 10, opts: PostgresOptions = {}): Promise<Db> {
  const pg = await loadPg();
  // A refused or reset connection fails fast on its own, but a server that accepts and never answers (hung, or a
  // network dropping packets) would leave every request waiting for ever: each new connection gets a bounded time
  // to open. Set on the client, not the pool: the pool's connectionTimeoutMillis also bounds the wait for a free
  // pooled client, which would turn load into errors.
  const connectTimeoutMs = opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const lost = new Set<(err: Error) => void>();
  let connectionsLost = 0;
  const connectionLost = (err: Error) => {
    connectionsLost++;
    for (const fn of lost) fn(err);
  };
  class TimedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: connectTimeoutMs });
      // A connection that ends under a client (a failover, a proxy restarted, a network path dropped: the socket
      // closes with no word from the server; or pg_terminate_backend) is emitted as 'error' on the client. The pool
      // listens only while the client is idle: checked out (a transaction between two statements, a statement in
      // flight) nothing did, and the unhandled 'error' event ended the process. Handled here, for every
      // client in every role: the statement in flight (or the next one: the client is no longer queryable) fails
      // with the connection error, which becomes 503 `unavailable`, and the client is discarded on release.
      this.on('error', connectionLost);
    }
  }
  const pool = new pg.Pool({ connectionString: url, max: poolSize, keepAlive: true, Client: TimedClient });
  pool.on('error', () => {
    /* an idle client's connection ended: the pool has dropped it already (counted by the client's own listener) */
  });
  const client = await pool.connect();
  client.release();
  const send = (c: pg.Pool | pg.PoolClient, sql: string, params?: unknown[], opts?: QueryOptions) =>
    // a named statement is prepared once per connection (pg keeps the names it prepared on each client)
    (opts?.name ? c.query({ name: opts.name, text: sql, values: params as unknown[] }) : c.query(sql, params as unknown[])).catch(
      mapConnectionError,
    );
  const wrap = (c: pg.Pool | pg.PoolClient, inTx: boolean): Queryable => ({
    async query<T>(sql: string, params?: unknown[], opts?: QueryOptions) {
      if (opts?.jit === false || opts?.genericPlan) {
        // SET LOCAL lasts to the end of the transaction: outside one, the statement gets its own
        if (!inTx) return tx((q) => q.query<T>(sql, params, opts));
        const set = [
          opts.jit === false ? 'SET LOCAL jit = off' : '',
          opts.genericPlan ? 'SET LOCAL plan_cache_mode = force_generic_plan' : '',
        ];
        await c.query(set.filter(Boolean).join('; ')).catch(mapConnectionError);
      }
      return (await send(c, sql, params, opts)).rows as T[];
    },
    // a transaction's own client: COPY runs on it, between its other statements
    ...(inTx
      ? { copyFrom: (sql: string, data: string | Uint8Array) => copyFromText(c as pg.PoolClient, sql, data).catch(mapConnectionError) }
      : {}),
  });
  async function tx<T>(fn: (q: Queryable) => Promise<T>) {
    const c = await pool.connect().catch(mapConnectionError);
    let broken = false;
    try {
      await c.query('BEGIN');
      const out = await fn(wrap(c, true));
      await c.query('COMMIT');
      return out;
    } catch (e) {
      broken = isConnectionError(e) || (e instanceof AppError && e.code === 'unavailable');
      if (!broken) await c.query('ROLLBACK').catch(() => undefined);
      mapConnectionError(e);
    } finally {
      // A client whose connection broke is destroyed rather than returned to the pool.
      c.release(broken || undefined);
    }
  }
  return withBackgroundLane(
    {
      kind: 'postgres',
      ...wrap(pool, false),
      tx,
      async exec(sql: string) {
        await pool.query(sql).catch(mapConnectionError);
      },
      async close() {
        await pool.end();
      },
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, lost: connectionsLost }),
      onConnectionLost(fn: (err: Error) => void) {
        lost.add(fn);
        return () => void lost.delete(fn);
      },
    },
    { limit: Math.max(1, Math.floor(poolSize / 4)) },
  );
}

export function wrapPglite(db: PGlite): Db {
  return withBackgroundLane(
    {
      kind: 'pglite',
      async query<T>(sql: string, params?: unknown[]) {
        const r = await db.query<T>(sql, params as unknown[]);
        return r.rows;
      },
      tx<T>(fn: (q: Queryable) => Promise<T>) {
        return db.transaction(async (t) =>
          fn({
            async query<R>(sql: string, params?: unknown[]) {
              return (await t.query<R>(sql, params as unknown[])).rows;
            },
          }),
        );
      },
      async exec(sql: string) {
        await db.exec(sql);
      },
      async close() {
        if (!db.closed) await db.close();
      },
    },
    { limit: 1 },
  );
}

export async function openPglite(dataDir: string | null, loadDataDir?: Blob): Promise<Db> {
  let dir: string | undefined;
  let unlock = () => {};
  if (dataDir) {
    dir = path.resolve(dataDir, 'pgdata');
    mkdirSync(dir, { recursive: true });
    // one process per embedded directory (refused with DataDirLocked while another holds it)
    unlock = lockDataDir(path.resolve(dataDir));
  }
  let db: PGlite;
  try {
    // a new directory (or memory) starts from the build's template when there is one: a directory has the migrated
    // one (or the initdb one) written into place, memory gets the initdb tarball
    if (!loadDataDir && !(dir && existsSync(path.join(dir, 'PG_VERSION')))) {
      if (!dir || !(await restoreTemplate(dir))) loadDataDir = initdbTemplate();
    }
    db = await PGlite.create(dir, { startParams: PGLITE_START_PARAMS, ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (e) {
    unlock();
    throw e;
  }
  const wrapped = wrapPglite(db);
  const close = wrapped.close;
  return {
    ...wrapped,
    async close() {
      try {
        await close();
      } finally {
        unlock();
      }
    },
  };
}

/** DATABASE_URL decides: postgres://... a server, pglite://memory in memory, unset PGlite in the data dir. */
export async function openDatabase(databaseUrl: string | null, dataDir: string): Promise<Db> {
  if (databaseUrl?.startsWith('postgres')) return openPostgres(databaseUrl);
  if (databaseUrl === 'pglite://memory') return openPglite(null);
  return openPglite(dataDir);
}
