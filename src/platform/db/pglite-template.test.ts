// A new embedded data directory is written from the build's template (migrated, else initdb only), streamed to disk:
// the database opens from it, a directory that is not empty is left alone, a damaged archive leaves nothing behind.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type Db } from './index.js';
import { migrate } from './migrate.js';
import { migratedTemplateCurrent, restoreInitdbTemplate, TEMPLATE_FILE } from './pglite-template.js';

const root = mkdtempSync(path.join(tmpdir(), 'credence-template-'));
const opened: Db[] = [];
afterAll(async () => {
  for (const db of opened) await db.close();
});

describe('initdb template restore', () => {
  it('a new data directory opens from the template files written in place, and a restart finds them', async () => {
    expect(existsSync(TEMPLATE_FILE)).toBe(true);
    const dir = path.join(root, 'fresh');
    const db = await openPglite(dir);
    expect(await db.query<{ v: number }>('SELECT 1 AS v')).toEqual([{ v: 1 }]);
    // the build's migrated template holds the migration files there are now: nothing is left to apply
    expect(migratedTemplateCurrent()).toBe(true);
    expect(await migrate(db)).toEqual([]);
    expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations'))[0]!.n).toBeGreaterThan(30);
    await db.exec('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)');
    await db.close();
    expect(existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dir).some((f) => f.endsWith('.restoring'))).toBe(false);
    const again = await openPglite(dir);
    opened.push(again);
    expect(await again.query<{ id: number }>('SELECT id FROM kept')).toEqual([{ id: 7 }]);
  });

  it('a directory with files in it is not written over', async () => {
    const dir = path.join(root, 'busy');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'mine'), 'x');
    expect(await restoreInitdbTemplate(dir)).toBe(false);
    expect(readdirSync(dir)).toEqual(['mine']);
  });

  it('an archive cut short fails and leaves neither the directory nor a half-written copy', async () => {
    const tar = gunzipSync(readFileSync(TEMPLATE_FILE));
    const cut = path.join(root, 'cut.tar.gz');
    writeFileSync(cut, gzipSync(tar.subarray(0, Math.floor(tar.length / 2))));
    copyFileSync(`${TEMPLATE_FILE}.version`, `${cut}.version`);
    const dir = path.join(root, 'cut');
    await expect(restoreInitdbTemplate(dir, cut)).rejects.toThrow(/ends early/);
    expect(readdirSync(root).filter((f) => f.startsWith('cut') && !f.startsWith('cut.tar'))).toEqual([]);
  });
});
