// Reads of the score change log: a wallet's history per category (newest first, paged backwards) and the feed of
// all changes for pollers (oldest first, `after` a cursor). The cursor is the change's id. Ids alone are not commit
// ordered in PostgreSQL (a transaction can take id 10, commit after id 11 was read, and a poller past 11 would skip
// it), so every transaction that writes changes holds SCORE_FEED_LOCK from its insert to its commit: ids are then
// handed out in commit order and `id > cursor` misses nothing.
import type { Queryable } from '../../platform/db/types.js';
import type { Category, ScoreChange } from './contracts.js';

/** pg_advisory_xact_lock key of the change log (an arbitrary constant, distinct from other advisory locks). */
export const SCORE_FEED_LOCK = 7_243_917_001;

/** A stored change (without the coverage it was computed with), its id (the feed's cursor) and when it was stored. */
export interface ChangeRow extends Omit<ScoreChange, 'coverage'> {
  id: string;
  recordedAt: Date;
}

/** A score_changes row as the database returns it. */
export interface ChangeRaw {
  id: string | number;
  address: string;
  category: Category;
  old_score: number | null;
  new_score: number;
  confidence: number;
  tier: string;
  cause: string;
  model_version: string;
  calculated_at: Date;
  created_at: Date;
}

/** The change a row holds (repo.ts reads a wallet's whole history with it). */
export const toChange = (r: ChangeRaw): ScoreChange => ({
  address: r.address,
  category: r.category,
  oldScore: r.old_score,
  newScore: r.new_score,
  confidence: r.confidence,
  tier: r.tier,
  cause: r.cause,
  modelVersion: r.model_version,
  calculatedAt: r.calculated_at,
});

const toRow = (r: ChangeRaw): ChangeRow => ({ id: String(r.id), ...toChange(r), recordedAt: r.created_at });

export interface ScoreChangeLog {
  /** Newest first; `before` is a cursor from an earlier page. Returns one page and whether older ones exist. */
  history(
    address: string,
    category: Category,
    o: { limit: number; before?: string | null },
  ): Promise<{ changes: ChangeRow[]; more: boolean }>;
  /** Oldest first after the cursor (null: from the beginning), optionally one category or one address. */
  feed(o: { after: string | null; limit: number; category?: Category; address?: string }): Promise<{ changes: ChangeRow[]; more: boolean }>;
}

export function createChangeLog(db: Queryable): ScoreChangeLog {
  return {
    async history(address, category, { limit, before }) {
      const rows = await db.query<ChangeRaw>(
        `SELECT * FROM score_changes WHERE address = $1 AND category = $2 AND ($3::bigint IS NULL OR id < $3::bigint)
         ORDER BY id DESC LIMIT $4`,
        [address.toLowerCase(), category, before ?? null, limit + 1],
      );
      return { changes: rows.slice(0, limit).map(toRow), more: rows.length > limit };
    },
    async feed({ after, limit, category, address }) {
      const rows = await db.query<ChangeRaw>(
        `SELECT * FROM score_changes
          WHERE id > $1::bigint AND ($2::text IS NULL OR category = $2) AND ($3::text IS NULL OR address = $3)
          ORDER BY id LIMIT $4`,
        [after ?? '0', category ?? null, address?.toLowerCase() ?? null, limit + 1],
      );
      return { changes: rows.slice(0, limit).map(toRow), more: rows.length > limit };
    },
  };
}
