// Work cut by a database outage is resumed once the database is back, exactly once: a debt claim's
// debtor recompute, the score follow-up of a new sanctions list, a sanctions import, and the migrations at start.
// The app reaches the suite's PostgreSQL through a killable proxy; the database goes away at the moment the work is
// under way (the scoring service is wrapped to say when it is asked, and the real one then runs against the dead
// connection). PostgreSQL only.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, randomAddress, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';
import { databaseUrlOf, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.js';
import { claimSettled, fileClaim } from '../../modules/debt-claims/test-helpers.js';
import { advancedXml, fileText, type SdnParty } from '../../modules/sanctions/sdn-files.js';
import type { ScoringService } from '../../modules/scoring/contracts.js';
import type { App } from '../http/types.js';
import { openPostgres } from './index.js';
import { migrate } from './migrate.js';
import { isUnavailable } from './unavailable.js';

const enabled = usingPostgres();

describe.skipIf(!enabled)('work in flight through a PostgreSQL outage', () => {
  let proxy: TcpProxy;
  let app: App;
  let admin: SignedIn;
  let url: string;

  beforeAll(async () => {
    const own = await testDatabase();
    url = databaseUrlOf(own)!;
    await own.close();
    const u = new URL(url);
    proxy = await startTcpProxy(u.hostname, Number(u.port) || 5432);
    app = await createTestApp({
      db: await openPostgres(proxy.url(url), 5),
      config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000, claimNoticeHours: 0 },
    });
    admin = await signInAdmin(app);
  });
  afterAll(async () => {
    await proxy?.up();
    await app?.close();
    await proxy?.close();
  });

  /**
   * Wraps the app's scoring: the first recompute of `cause` for one of `wallets` takes the database away (the real
   * recompute then runs against it and fails); every recompute's outcome is recorded per wallet.
   */
  function cutAtFirstRecompute(cause: string, wallets: string[]) {
    const real = app.ctx.services.scoring!;
    const seen = { failed: [] as string[], done: [] as string[], other: [] as unknown[] };
    let cut = false;
    app.ctx.services.scoring = {
      ...real,
      async recompute(address: string, c: Parameters<ScoringService['recompute']>[1]) {
        if (c !== cause || !wallets.includes(address)) return real.recompute(address, c);
        if (!cut) {
          cut = true;
          await proxy.down();
        }
        try {
          const out = await real.recompute(address, c);
          seen.done.push(address);
          return out;
        } catch (e) {
          if (isUnavailable(e)) seen.failed.push(address);
          else seen.other.push(e);
          throw e;
        }
      },
    } as ScoringService;
    return { seen, restore: () => (app.ctx.services.scoring = real) };
  }

  it("a debt claim's debtor recompute cut by the outage runs again once the database is back, once", async () => {
    const debtor = randomAddress();
    await app.ctx.services.scoring!.recompute(debtor, 'ingestion');

    const { seen, restore } = cutAtFirstRecompute('debt_claim', [debtor]);
    try {
      const { claim } = await fileClaim(app, { debtorAddress: debtor }, {}, { settle: false });
      await eventually(() => seen.failed.length > 0, { timeoutMs: 20_000 });
      expect(await app.ctx.db.query('SELECT 1').catch((e) => e)).toSatisfy(isUnavailable);
      await proxy.up();
      await claimSettled(app, claim.id, 30_000);
      expect(seen.other).toEqual([]);
      // the real recompute ran once the database was back, and only once
      expect(seen.done).toEqual([debtor]);
    } finally {
      restore();
    }
  });

  it('a sanctions import cut mid-way imports nothing; sent again it imports once, and its score follow-up, cut too, recomputes each changed wallet once', async () => {
    const wallets = [randomAddress(), randomAddress(), randomAddress()];
    for (const w of wallets) await app.ctx.services.scoring!.recompute(w, 'ingestion');
    const party = (id: number, addrs: string[]): SdnParty => ({
      id,
      name: `ENTRY ${id}`,
      addresses: addrs.map((address) => ({ ticker: 'ETH', address })),
    });
    const publishedAt = new Date('2024-11-01T00:00:00Z');
    // the wallets, and enough other entries that writing them takes a few statements
    const parties = [
      party(1, wallets),
      ...Array.from({ length: 3_000 }, (_, i) => party(100 + i, [`0x${randomBytes(20).toString('hex')}`])),
    ];
    const file = fileText(advancedXml(publishedAt, parties));
    // the test's own reads go straight to the server (the app's pool may hand out a connection the cut just ended)
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    const versions = async () =>
      (await watcher.query<{ n: number }>('SELECT count(*)::int AS n FROM sanctions_lists WHERE published_at = $1', [publishedAt])).rows[0]
        .n;
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/compliance/sanctions/import',
        headers: { 'content-type': 'application/xml', ...admin.auth },
        payload: file,
      });

    let restore = () => undefined as unknown;
    try {
      // Cut at the network while its entries are being written (the import's transaction open on the server).
      const dbName = new URL(url).pathname.slice(1);
      const first = send();
      await eventually(
        async () => {
          const r = await watcher.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'INSERT INTO sanctions_entries%' AND state = 'active'`,
            [dbName],
          );
          return (r.rowCount ?? 0) > 0;
        },
        { timeoutMs: 30_000, intervalMs: 2 },
      );
      expect(proxy.drop()).toBeGreaterThan(0);
      const cut = await first;
      expect(cut.statusCode, cut.body).toBe(503);
      expect(cut.json().error).toBe('unavailable');
      expect(cut.headers['retry-after']).toBe('5');
      expect(await versions()).toBe(0);

      // Sent again: imported once. Its follow-up (the listed wallets' scores) meets an outage at its first recompute.
      const cutting = cutAtFirstRecompute('sanctions', wallets);
      restore = cutting.restore;
      const { seen } = cutting;
      const again = await send();
      expect(again.statusCode, again.body).toBe(201);
      const listId = again.json().list.id as string;
      expect(await versions()).toBe(1);
      await eventually(() => seen.failed.length > 0, { timeoutMs: 20_000 });
      await proxy.up();
      const done = await eventually(
        async () => {
          const [l] = (
            await watcher.query<{ done: boolean; count: number | null }>(
              'SELECT recompute_done_at IS NOT NULL AS done, recomputed_count AS count FROM sanctions_lists WHERE id = $1',
              [listId],
            )
          ).rows;
          return l?.done ? l : null;
        },
        { timeoutMs: 30_000 },
      );
      expect(done.count).toBe(wallets.length);
      expect(seen.other).toEqual([]);
      expect([...seen.done].sort()).toEqual([...wallets].sort());
      for (const w of wallets) expect((await app.ctx.services.scoring!.getScore(w, 'COMPLIANCE', { explain: false })).score).toBe(0);
      // A third time: the same file is the list in force.
      const third = await send();
      expect(third.statusCode, third.body).toBe(200);
      expect(third.json().status).toBe('unchanged');
      expect(await versions()).toBe(1);
    } finally {
      restore();
      await watcher.end();
    }
  });

  it('migrations at start cut mid-way are run again whole, each applied once', async () => {
    const admin2 = new pg.Client({ connectionString: url });
    await admin2.connect();
    const name = `credence_mig_${Math.random().toString(36).slice(2, 10)}`;
    try {
      await admin2.query(`CREATE DATABASE ${name}`);
      const target = new URL(url);
      target.pathname = `/${name}`;
      const dir = mkdtempSync(path.join(tmpdir(), 'credence-mig-'));
      writeFileSync(path.join(dir, '0001_a.sql'), 'CREATE TABLE cut_a (id int PRIMARY KEY);');
      writeFileSync(path.join(dir, '0002_slow.sql'), 'SELECT pg_sleep(0.5); CREATE TABLE cut_b (id int PRIMARY KEY);');
      writeFileSync(path.join(dir, '0003_c.sql'), 'INSERT INTO cut_a VALUES (1);');
      const db = await openPostgres(proxy.url(target.toString()), 2);
      try {
        const run = migrate(db, dir);
        let cuts = 0;
        await eventually(
          async () => {
            const r = await admin2.query(
              `SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'SELECT pg_sleep(0.5)%' AND state = 'active'`,
              [name],
            );
            if (r.rowCount && cuts === 0) cuts += proxy.drop();
            return cuts > 0;
          },
          { timeoutMs: 20_000, intervalMs: 5 },
        );
        expect(await run).toEqual(['0001_a', '0002_slow', '0003_c']);
        const applied = await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(applied.map((r) => r.version)).toEqual(['0001_a', '0002_slow', '0003_c']);
        expect(await db.query('SELECT id FROM cut_a')).toEqual([{ id: 1 }]);
        expect(await migrate(db, dir)).toEqual([]);
      } finally {
        await db.close();
      }
    } finally {
      await admin2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin2.end();
    }
  });
});
