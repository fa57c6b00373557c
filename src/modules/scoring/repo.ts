// SQL for stored scores and their change history. Every method takes an optional transaction handle.
import { prepared, type Queryable } from '../../platform/db/types.js';
import type { Category, Factor, ScoreChange } from './contracts.js';
import { SCORE_FEED_LOCK, toChange, type ChangeRaw } from './changes-repo.js';
import { plainArray, textArray } from './upsert-arrays.js';

export interface ScoreRow {
  address: string;
  category: Category;
  score: number;
  model_score: number;
  confidence: number;
  decay_anchor: Date | null;
  factors: Factor[];
  inputs_key: string;
  offchain_key: string;
  offchain_at: Date | null;
  last_activity_at: Date | null;
  override_score: number | null;
  override_inputs_key: string | null;
  override_dispute_id: string | null;
  /** claim points in force when the override was set (plan.ts shifts the override by later claim changes) */
  override_claim_points: number | null;
  model_version: string;
  calculated_at: Date;
  /** the model's conduct score before the backing ceiling (null: stored before the model measured conduct) */
  conduct: number | null;
  /** USD backing the category (null: a verification category, or stored before the model measured backing) */
  backing_usd: number | null;
}

const COLUMNS =
  'address, category, score, model_score, confidence, decay_anchor, factors, inputs_key, offchain_key, offchain_at, ' +
  'last_activity_at, override_score, override_inputs_key, override_dispute_id, model_version, calculated_at, override_claim_points, conduct, backing_usd';

/** What a new score is planned against (plan.ts): the stored row without its factors, which nothing reads back. */
export type StoredRow = Pick<
  ScoreRow,
  | 'address'
  | 'category'
  | 'score'
  | 'offchain_key'
  | 'offchain_at'
  | 'override_score'
  | 'override_inputs_key'
  | 'override_dispute_id'
  | 'override_claim_points'
  | 'model_version'
>;
const STORED_COLUMNS =
  'address, category, score, offchain_key, offchain_at, override_score, override_inputs_key, override_dispute_id, override_claim_points, model_version';

/** Only what a read needs. */
const READ_COLUMNS = 'address, category, score, confidence, decay_anchor, factors, model_version, calculated_at, conduct, backing_usd';
export type ReadRow = Pick<
  ScoreRow,
  | 'address'
  | 'category'
  | 'score'
  | 'confidence'
  | 'decay_anchor'
  | 'factors'
  | 'model_version'
  | 'calculated_at'
  | 'conduct'
  | 'backing_usd'
>;

// readCategory's statement: one array of [address, score, confidence, decay_anchor, model_version, calculated_at,
// conduct, backing_usd(, factors)] per row. Timestamps in JSON are ISO 8601 with the session's offset (Date parses
// them to the same millisecond as the driver's own parser); float8 non-finite values come as strings, hence Number().
type ReadTuple = [string, number, number | string, string | null, string, string, number | null, number | string | null, Factor[]?];
const readCategorySql = (factors: boolean) =>
  `SELECT json_agg(json_build_array(address, score, confidence, decay_anchor, model_version, calculated_at, conduct, backing_usd${factors ? ', factors' : ''}))::text AS j ` +
  'FROM scores WHERE category = $1 AND address = ANY($2::text[])';
const READ_CATEGORY = readCategorySql(false);
const READ_CATEGORY_FULL = readCategorySql(true);
const READ_CATEGORY_NAME = prepared(READ_CATEGORY);
const READ_CATEGORY_FULL_NAME = prepared(READ_CATEGORY_FULL);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

// The upsert's rows as one array per column (PostgreSQL array literals built by upsert-arrays.ts) and the factors as
// one JSON array, zipped back into rows by ROWS FROM. A JSON text of whole rows (json_to_recordset) cost the server
// a hash lookup per field of each of 900 objects, and the driver's own array parameters escape element by element.
const UPSERT = `INSERT INTO scores (${COLUMNS})
  SELECT a, c, s, ms, conf, da, f, ik, ok, oa, la, os, oik, odi, mv, ca, ocp, cd, bu
  FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::int[]), unnest($4::int[]), unnest($5::float8[]),
    unnest($6::timestamptz[]), jsonb_array_elements($7::jsonb), unnest($8::text[]), unnest($9::text[]), unnest($10::timestamptz[]),
    unnest($11::timestamptz[]), unnest($12::int[]), unnest($13::text[]), unnest($14::text[]), unnest($15::text[]),
    unnest($16::timestamptz[]), unnest($17::float8[]), unnest($18::int[]), unnest($19::float8[]))
    AS t(a, c, s, ms, conf, da, f, ik, ok, oa, la, os, oik, odi, mv, ca, ocp, cd, bu)
  ON CONFLICT (address, category) DO UPDATE SET
    score = excluded.score, model_score = excluded.model_score, confidence = excluded.confidence,
    decay_anchor = excluded.decay_anchor, factors = excluded.factors, inputs_key = excluded.inputs_key,
    offchain_key = excluded.offchain_key, offchain_at = excluded.offchain_at, last_activity_at = excluded.last_activity_at,
    override_score = excluded.override_score, override_inputs_key = excluded.override_inputs_key,
    override_dispute_id = excluded.override_dispute_id, model_version = excluded.model_version, calculated_at = excluded.calculated_at,
    override_claim_points = excluded.override_claim_points, conduct = excluded.conduct, backing_usd = excluded.backing_usd`;
