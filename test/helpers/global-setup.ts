// Builds one migrated database per run; every test database starts from it (PGlite dump or PostgreSQL template).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { PGlite } from '@electric-sql/pglite';
import { wrapPglite } from '../../src/platform/db/index.js';
import { migrate } from '../../src/platform/db/migrate.js';
import { openPostgres } from '../../src/platform/db/index.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteDump: string;
    pgTemplate: string | null;
    pgAdminUrl: string | null;
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-test-'));
  const lite = await PGlite.create();
  await migrate(wrapPglite(lite));
  const dump = await lite.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await lite.close();
  project.provide('pgliteDump', file);

  const pgUrl = process.env.CREDENCE_TEST_DATABASE_URL || null;
  project.provide('pgAdminUrl', pgUrl);
  project.provide('pgTemplate', null);
  if (!pgUrl) return;
  const template = `credence_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const url = new URL(pgUrl);
  url.pathname = `/${template}`;
  const db = await openPostgres(url.toString(), 1);
  await migrate(db);
  await db.close();
  project.provide('pgTemplate', template);
  return async () => {
    // Drop every database this run made from the template, then the template.
    const rows = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `credence_t_${process.pid}_%`,
    ]);
    for (const r of rows.rows) await admin.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`).catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  };
}
