import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createKey, createTestApp, signIn, signInAdmin } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const post = (headers: Record<string, string>, payload: object) =>
  app.inject({ method: 'POST', url: '/api/v1/billing/api-keys', headers, payload });

describe('POST /billing/api-keys', () => {
  it('creates a Free key for any signed-in wallet, shows it once and stores only its hash', async () => {
    const user = await signIn(app);
    const res = await post(user.auth, { organizationName: 'Acme Lending', contactEmail: 'ops@acme.example' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      tier: 'Free',
      rateLimit: 10,
      monthlyQueryLimit: 100,
      ownerAddress: user.address,
      organizationName: 'Acme Lending',
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.apiKey).toMatch(/^cred_live_[0-9A-Za-z]{32,}$/);
    expect(body.note).toMatch(/store/i);
    expect(new Date(body.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const rows = await app.ctx.db.query<Record<string, unknown>>('SELECT * FROM api_keys WHERE id = $1', [body.id]);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(body.apiKey).digest('hex'));
    expect(JSON.stringify(rows[0])).not.toContain(body.apiKey);
    expect(rows[0].owner_address).toBe(user.address.toLowerCase());
  });

  it('refuses paid tiers to non-admins with a pointer to checkout', async () => {
    const user = await signIn(app);
    const res = await post(user.auth, { organizationName: 'Acme', contactEmail: 'a@acme.example', tier: 'Growth' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect(res.json().details).toContain('/billing/checkout');
  });

  it('lets an admin create any tier; Enterprise is unlimited', async () => {
    const admin = await signInAdmin(app);
    for (const [tier, rate, quota] of [
      ['Starter', 100, 10_000],
      ['Growth', 500, 100_000],
      ['Enterprise', 2000, null],
    ] as const) {
      const res = await post(admin.auth, { organizationName: 'Big Co', contactEmail: 'x@big.example', tier });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ tier, rateLimit: rate, monthlyQueryLimit: quota });
    }
    const audit = await app.ctx.db.query("SELECT * FROM audit_log WHERE action = 'api_key.create' AND actor = $1", [admin.address]);
    expect(audit.length).toBeGreaterThanOrEqual(3);
  });

  it('validates every field and lists each offending one', async () => {
    const user = await signIn(app);
    const res = await post(user.auth, { organizationName: 'A', contactEmail: 'not-an-email', tier: 'Platinum' });
    expect(res.statusCode).toBe(400);
    const fields = res.json().fields.map((f: { field: string }) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['organizationName', 'contactEmail', 'tier']));
    const missing = await post(user.auth, {});
    expect(
      missing
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['contactEmail', 'organizationName']);
    const long = await post(user.auth, { organizationName: 'x'.repeat(201), contactEmail: `${'a'.repeat(310)}@example.com` });
    expect(
      long
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['contactEmail', 'organizationName']);
    const bounds = await post(user.auth, { organizationName: 'ab', contactEmail: `${'a'.repeat(300)}@example.com` });
    expect(bounds.statusCode).toBe(201);
    const top = await post(user.auth, { organizationName: 'x'.repeat(200), contactEmail: 'a@b.co', ignored: true });
    expect(top.statusCode).toBe(201);
  });
});

describe('GET /billing/usage', () => {
  it('reports the quota of the key; Enterprise has null limit and remaining', async () => {
    const free = await createKey(app, 'Free');
    const res = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: free.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ queriesThisMonth: 0, monthlyLimit: 100, remaining: 100, tier: 'Free', rateLimit: 10 });
    const now = new Date();
    expect(body.periodStart).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    expect(body.resetsAt).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    const ent = await createKey(app, 'Enterprise');
    const e = (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: ent.headers })).json();
    expect(e).toMatchObject({ monthlyLimit: null, remaining: null, tier: 'Enterprise', rateLimit: 2000 });
  });

  it('401 without a key or with an unknown one', async () => {
    const none = await app.inject({ method: 'GET', url: '/api/v1/billing/usage' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: 'unauthorized', details: expect.stringContaining('X-API-Key') });
    const bad = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: { 'x-api-key': 'cred_live_' + 'a'.repeat(40) } });
    expect(bad.statusCode).toBe(401);
  });
});
