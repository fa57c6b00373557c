// SQL for sanctions lists and their entries. Every method takes an optional transaction handle.
import type { Db, Queryable } from '../../platform/db/types.js';
import type { ListFormat, SdnEntry } from './parse/index.js';
import { entityNameOf } from './parse/index.js';

export interface ListRow {
  id: string;
  version: number;
  source: string;
  /** snapshot: the file shipped in data/sanctions, loaded when no list was imported */
  format: ListFormat | 'snapshot';
  publishedAt: Date;
  entryCount: number;
  fileSha256: string;
  fileBytes: number;
  fileName: string | null;
  importedBy: string;
  importedAt: Date;
  recomputeDoneAt: Date | null;
  recomputedCount: number | null;
}

export type NewList = Pick<ListRow, 'format' | 'publishedAt' | 'entryCount' | 'fileSha256' | 'fileBytes' | 'fileName' | 'importedBy'>;

const LIST_COLUMNS = `id, version, source, format, published_at AS "publishedAt", entry_count AS "entryCount",
  file_sha256 AS "fileSha256", file_bytes AS "fileBytes", file_name AS "fileName", imported_by AS "importedBy",
  imported_at AS "importedAt", recompute_done_at AS "recomputeDoneAt", recomputed_count AS "recomputedCount"`;

/** Rows per INSERT statement (5 parameters each, well under the 65,535 limit). */
const BATCH = 2000;

export function createSanctionsRepo(db: Db) {
  return {
    /** Serializes imports across instances until the transaction ends. */
    async lockImports(q: Queryable) {
      await q.query('SELECT pg_advisory_xact_lock(727275)');
    },

    async latestVersion(q: Queryable = db): Promise<number> {
      const rows = await q.query<{ v: number | null }>('SELECT max(version) AS v FROM sanctions_lists');
      return rows[0]?.v ?? 0;
    },

    async latest(q: Queryable = db): Promise<ListRow | null> {
      const rows = await q.query<ListRow>(`SELECT ${LIST_COLUMNS} FROM sanctions_lists ORDER BY version DESC LIMIT 1`);
      return rows[0] ?? null;
    },

    async byId(id: string, q: Queryable = db): Promise<ListRow | null> {
      const rows = await q.query<ListRow>(`SELECT ${LIST_COLUMNS} FROM sanctions_lists WHERE id = $1`, [id]);
      return rows[0] ?? null;
    },

    async recent(limit: number, q: Queryable = db): Promise<ListRow[]> {
      return q.query<ListRow>(`SELECT ${LIST_COLUMNS} FROM sanctions_lists ORDER BY version DESC LIMIT $1`, [limit]);
    },

    async entries(listId: string, q: Queryable = db): Promise<{ address: string; entityName: string }[]> {
      return q.query(`SELECT address, entity_name AS "entityName" FROM sanctions_entries WHERE list_id = $1`, [listId]);
    },

    async insertList(q: Queryable, l: NewList): Promise<ListRow> {
      const rows = await q.query<ListRow>(
        `INSERT INTO sanctions_lists (version, format, published_at, entry_count, file_sha256, file_bytes, file_name, imported_by)
         SELECT COALESCE(max(version), 0) + 1, $1, $2, $3, $4, $5, $6, $7 FROM sanctions_lists
         RETURNING ${LIST_COLUMNS}`,
        [l.format, l.publishedAt, l.entryCount, l.fileSha256, l.fileBytes, l.fileName, l.importedBy],
      );
      return rows[0];
    },

    async insertEntries(q: Queryable, listId: string, entries: Iterable<SdnEntry>) {
      let values: string[] = [];
      let params: unknown[] = [];
      const flush = async () => {
        if (!values.length) return;
        await q.query(
          `INSERT INTO sanctions_entries (list_id, address, entity_name, currencies, sdn_ids) VALUES ${values.join(',')}`,
          params,
        );
        values = [];
        params = [];
      };
      for (const e of entries) {
        const n = params.length;
        values.push(`($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5})`);
        params.push(listId, e.address, entityNameOf(e), e.currencies.join(','), e.sdnIds.join(','));
        if (values.length >= BATCH) await flush();
      }
      await flush();
    },

    /** Takes a 15-minute lease on the oldest list whose status changes are not yet pushed to scores. */
    async claimPendingRecompute(): Promise<{ id: string; version: number } | null> {
      const rows = await db.query<{ id: string; version: number }>(
        `UPDATE sanctions_lists SET recompute_claimed_until = now() + interval '15 minutes'
         WHERE id = (SELECT id FROM sanctions_lists
                     WHERE recompute_done_at IS NULL AND (recompute_claimed_until IS NULL OR recompute_claimed_until < now())
                     ORDER BY version LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING id, version`,
      );
      return rows[0] ?? null;
    },

    /** Gives the lease back (shutdown mid-way): another worker takes the list over at once. */
    async releaseRecompute(id: string) {
      await db.query('UPDATE sanctions_lists SET recompute_claimed_until = NULL WHERE id = $1 AND recompute_done_at IS NULL', [id]);
    },

    async finishRecompute(id: string, count: number) {
      await db.query('UPDATE sanctions_lists SET recompute_done_at = now(), recomputed_count = $2 WHERE id = $1', [id, count]);
    },

    /** Addresses added or removed by this version against the version before it (all of them for the first list). */
    async changedAddresses(listId: string, version: number): Promise<string[]> {
      const rows = await db.query<{ address: string }>(
        `WITH prev AS (SELECT id FROM sanctions_lists WHERE version < $2 ORDER BY version DESC LIMIT 1),
              cur AS (SELECT address FROM sanctions_entries WHERE list_id = $1),
              old AS (SELECT address FROM sanctions_entries WHERE list_id = (SELECT id FROM prev))
         (SELECT address FROM cur EXCEPT SELECT address FROM old)
         UNION
         (SELECT address FROM old EXCEPT SELECT address FROM cur)
         ORDER BY address`,
        [listId, version],
      );
      return rows.map((r) => r.address);
    },
  };
}

export type SanctionsRepo = ReturnType<typeof createSanctionsRepo>;
