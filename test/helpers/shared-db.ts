// Several connections to ONE fresh PostgreSQL test database (two app instances of one deployment; each app
// closes its own connection). PGlite cannot be shared between instances: null when not on PostgreSQL.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openPostgres, type Db } from '../../src/platform/db/index.js';

export async function sharedPostgresDatabase(connections: number): Promise<Db[] | null> {
  const template = inject('pgTemplate');
  const adminUrl = inject('pgAdminUrl');
  if (!template || !adminUrl) return null;
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
  const out: Db[] = [];
  for (let i = 0; i < connections; i++) out.push(await openPostgres(url.toString(), 5));
  return out;
}
