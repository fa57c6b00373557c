// GET /billing/usage/daily: queries per UTC day against the plan's quota (the console's usage chart), counted by
// the quota store's write-behind into api_key_usage_daily.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createKey, createTestApp, createTestModeKey, signInAdmin } from '../../../test/helpers/app.js';
import { apiRoutes, type App } from '../../platform/http/types.js';
import { createQuotaStore, dayOf } from '../../platform/rate-limit/quota.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp({
    // a costed route stands in for the query-counting routes of the feature modules
    beforeReady: (a) =>
      apiRoutes(a, (s) => {
        s.get(
          '/test/daily-query',
          { config: { auth: 'apiKey', cost: 1 }, schema: { response: { 200: Type.Object({ ok: Type.Boolean() }) } } },
          async () => ({ ok: true }),
        );
      }),
  });
});
afterAll(() => app.close());

const daily = (headers: Record<string, string>, query = '') =>
  app.inject({ method: 'GET', url: `/api/v1/billing/usage/daily${query}`, headers });
const DAY = 86_400_000;

describe('GET /billing/usage/daily', () => {
  it("answers one entry per day, today last, with today's queries and the month's running total against the quota", async () => {
    const key = await createKey(app, 'Free');
    const now = new Date();
    const yesterday = dayOf(new Date(now.getTime() - DAY));
    // an earlier day, stored as the write-behind stores it
    await app.ctx.db.query('INSERT INTO api_key_usage_daily (api_key_id, day, query_count) VALUES ($1, $2, 5)', [key.id, yesterday]);
    for (let i = 0; i < 3; i++) expect((await app.inject({ url: '/api/v1/test/daily-query', headers: key.headers })).statusCode).toBe(200);

    const res = await daily(key.headers);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ monthlyLimit: 100, tier: 'Free', environment: 'live', queriesThisMonth: 3 });
    expect(body.days).toHaveLength(30);
    const today = body.days.at(-1);
    expect(today.date).toBe(dayOf(now));
    expect(today.queries).toBe(3);
    const sameMonth = yesterday.slice(0, 7) === today.date.slice(0, 7);
    expect(today.monthToDate).toBe(sameMonth ? 8 : 3);
    expect(body.days.at(-2)).toEqual({ date: yesterday, queries: 5, monthToDate: 5 });
    // consecutive days, oldest first; the usage route itself counts nothing
    for (let i = 1; i < body.days.length; i++) expect(Date.parse(body.days[i].date) - Date.parse(body.days[i - 1].date)).toBe(DAY);
    expect((await daily(key.headers)).json().days.at(-1).queries).toBe(3);

    // written behind: the stored row holds today's count once, and the answer does not count it twice
    await app.ctx.quota.flush();
    const rows = await app.ctx.db.query<{ query_count: string }>(
      'SELECT query_count FROM api_key_usage_daily WHERE api_key_id = $1 AND day = $2',
      [key.id, dayOf(now)],
    );
    expect(Number(rows[0]?.query_count)).toBe(3);
    expect((await daily(key.headers, '?days=1')).json().days).toEqual([{ date: dayOf(now), queries: 3, monthToDate: today.monthToDate }]);
  });

  it('takes 1 to 90 days, and needs an API key', async () => {
    const key = await createKey(app, 'Free');
    expect((await daily(key.headers, '?days=90')).json().days).toHaveLength(90);
    for (const bad of ['0', '91', 'x']) {
      const res = await daily(key.headers, `?days=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'days' }] });
    }
    expect((await daily({})).statusCode).toBe(401);
    expect((await daily({ 'x-api-key': 'cred_live_nope' })).statusCode).toBe(401);
  });

  it('shows a key its own usage only, and an Enterprise key no limit', async () => {
    const busy = await createKey(app, 'Free');
    for (let i = 0; i < 2; i++) await app.inject({ url: '/api/v1/test/daily-query', headers: busy.headers });
    const other = await createKey(app, 'Enterprise');
    const body = (await daily(other.headers)).json();
    expect(body.monthlyLimit).toBeNull();
    expect(body.days.every((d: { queries: number }) => d.queries === 0)).toBe(true);
  });

  it('a test key reads its own sandbox usage', async () => {
    const admin = await signInAdmin(app);
    const made = await createTestModeKey(app, admin);
    const res = await daily(made.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ environment: 'test' });
  });
});

describe('the daily write-behind', () => {
  it("puts counts on the flush's UTC day, and a late flush of last month's counts on that month's last day", async () => {
    const key = await createKey(app, 'Free');
    let t = Date.parse('2026-01-31T23:59:59.500Z');
    const store = createQuotaStore(app.ctx.db, { now: () => new Date(t), flushMs: 3_600_000 });
    try {
      await store.consume(key.id, null, 2);
      await store.flush();
      await store.consume(key.id, null, 4);
      t = Date.parse('2026-02-01T00:00:00.200Z');
      await store.flush();
      await store.consume(key.id, null, 1);
      await store.flush();
    } finally {
      await store.close();
    }
    const rows = await app.ctx.db.query<{ day: string; query_count: string }>(
      "SELECT to_char(day, 'YYYY-MM-DD') AS day, query_count FROM api_key_usage_daily WHERE api_key_id = $1 ORDER BY day",
      [key.id],
    );
    expect(rows.map((r) => [r.day, Number(r.query_count)])).toEqual([
      ['2026-01-31', 6],
      ['2026-02-01', 1],
    ]);
  });
});