const UPSERT_NAME = prepared(UPSERT);

/** The upsert's 19 parameters, in UPSERT's order. */
const upsertParams = (rows: ScoreRow[]): string[] => [
  textArray(rows, (r) => r.address),
  textArray(rows, (r) => r.category),
  plainArray(rows, (r) => r.score),
  plainArray(rows, (r) => r.model_score),
  plainArray(rows, (r) => r.confidence),
  plainArray(rows, (r) => iso(r.decay_anchor)),
  JSON.stringify(rows.map((r) => r.factors)),
  textArray(rows, (r) => r.inputs_key),
  textArray(rows, (r) => r.offchain_key),
  plainArray(rows, (r) => iso(r.offchain_at)),
  plainArray(rows, (r) => iso(r.last_activity_at)),
  plainArray(rows, (r) => r.override_score),
  textArray(rows, (r) => r.override_inputs_key),
  textArray(rows, (r) => r.override_dispute_id),
  textArray(rows, (r) => r.model_version),
  plainArray(rows, (r) => iso(r.calculated_at)),
  plainArray(rows, (r) => r.override_claim_points),
  plainArray(rows, (r) => r.conduct),
  plainArray(rows, (r) => r.backing_usd),
];

export function createScoresRepo(db: Queryable) {
  return {
    /** Every stored category of these wallets, locked for update when inside a transaction. */
    async lockRows(q: Queryable, addresses: string[]): Promise<StoredRow[]> {
      return q.query<StoredRow>(`SELECT ${STORED_COLUMNS} FROM scores WHERE address = ANY($1::text[]) FOR UPDATE`, [addresses]);
    },

    async readWallet(address: string, q: Queryable = db): Promise<ReadRow[]> {
      return q.query<ReadRow>(`SELECT ${READ_COLUMNS} FROM scores WHERE address = $1`, [address]);
    },

    /** One category of many wallets in one round trip. */
    async readCategory(addresses: string[], category: Category, withFactors: boolean, q: Queryable = db): Promise<ReadRow[]> {
      if (addresses.length === 0) return [];
      // The rows come back as one JSON text: a driver decodes each column of each row on its own (on PGlite that
      // was most of a 100-wallet read), one text is one JSON.parse.
      const [r] = await q.query<{ j: string | null }>(
        withFactors ? READ_CATEGORY_FULL : READ_CATEGORY,
        [category, addresses],
        withFactors ? READ_CATEGORY_FULL_NAME : READ_CATEGORY_NAME,
      );
      if (!r?.j) return [];
      const rows = JSON.parse(r.j) as ReadTuple[];
      const out: ReadRow[] = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const t = rows[i];
        out[i] = {
          address: t[0],
          category,
          score: t[1],
          confidence: Number(t[2]),
          decay_anchor: t[3] === null ? null : new Date(t[3]),
          model_version: t[4],
          calculated_at: new Date(t[5]),
          conduct: t[6],
          backing_usd: t[7] === null ? null : Number(t[7]),
          factors: withFactors ? t[8]! : [],
        };
      }
      return out;
    },

    async known(addresses: string[], q: Queryable = db): Promise<string[]> {
      const rows = await q.query<{ address: string }>(
        `SELECT address FROM scores WHERE address = ANY($1::text[]) AND category = 'OVERALL'`,
        [addresses],
      );
      return rows.map((r) => r.address);
    },

    async upsert(q: Queryable, rows: ScoreRow[]): Promise<void> {
      if (rows.length === 0) return;
      await q.query(UPSERT, upsertParams(rows), UPSERT_NAME);
    },

    async insertChanges(q: Queryable, changes: ScoreChange[]): Promise<void> {
      if (changes.length === 0) return;
      // Held to commit: history ids are then handed out in commit order, so a poller of the change feed reading
      // `id > cursor` never skips a change that commits late (see changes-repo.ts).
      await q.query(`SELECT pg_advisory_xact_lock(${SCORE_FEED_LOCK})`);
      await q.query(
        `INSERT INTO score_changes (address, category, old_score, new_score, confidence, tier, cause, model_version, calculated_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::float8[], $6::text[], $7::text[], $8::text[], $9::timestamptz[])`,
        [
          changes.map((c) => c.address),
          changes.map((c) => c.category),
          changes.map((c) => c.oldScore),
          changes.map((c) => c.newScore),
          changes.map((c) => c.confidence),
          changes.map((c) => c.tier),
          changes.map((c) => c.cause),
          changes.map((c) => c.modelVersion),
          changes.map((c) => c.calculatedAt.toISOString()),
        ],
      );
    },

    async history(address: string, q: Queryable = db): Promise<ScoreChange[]> {
      const rows = await q.query<ChangeRaw>(`SELECT * FROM score_changes WHERE address = $1 ORDER BY id`, [address]);
      return rows.map(toChange);
    },
  };
}

export type ScoresRepo = ReturnType<typeof createScoresRepo>;
