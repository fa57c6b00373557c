// A fresh, migrated database for one test app: PGlite from the run's dump, or a PostgreSQL database
// created from the run's template when CREDENCE_TEST_DATABASE_URL is set.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { openPostgres, wrapPglite, type Db } from '../../src/platform/db/index.js';

let dump: Blob | null = null;

export const usingPostgres = () => inject('pgTemplate') !== null;

export async function testDatabase(): Promise<Db> {
  const template = inject('pgTemplate');
  if (!template) {
    dump ??= new Blob([readFileSync(inject('pgliteDump'))]);
    return wrapPglite(await PGlite.create({ loadDataDir: dump }));
  }
  const adminUrl = inject('pgAdminUrl')!;
  const name = `credence_t_${template.split('_').pop()}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return openPostgres(url.toString(), 5);
}
