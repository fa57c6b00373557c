// The import's bulk path (the export decoded on a thread of its own; on PostgreSQL its batches COPYed into a staging
// table, then one INSERT ... SELECT in key order, two writers) stores exactly what the plain path does (decoded on
// the importing thread, multi-row INSERTs, one writer): every row of every table the import writes, and the same
// counts, on the real mainnet export and on a generated one whose files repeat their rows (duplicates within a
// batch and across batches) under shifted blocks and renamed hashes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, usingPostgres } from '../../../../test/helpers/db.js';
import type { Db, Queryable } from '../../../platform/db/index.js';
import { createIngestionRepo } from '../repo.js';
import { importEthereumEtl, type EtlImportResult } from './import.js';

const MAINNET = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../../shared/data/ethereum-etl/mainnet-17173049-17173050-json',
);
const KINDS = ['blocks', 'transactions', 'logs', 'token_transfers'];
const rename = (copy: number, hash: string) => createHash('sha256').update(`${copy}:${hash}`).digest('hex');

/** The mainnet export twice under new blocks and hashes, each copy's rows written twice (a repeated export). */
function generated(dir: string) {
  for (const kind of KINDS) {
    const lines = readFileSync(path.join(MAINNET, `${kind}.json`), 'utf8')
      .split('\n')
      .filter(Boolean);
    const out: string[] = [];
    for (const k of [1, 2]) {
      const copy = lines.map((l) =>
        l
          .replace(
            /("(?:hash|transaction_hash|block_hash|parent_hash)": ")(0x[0-9a-f]{64})/g,
            (_, p: string, h: string) => `${p}0x${rename(k, h)}`,
          )
          .replace(/("(?:block_number|number)": )(\d+)/g, (_, p: string, n: string) => `${p}${Number(n) + k * 2}`)
          .replace(/("(?:block_timestamp|timestamp)": )(\d+)/g, (_, p: string, n: string) => `${p}${Number(n) + k * 24}`),
      );
      out.push(...copy, ...(kind === 'blocks' ? [] : copy));
    }
    writeFileSync(path.join(dir, `${kind}.json`), `${out.join('\n')}\n`);
  }
}

/** The same database without COPY: the multi-row statements. */
const withoutCopy = (db: Db): Db => ({ ...db, tx: (fn) => db.tx((q) => fn({ query: q.query.bind(q) } as Queryable)) });

/** Every row the import writes, in one order (times of writing left out). */
async function stored(db: Db) {
  return {
    activity: await db.query(
      `SELECT chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id::text, amount::text,
         direction, protocol, ref, value_usd::text, tx_from FROM wallet_activity ORDER BY chain_id, tx_hash, log_index, wallet, kind`,
    ),
    sync: await db.query(
      'SELECT wallet, chain_id, last_block, nonce, balance::text, deploy_nonce_checked FROM wallet_sync ORDER BY wallet, chain_id',
    ),
    files: await db.query('SELECT file, lines_done, completed_at IS NOT NULL AS completed FROM ingest_import_files ORDER BY file'),
  };
}

const summary = (r: EtlImportResult) => ({ ...r, wallets: [...r.wallets].sort(), files: r.files });

describe('the bulk path stores what the plain path stores', () => {
  const dbs: Db[] = [];
  let gen: string;
  beforeAll(() => {
    gen = mkdtempSync(path.join(tmpdir(), 'credence-etl-bulk-'));
    generated(gen);
  });
  afterAll(async () => {
    rmSync(gen, { recursive: true, force: true });
    for (const db of dbs) await db.close();
  });

  const importInto = async (dir: string, bulk: boolean) => {
    const db = await testDatabase();
    dbs.push(db);
    const target = bulk ? db : withoutCopy(db);
    // small batches: several per file, two writers at once on PostgreSQL, each batch over COPY's minimum of records
    const result = await importEthereumEtl({ db: target, repo: createIngestionRepo(target) }, dir, {
      chainId: 1,
      batchSize: 700,
      writers: bulk ? undefined : 1,
      decodeThread: bulk,
    });
    return { result: summary(result), rows: await stored(db) };
  };

  for (const [name, dir] of [
    ['the mainnet export', () => MAINNET],
    ['a generated export with repeated rows', () => gen],
  ] as const) {
    it(`${name}: every row and count identical${usingPostgres() ? ' (COPY on PostgreSQL)' : ''}`, async () => {
      const bulk = await importInto(dir(), true);
      const reference = await importInto(dir(), false);
      expect(bulk.rows.activity.length).toBeGreaterThan(500);
      expect(bulk.rows).toEqual(reference.rows);
      expect(bulk.result).toEqual(reference.result);
    });
  }
});

describe("PostgreSQL's direct COPY of new rows", () => {
  const dbs: Db[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const db of dbs) await db.close();
  });

  /** The database, with the COPY statements its transactions ran (by target table) counted. */
  const counted = (db: Db) => {
    const copies = { direct: 0, staged: 0, failedDirect: 0 };
    const spied: Db = {
      ...db,
      tx: (fn) =>
        db.tx((q) => {
          if (!q.copyFrom) return fn(q);
          const copyFrom = q.copyFrom.bind(q);
          return fn({
            ...q,
            query: q.query.bind(q),
            copyFrom: async (sql: string, data: string | Uint8Array) => {
              const direct = /^COPY wallet_activity \(/.test(sql);
              try {
                await copyFrom(sql, data);
                if (direct) copies.direct++;
                else copies.staged++;
              } catch (e) {
                if (direct) copies.failedDirect++;
                throw e;
              }
            },
          } as Queryable);
        }),
    };
    return { spied, copies };
  };

  it('a new export goes straight in; the same rows again fail over to the staged INSERT and store nothing twice', async () => {
    const db = await testDatabase();
    dbs.push(db);
    const { spied, copies } = counted(db);
    const run = (dir: string) =>
      importEthereumEtl({ db: spied, repo: createIngestionRepo(spied) }, dir, { chainId: 1, batchSize: 700, decodeThread: true });
    const first = await run(MAINNET);
    const rows = await stored(db);
    expect(first.records).toBe(rows.activity.length);
    if (!usingPostgres()) {
      // PGlite has no COPY: the multi-row statements store every batch
      expect(copies).toEqual({ direct: 0, staged: 0, failedDirect: 0 });
      return;
    }
    // the logs' and transactions' batches straight in; token transfers are filtered against stored logs: staged
    expect(copies.direct).toBeGreaterThan(1);
    expect(copies.failedDirect).toBe(0);
    // the same export under another directory: every batch's rows are stored already
    const again = mkdtempSync(path.join(tmpdir(), 'credence-etl-again-'));
    dirs.push(again);
    for (const kind of KINDS) writeFileSync(path.join(again, `${kind}.json`), readFileSync(path.join(MAINNET, `${kind}.json`)));
    const before = { ...copies };
    const second = await run(again);
    expect(second.records).toBe(0);
    expect((await stored(db)).activity).toEqual(rows.activity);
    // each batch tried straight in failed on a stored row (up to three: then the import stops trying), and the staged
    // INSERT took every batch
    expect(copies.failedDirect).toBe(Math.min(3, before.direct));
    expect(copies.direct).toBe(before.direct);
    expect(copies.staged - before.staged).toBe(before.direct + before.staged);
  });

  it('a batch whose transaction PostgreSQL aborts to break a deadlock is run again and stores what it would have', async () => {
    const db = await testDatabase();
    dbs.push(db);
    let aborted = 0;
    // the first staged INSERT (the statement a deadlock aborts outside the direct COPY's savepoint) fails as a
    // deadlock's victim does: its transaction is rolled back
    const victim: Db = {
      ...db,
      tx: (fn) =>
        db.tx((q) => {
          if (!q.copyFrom || aborted) return fn(q);
          const query = q.query.bind(q);
          return fn({
            ...q,
            query: (async (sql: string, params?: unknown[]) => {
              const rows = await query(sql, params);
              if (/^WITH t AS \(DELETE FROM wallet_activity_stage/.test(sql) && !aborted++)
                throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
              return rows;
            }) as Queryable['query'],
          } as Queryable);
        }),
    };
    const result = await importEthereumEtl({ db: victim, repo: createIngestionRepo(victim) }, MAINNET, {
      chainId: 1,
      batchSize: 700,
      decodeThread: true,
    });
    const reference = await testDatabase();
    dbs.push(reference);
    const plain = withoutCopy(reference);
    const expected = await importEthereumEtl({ db: plain, repo: createIngestionRepo(plain) }, MAINNET, {
      chainId: 1,
      batchSize: 700,
      writers: 1,
      decodeThread: false,
    });
    expect(aborted).toBe(usingPostgres() ? 1 : 0);
    expect(await stored(db)).toEqual(await stored(reference));
    expect(result.records).toBe(expected.records);
  });
});
