// Migrations on a new PostgreSQL database when several instances start at the same moment (compose's two API
// instances and a workers instance): all of them start, the migrations run once.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { usingPostgres } from '../../../test/helpers/db.js';
import { openPostgres } from './index.js';
import { migrate } from './migrate.js';

describe.skipIf(!usingPostgres())('migrate on PostgreSQL', () => {
  it('instances migrating a new database at once all succeed, and each migration is applied once', async () => {
    const adminUrl = inject('pgAdminUrl')!;
    const name = `credence_t_migrate_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openPostgres(url.toString(), 2)));
    try {
      const applied = await Promise.all(dbs.map((db) => migrate(db)));
      const total = applied.reduce((n, a) => n + a.length, 0);
      expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
      const [{ n }] = await dbs[0].query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(n).toBe(total);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
      await admin.query(`DROP DATABASE ${name}`);
      await admin.end();
    }
  });
});
