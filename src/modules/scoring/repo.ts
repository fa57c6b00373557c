// SQL for stored scores and their change history. Every method takes an optional transaction handle.
import { prepared, type Queryable } from '../../platform/db/types.js';
import type { Category, Factor, ScoreChange } from './contracts.js';
import { SCORE_FEED_LOCK, type ChangeRaw } from './changes-repo.js';

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
  /** the model's conduct score before the backing ceiling (null: stored by a model before 4.0.0) */
  conduct: number | null;
  /** USD backing the category (null: a verification category, or stored before 4.0.0) */
  backing_usd: number | null;
}

const COLUMNS =
  'address, category, score, model_score, confidence, decay_anchor, factors, inputs_key, offchain_key, offchain_at, ' +
  'last_activity_at, override_score, override_inputs_key, override_dispute_id, model_version, calculated_at, override_claim_points, conduct, backing_usd';

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

export function createScoresRepo(db: Queryable) {
  return {
    /** Every stored category of these wallets, locked for update when inside a transaction. */
    async lockRows(q: Queryable, addresses: string[]): Promise<ScoreRow[]> {
      return q.query<ScoreRow>(`SELECT ${COLUMNS} FROM scores WHERE address = ANY($1::text[]) FOR UPDATE`, [addresses]);
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
      const col = <K extends keyof ScoreRow>(k: K) => rows.map((r) => r[k]);
      const dates = (k: 'decay_anchor' | 'offchain_at' | 'last_activity_at' | 'calculated_at') => rows.map((r) => iso(r[k]));
      await q.query(
        `INSERT INTO scores (${COLUMNS})
         SELECT a, c, s, ms, conf, da, f::jsonb, ik, ok, oa, la, os, oik, odi, mv, ca, ocp, cd, bu
         FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::float8[], $6::timestamptz[], $7::text[], $8::text[],
                     $9::text[], $10::timestamptz[], $11::timestamptz[], $12::int[], $13::text[], $14::text[], $15::text[], $16::timestamptz[],
                     $17::float8[], $18::int[], $19::float8[])
           AS t(a, c, s, ms, conf, da, f, ik, ok, oa, la, os, oik, odi, mv, ca, ocp, cd, bu)
         ON CONFLICT (address, category) DO UPDATE SET
           score = excluded.score, model_score = excluded.model_score, confidence = excluded.confidence,
           decay_anchor = excluded.decay_anchor, factors = excluded.factors, inputs_key = excluded.inputs_key,
           offchain_key = excluded.offchain_key, offchain_at = excluded.offchain_at, last_activity_at = excluded.last_activity_at,
           override_score = excluded.override_score, override_inputs_key = excluded.override_inputs_key,
           override_dispute_id = excluded.override_dispute_id, model_version = excluded.model_version, calculated_at = excluded.calculated_at,
           override_claim_points = excluded.override_claim_points, conduct = excluded.conduct, backing_usd = excluded.backing_usd`,
        [
          col('address'),
          col('category'),
          col('score'),
          col('model_score'),
          col('confidence'),
          dates('decay_anchor'),
          rows.map((r) => JSON.stringify(r.factors)),
          col('inputs_key'),
          col('offchain_key'),
          dates('offchain_at'),
          dates('last_activity_at'),
          col('override_score'),
          col('override_inputs_key'),
          col('override_dispute_id'),
          col('model_version'),
          dates('calculated_at'),
          col('override_claim_points'),
          col('conduct'),
          col('backing_usd'),
        ],
      );
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
      return rows.map((r) => ({
        address: r.address,
        category: r.category,
        oldScore: r.old_score,
        newScore: r.new_score,
        confidence: r.confidence,
        tier: r.tier,
        cause: r.cause,
        modelVersion: r.model_version,
        calculatedAt: r.calculated_at,
      }));
    },
  };
}

export type ScoresRepo = ReturnType<typeof createScoresRepo>;
