import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createKey, createTestApp } from '../../../test/helpers/app.js';
import { keepOpen, testDatabase } from '../../../test/helpers/db.js';
import { apiRoutes, type App } from '../http/types.js';
import { errorResponses } from '../openapi.js';
import { createQuotaStore, monthOf, secondsToNextMonth } from './quota.js';

// A costed route stands in for the query-counting routes of the feature modules.
function costedRoutes(app: App) {
  apiRoutes(app, (s) => {
    const ok = { 200: Type.Object({ ok: Type.Boolean() }) };
    s.get('/test/query', { config: { auth: 'apiKey', cost: 1 }, schema: { response: ok } }, async () => ({ ok: true }));
    s.post(
      '/test/batch',
      {
        config: { auth: 'apiKey', cost: (req) => (req.body as { items: unknown[] }).items.length },
        schema: { body: Type.Object({ items: Type.Array(Type.String(), { maxItems: 100 }) }), response: ok },
      },
      async () => ({ ok: true }),
    );
    s.get('/test/fails', { config: { auth: 'apiKey', cost: 1 }, schema: { response: errorResponses(404) } }, async (_req, reply) =>
      reply.code(404).send({ error: 'not_found', details: 'nothing here' }),
    );
  });
}

const usage = async (app: App, headers: Record<string, string>) =>
  (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers })).json();

describe('monthly quota', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ beforeReady: costedRoutes });
  });
  afterAll(() => app.close());

  it('counts queries per the table and refuses the one past the quota with Retry-After to the UTC month reset', async () => {
    const key = await createKey(app, 'Free');
    // 98 queries already used this month
    await app.ctx.db.query('INSERT INTO api_key_usage (api_key_id, month, query_count) VALUES ($1, $2, 98)', [key.id, monthOf(new Date())]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/test/query', headers: key.headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/test/query', headers: key.headers })).statusCode).toBe(200);
    const over = await app.inject({ method: 'GET', url: '/api/v1/test/query', headers: key.headers });
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe('quota_exceeded');
    const retry = Number(over.headers['retry-after']);
    expect(Math.abs(retry - secondsToNextMonth(new Date()))).toBeLessThanOrEqual(2);
    expect(await usage(app, key.headers)).toMatchObject({ queriesThisMonth: 100, remaining: 0 });
  });

  it('refuses a batch larger than what remains, whole, and counts nothing', async () => {
    const key = await createKey(app, 'Free');
    await app.ctx.db.query('INSERT INTO api_key_usage (api_key_id, month, query_count) VALUES ($1, $2, 97)', [key.id, monthOf(new Date())]);
    const big = await app.inject({
      method: 'POST',
      url: '/api/v1/test/batch',
      headers: key.headers,
      payload: { items: ['a', 'b', 'c', 'd'] },
    });
    expect(big.statusCode).toBe(429);
    expect(big.json().error).toBe('quota_exceeded');
    expect((await usage(app, key.headers)).queriesThisMonth).toBe(97);
    const fits = await app.inject({ method: 'POST', url: '/api/v1/test/batch', headers: key.headers, payload: { items: ['a', 'b', 'c'] } });
    expect(fits.statusCode).toBe(200);
    expect((await usage(app, key.headers)).queriesThisMonth).toBe(100);
  });

  it('does not count invalid or failed calls; usage itself counts nothing; Enterprise is unlimited', async () => {
    const key = await createKey(app, 'Free');
    await app.inject({ method: 'POST', url: '/api/v1/test/batch', headers: key.headers, payload: { items: 'nope' } });
    await app.inject({ method: 'GET', url: '/api/v1/test/fails', headers: key.headers });
    await usage(app, key.headers);
    expect((await usage(app, key.headers)).queriesThisMonth).toBe(0);
    const ent = await createKey(app, 'Enterprise');
    await app.ctx.db.query('INSERT INTO api_key_usage (api_key_id, month, query_count) VALUES ($1, $2, 5000000)', [
      ent.id,
      monthOf(new Date()),
    ]);
    expect((await app.inject({ method: 'GET', url: '/api/v1/test/query', headers: ent.headers })).statusCode).toBe(200);
  });
});

describe('durability', () => {
  it('counts survive a restart (written behind, flushed at shutdown)', async () => {
    const db = keepOpen(await testDatabase());
    const secrets = {};
    const first = await createTestApp({ db, secrets, beforeReady: costedRoutes });
    const key = await createKey(first, 'Starter');
    for (let i = 0; i < 7; i++)
      expect((await first.inject({ method: 'GET', url: '/api/v1/test/query', headers: key.headers })).statusCode).toBe(200);
    await first.close();
    const second = await createTestApp({ db, secrets, beforeReady: costedRoutes });
    expect((await usage(second, key.headers)).queriesThisMonth).toBe(7);
    await second.close();
    await db.reallyClose();
  });

  it('flushes at least every second while running', async () => {
    const db = await testDatabase();
    const store = createQuotaStore(db, { flushMs: 50 });
    const id = '00000000-0000-4000-8000-000000000001';
    await store.consume(id, 100, 3);
    let stored = 0;
    for (let i = 0; i < 100 && stored !== 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      stored = Number(
        (await db.query<{ query_count: number }>('SELECT query_count FROM api_key_usage WHERE api_key_id = $1', [id]))[0]?.query_count ?? 0,
      );
    }
    expect(stored).toBe(3);
    await store.close();
    await db.close();
  });

  it('starts a fresh count in a new UTC month', async () => {
    const db = await testDatabase();
    let now = new Date('2026-01-31T23:59:59Z');
    const store = createQuotaStore(db, { now: () => now });
    const id = '00000000-0000-4000-8000-000000000002';
    expect((await store.consume(id, 10, 10)).allowed).toBe(true);
    expect((await store.consume(id, 10, 1)).allowed).toBe(false);
    now = new Date('2026-02-01T00:00:00Z');
    expect((await store.consume(id, 10, 1)).allowed).toBe(true);
    expect(await store.used(id)).toBe(1);
    await store.close();
    const rows = await db.query<{ month: Date; query_count: number }>(
      'SELECT month, query_count FROM api_key_usage WHERE api_key_id = $1 ORDER BY month',
      [id],
    );
    expect(rows.map((r) => Number(r.query_count))).toEqual([10, 1]);
    await db.close();
  });
});
