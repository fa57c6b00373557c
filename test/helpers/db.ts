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
  const db = await openPostgres(url.toString(), 5);
  urls.set(db, url.toString());
  return db;
}

const urls = new WeakMap<Db, string>();

/** The connection URL of a PostgreSQL test database (for a child-process instance); null on PGlite. */
export const databaseUrlOf = (db: Db): string | null => urls.get(db) ?? null;

/** A database handle whose close() does nothing, so a test can restart the app on the same data. */
export function keepOpen(db: Db): Db & { reallyClose(): Promise<void> } {
  return { ...db, kind: db.kind, query: db.query, tx: db.tx, exec: db.exec, close: async () => undefined, reallyClose: () => db.close() };
}

/** A second connection to the same PostgreSQL test database (two app instances of one deployment). */
export async function secondConnection(db: Db): Promise<Db> {
  const url = urls.get(db);
  if (!url) throw new Error('secondConnection needs a PostgreSQL test database (CREDENCE_TEST_DATABASE_URL)');
  const other = await openPostgres(url, 5);
  urls.set(other, url);
  return other;
}
