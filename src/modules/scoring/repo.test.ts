// The scores upsert sends its rows as array literals built in upsert-arrays.ts: every value, however awkward, must
// come back from the database exactly as it went in, on PGlite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers/db.js';
import type { Db } from '../../platform/db/index.js';
import { createScoresRepo, type ScoreRow } from './repo.js';
import { plainArray, textArray } from './upsert-arrays.js';

const AWKWARD = ['', 'NULL', 'null', 'a,b', '{x}', 'say "hi"', 'back\\slash', ' spaced ', 'tab\there', 'line\nbreak', 'é ✓ 💡', "it's"];

let db: Db;
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(() => db.close());

describe('array literals', () => {
  it('text comes back as it went in, nulls as nulls', async () => {
    const values = [...AWKWARD, null, '0xabc', 'DEFI_LENDING', '4.1.0'];
    const [r] = await db.query<{ v: (string | null)[] }>('SELECT $1::text[] AS v', [textArray(values, (v) => v)]);
    expect(r.v).toEqual(values);
  });

  it('numbers (with Infinity and NaN) and timestamps', async () => {
    const nums = [0, -0, 1.5, -2, 0.1 + 0.2, 1e21, Number.MAX_VALUE, Infinity, -Infinity, NaN, null];
    const [r] = await db.query<{ v: (number | null)[] }>('SELECT $1::float8[] AS v', [plainArray(nums, (v) => v)]);
    expect(r.v.map((x) => (x === null ? null : Number(x)))).toEqual(nums.map((x) => (Object.is(x, -0) ? 0 : x)));
    const at = new Date('2026-11-29T02:40:01.123Z').toISOString();
    const [t] = await db.query<{ v: Date[] }>('SELECT $1::timestamptz[] AS v', [plainArray([at, null], (v) => v)]);
    expect(t.v.map((d) => d && new Date(d).toISOString())).toEqual([at, null]);
  });
});

const row = (address: string, over: Partial<ScoreRow> = {}): ScoreRow => ({
  address,
  category: 'DEFI_LENDING',
  score: 512,
  model_score: 530,
  confidence: 0.392,
  decay_anchor: new Date('2026-10-04T14:36:35.829Z'),
  factors: [{ code: 'INTEREST_PAID', impact: 29, description: 'paid $41 of interest on its "loans" \\ ✓' }],
  inputs_key: 'bf3865f573d9654f',
  offchain_key: '',
  offchain_at: null,
  last_activity_at: new Date('2026-10-04T14:36:35.829Z'),
  override_score: null,
  override_inputs_key: null,
  override_dispute_id: null,
  override_claim_points: null,
  model_version: '4.1.0',
  calculated_at: new Date('2026-11-29T02:36:52.575Z'),
  conduct: 540,
  backing_usd: 1234.5,
  ...over,
});

describe('scores upsert', () => {
  it('stores every column as given, and a second upsert replaces the row', async () => {
    const repo = createScoresRepo(db);
    const a = '0x' + '1'.repeat(40);
    const b = '0x' + '2'.repeat(40);
    const rows = [
      row(a),
      row(a, { category: 'OVERALL', factors: [], offchain_key: 'say "hi", {x}', backing_usd: null, conduct: null, decay_anchor: null }),
      row(b, {
        confidence: 1,
        override_score: 700,
        override_inputs_key: 'NULL',
        override_dispute_id: '6f1c2a4e-0000-4000-8000-000000000001',
        override_claim_points: -12.25,
        offchain_at: new Date('2026-11-01T00:00:00.000Z'),
        backing_usd: Infinity,
      }),
    ];
    await db.tx((q) => repo.upsert(q, rows));
    await db.tx((q) => repo.upsert(q, [row(a, { score: 100, factors: [{ code: 'X', impact: -1, description: AWKWARD.join('|') }] })]));
    const stored = await db.query<ScoreRow>(`SELECT * FROM scores WHERE address = ANY($1::text[]) ORDER BY address, category`, [[a, b]]);
    const expected = [row(a, { score: 100, factors: [{ code: 'X', impact: -1, description: AWKWARD.join('|') }] }), rows[1], rows[2]];
    expect(
      stored.map(({ ...r }) => ({
        ...r,
        confidence: Number(r.confidence),
        backing_usd: r.backing_usd === null ? null : Number(r.backing_usd),
        override_claim_points: r.override_claim_points === null ? null : Number(r.override_claim_points),
      })),
    ).toEqual(expected);
  });
});
