// A new, migrated database for one benchmark run: a scratch PostgreSQL database beside DATABASE_URL's (dropped at
// the end), or PGlite in memory. A run on the URL's own database would read the tables earlier runs filled, and get
// slower with each (bench/ingestion.ts went from 2,389 to ~1,560 wallets/s over a few runs that way).
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { openDatabase, type Db } from '../src/platform/db/index.js';
import { migrate } from '../src/platform/db/migrate.js';

export async function scratchDatabase(prefix: string): Promise<{ db: Db; url: string | null; drop: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('postgres')) {
    const db = await openDatabase('pglite://memory', tmpdir());
    await migrate(db);
    return { db, url: null, drop: () => db.close() };
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const db = await openDatabase(u.toString(), tmpdir());
  await migrate(db);
  return {
    db,
    url: u.toString(),
    drop: async () => {
      await db.close();
      await admin.query(`DROP DATABASE ${name}`);
      await admin.end();
    },
  };
}
