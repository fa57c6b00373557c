// Quota counters shared through Redis by two instances on one PostgreSQL, configured as the README says: a
// quota of 100 admits at most 100 calls across both (before: 104, each instance counted on its own), and
// /billing/usage reads the same on each; the counts still reach PostgreSQL (write-behind).
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, redisUrl } from '../../../test/helpers/app.js';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { usingPostgres } from '../../../test/helpers/db.js';
import { deploymentSettings } from '../../../test/helpers/deployment.js';
import { apiRoutes, type App } from '../http/types.js';
import { monthOf } from './quota.js';

const enabled = usingPostgres() && !!redisUrl();
let a: App;
let b: App;
const costed = (app: App) =>
  apiRoutes(app, (s) => {
    s.get(
      '/test/query',
      { config: { auth: 'apiKey', cost: 1 }, schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } },
      async () => ({ ok: true }),
    );
  });

beforeAll(async () => {
  if (!enabled) return;
  const [dbA, dbB] = (await sharedPostgresDatabase(2))!;
  const { config } = deploymentSettings();
  a = await createTestApp({ db: dbA, config, beforeReady: costed });
  b = await createTestApp({ db: dbB, config, beforeReady: costed });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe.skipIf(!enabled)('monthly quota across two instances', () => {
  it('a quota of 100 admits at most 100 calls across both; usage reads the same on each', async () => {
    // A Growth key (500 requests/s, so the per-second limit stays out of the way) with 100 queries left.
    const key = await createKey(a, 'Growth');
    await a.ctx.db.query('INSERT INTO api_key_usage (api_key_id, month, query_count) VALUES ($1, $2, 99900)', [
      key.id,
      monthOf(new Date()),
    ]);
    // 160 concurrent calls spread over both instances.
    const calls = Array.from({ length: 160 }, (_, i) =>
      (i % 2 ? a : b).inject({ method: 'GET', url: '/api/v1/test/query', headers: key.headers }),
    );
    const res = await Promise.all(calls);
    const admitted = res.filter((r) => r.statusCode === 200).length;
    const refused = res.filter((r) => r.statusCode === 429);
    expect(admitted).toBe(100);
    expect(refused).toHaveLength(60);
    expect(refused.every((r) => r.json().error === 'quota_exceeded')).toBe(true);
    const ua = (await a.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json();
    const ub = (await b.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json();
    expect(ua.queriesThisMonth).toBe(100_000);
    expect(ub.queriesThisMonth).toBe(100_000);
    expect(ua.remaining).toBe(0);
    // written behind to PostgreSQL by both instances together
    await eventually(
      async () => {
        const [r] = await a.ctx.db.query<{ n: number }>(
          'SELECT query_count::int AS n FROM api_key_usage WHERE api_key_id = $1 AND month = $2',
          [key.id, monthOf(new Date())],
        );
        return r?.n === 100_000;
      },
      { timeoutMs: 30_000 },
    );
  });
});
