// Migrations on the embedded database run as one script in one transaction: every pending file applies and is
// recorded, a failing file leaves nothing of the run behind, and the next run applies only what is new.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPglite, type Db } from './index.js';
import { migrate } from './migrate.js';

const opened: Db[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-migrations-'));
  for (const [name, sql] of Object.entries(files)) writeFileSync(path.join(dir, name), sql);
  return dir;
}

const tables = async (db: Db) =>
  (await db.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).map((r) => r.t);

describe('migrate on PGlite', () => {
  it('applies every pending file in order and records each; a second run applies only a new one', async () => {
    const db = await openPglite(null);
    opened.push(db);
    const files: Record<string, string> = {
      '0001_a.sql': `CREATE TABLE a (id int PRIMARY KEY);\nINSERT INTO a VALUES (1); -- a comment; with a semicolon`,
      '0002_b.sql': `CREATE TABLE b (id int REFERENCES a (id));\nCREATE FUNCTION f() RETURNS int LANGUAGE sql AS $$ SELECT 1; $$;\n-- last line, no newline`,
    };
    expect(await migrate(db, migrationsDir(files))).toEqual(['0001_a', '0002_b']);
    expect(await tables(db)).toEqual(['a', 'b', 'schema_migrations']);
    expect(await db.query('SELECT f() AS v')).toEqual([{ v: 1 }]);

    files['0003_c.sql'] = 'CREATE TABLE c (id int)';
    expect(await migrate(db, migrationsDir(files))).toEqual(['0003_c']);
    expect((await db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY 1')).map((r) => r.version)).toEqual([
      '0001_a',
      '0002_b',
      '0003_c',
    ]);
  });

  it('a failing file fails the run and leaves nothing of it: not the files before it, not their records', async () => {
    const db = await openPglite(null);
    opened.push(db);
    await migrate(db, migrationsDir({ '0001_a.sql': 'CREATE TABLE a (id int)' }));
    const dir = migrationsDir({
      '0001_a.sql': 'CREATE TABLE a (id int)',
      '0002_b.sql': 'CREATE TABLE b (id int)',
      '0003_bad.sql': 'CREATE TABLE c (id nonsense_type)',
    });
    await expect(migrate(db, dir, { retryForMs: 0 })).rejects.toThrow(/nonsense_type/);
    expect(await tables(db)).toEqual(['a', 'schema_migrations']);
    expect((await db.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version)).toEqual(['0001_a']);
    // the database is usable afterwards (no transaction left open)
    expect(await migrate(db, migrationsDir({ '0001_a.sql': 'CREATE TABLE a (id int)', '0002_b.sql': 'CREATE TABLE b (id int)' }))).toEqual([
      '0002_b',
    ]);
  });
});
