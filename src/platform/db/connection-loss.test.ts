// Connections cut under the pool: a TCP proxy between the pool and the suite's PostgreSQL closes every
// established connection with no goodbye from the server (a failover, a PgBouncer restart, a network path
// dropped), or the server ends every session itself (pg_terminate_backend). Whatever the client was doing (idle
// in the pool, checked out in a transaction between two statements, running a statement), the process must not
// die of it, the caller gets 503 `unavailable`, and the next call gets a fresh connection. PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { eventually } from '../../../test/helpers/app.js';
import { databaseUrlOf, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.js';
import { AppError } from '../errors.js';
import { openPostgres, type Db } from './index.js';

const enabled = usingPostgres();

const isUnavailable = (e: unknown) => e instanceof AppError && e.code === 'unavailable' && e.extra.headers?.['Retry-After'] === 5;

describe.skipIf(!enabled)('PostgreSQL connections cut under the pool', () => {
  let proxy: TcpProxy;
  let db: Db;
  let admin: pg.Client;
  let dbName: string;

  beforeAll(async () => {
    const own = await testDatabase();
    const url = databaseUrlOf(own)!;
    await own.close();
    dbName = new URL(url).pathname.slice(1);
    const u = new URL(url);
    proxy = await startTcpProxy(u.hostname, Number(u.port) || 5432);
    db = await openPostgres(proxy.url(url), 4);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });
  afterAll(async () => {
    await db?.close();
    await admin?.end();
    await proxy?.close();
  });

  const terminateAll = async () =>
    (await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]))
      .rowCount;

  /** A transaction holding its client between two statements while `cut` happens. */
  async function cutInTransaction(cut: () => Promise<unknown> | unknown) {
    let inside!: () => void;
    const reached = new Promise<void>((r) => (inside = r));
    let go!: () => void;
    const proceed = new Promise<void>((r) => (go = r));
    const t = db.tx(async (q) => {
      await q.query('SELECT 1');
      inside();
      await proceed;
      return q.query('SELECT 2 AS two');
    });
    const outcome = t.then(
      () => 'committed',
      (e) => e,
    );
    await reached;
    await cut();
    go();
    const e = await outcome;
    expect(isUnavailable(e), String(e)).toBe(true);
  }

  const one = async () => expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);

  it('a transaction cut at the network between two statements gets 503 unavailable; the next query succeeds', async () => {
    const lostBefore = db.pool!().lost;
    await cutInTransaction(() => expect(proxy.drop()).toBeGreaterThan(0));
    await one();
    expect(db.pool!().lost).toBeGreaterThan(lostBefore);
  });

  it('a transaction whose session the server terminates between two statements gets 503 unavailable; the next query succeeds', async () => {
    await cutInTransaction(async () => expect(await terminateAll()).toBeGreaterThan(0));
    await one();
  });

  it('a statement in flight when its connection is cut gets 503 at once, not after it would have finished', async () => {
    for (const [i, cut] of [() => proxy.drop(), terminateAll].entries()) {
      // a statement text of its own per round (a cut at the network leaves the server's backend sleeping on)
      const sql = `SELECT pg_sleep(20), ${i} AS round`;
      const started = Date.now();
      const slow = db.query(sql).then(
        () => 'answered',
        (e) => e,
      );
      const inTx = db
        .tx((q) => q.query(sql))
        .then(
          () => 'answered',
          (e) => e,
        );
      await eventually(async () => {
        const [r] = await admin
          .query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query = $2 AND state = 'active'`, [dbName, sql])
          .then((x) => x.rows);
        return r.n === 2;
      });
      await cut();
      for (const e of [await slow, await inTx]) expect(isUnavailable(e), `round ${i}: ${String(e)}`).toBe(true);
      expect(Date.now() - started).toBeLessThan(15_000);
      await one();
    }
  });

  it('idle pooled connections cut at the network are discarded: the next queries get fresh ones, with no error', async () => {
    // fill the pool with idle connections
    await Promise.all(Array.from({ length: 4 }, () => db.query('SELECT pg_sleep(0.05)')));
    expect(db.pool!().idle).toBe(4);
    expect(proxy.drop()).toBe(4);
    // the pool hears each close on its own and drops the client (no query needed to find out)
    await eventually(() => db.pool!().total === 0);
    for (let i = 0; i < 8; i++) await one();
    await Promise.all(Array.from({ length: 4 }, one));
  });

  it('idle pooled sessions the server terminates are discarded the same way', async () => {
    await Promise.all(Array.from({ length: 4 }, () => db.query('SELECT pg_sleep(0.05)')));
    expect(await terminateAll()).toBe(4);
    await eventually(() => db.pool!().total === 0);
    for (let i = 0; i < 8; i++) await one();
  });

  it('cuts during concurrent reads and writes: each call succeeds or gets 503 unavailable, never another error', async () => {
    await db.query('CREATE TABLE IF NOT EXISTS cut_probe (id serial PRIMARY KEY, v int NOT NULL)');
    const outcomes = { ok: 0, unavailable: 0 };
    let stop = false;
    const lane = async (i: number) => {
      for (let n = 0; !stop; n++) {
        try {
          if (n % 2) await db.query('SELECT count(*) FROM cut_probe');
          else
            await db.tx(async (q) => {
              await q.query('INSERT INTO cut_probe (v) VALUES ($1)', [i]);
              await q.query('SELECT pg_sleep(0.005)');
              await q.query('UPDATE cut_probe SET v = v + 1 WHERE v = $1', [i]);
            });
          outcomes.ok++;
        } catch (e) {
          if (!isUnavailable(e)) throw e;
          outcomes.unavailable++;
        }
      }
    };
    const lanes = Promise.all(Array.from({ length: 6 }, (_, i) => lane(i)));
    for (const cut of [() => proxy.drop(), terminateAll, () => proxy.drop(), terminateAll]) {
      const before = outcomes.ok;
      await eventually(() => outcomes.ok > before + 10);
      await cut();
    }
    const before = outcomes.ok;
    await eventually(() => outcomes.ok > before + 20);
    stop = true;
    await lanes;
    expect(outcomes.unavailable).toBeGreaterThan(0);
    await one();
  });
});
