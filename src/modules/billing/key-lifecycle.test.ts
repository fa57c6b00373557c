// API key lifecycle through HTTP: list, revoke (at once, on every instance), rotate with a grace period, expiry,
// last use, and test keys (sandbox scores, no quota).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTestApp,
  eventually,
  randomAddress,
  redisUrl,
  signIn,
  signInAdmin,
  type SignedIn,
} from '../../../test/helpers/app.js';
import { randomBytes } from 'node:crypto';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { usingPostgres } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

const newKey = async (owner: SignedIn, payload: object = {}) => {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/api-keys',
    headers: owner.auth,
    payload: { organizationName: 'Acme Lending', contactEmail: 'ops@acme.example', ...payload },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; apiKey: string; environment: string; monthlyQueryLimit: number | null; expiresAt: string | null };
};
const usage = (key: string) => app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: { 'x-api-key': key } });
const list = (owner: SignedIn) => app.inject({ method: 'GET', url: '/api/v1/billing/api-keys', headers: owner.auth });

describe('GET /billing/api-keys', () => {
  it("lists only the signed-in wallet's keys, newest first, never the key or its hash", async () => {
    const owner = await signIn(app);
    const other = await signIn(app);
    const a = await newKey(owner);
    const b = await newKey(owner, { environment: 'test' });
    await newKey(other);
    const res = await list(owner);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.count).toBe(2);
    expect(body.keys.map((k: { id: string }) => k.id)).toEqual([b.id, a.id]);
    expect(body.keys[1]).toMatchObject({
      keyPrefix: a.apiKey.slice(0, 14),
      environment: 'live',
      tier: 'Free',
      status: 'active',
      lastUsedAt: null,
      expiresAt: null,
      subscription: null,
    });
    expect(body.keys[0]).toMatchObject({ environment: 'test', monthlyQueryLimit: null });
    expect(res.body).not.toContain(a.apiKey);
    expect(res.body).not.toContain('hash');
  });

  it('needs a JWT', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/billing/api-keys' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('unauthorized');
  });

  it('records last use (written behind within seconds)', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    expect((await usage(k.apiKey)).statusCode).toBe(200);
    const seen = await eventually(
      async () => {
        const key = (await list(owner)).json().keys.find((x: { id: string }) => x.id === k.id);
        return key.lastUsedAt;
      },
      { timeoutMs: 30_000, intervalMs: 250 },
    );
    expect(new Date(seen).getTime()).toBeGreaterThan(Date.now() - 120_000);
  });
});

describe('DELETE /billing/api-keys/{id}', () => {
  it('revokes at once (even a key already cached) and is audited', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    expect((await usage(k.apiKey)).statusCode).toBe(200); // now cached in memory
    const del = await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: owner.auth });
    expect(del.statusCode).toBe(204);
    const after = await usage(k.apiKey);
    expect(after.statusCode).toBe(401);
    expect(after.json().error).toBe('unauthorized');
    const listed = (await list(owner)).json().keys.find((x: { id: string }) => x.id === k.id);
    expect(listed.status).toBe('revoked');
    expect(listed.revokedAt).not.toBeNull();
    const audit = await app.ctx.db.query("SELECT * FROM audit_log WHERE action = 'api_key.revoke' AND target = $1", [`api_key:${k.id}`]);
    expect(audit).toHaveLength(1);
    // revoking again is not an error
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: owner.auth })).statusCode).toBe(204);
  });

  it("another wallet cannot revoke someone's key (404), an admin can", async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    const stranger = await signIn(app);
    const res = await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: stranger.auth });
    expect(res.statusCode).toBe(404);
    expect((await usage(k.apiKey)).statusCode).toBe(200);
    const admin = await signInAdmin(app);
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: admin.auth })).statusCode).toBe(204);
    expect((await usage(k.apiKey)).statusCode).toBe(401);
  });

  it('validates the id', async () => {
    const owner = await signIn(app);
    const res = await app.inject({ method: 'DELETE', url: '/api/v1/billing/api-keys/not-a-uuid', headers: owner.auth });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
  });
});

describe('POST /billing/api-keys/{id}/rotate', () => {
  it('issues a new secret for the same key: same quota, the old one works until the grace period ends', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    await app.inject({ method: 'GET', url: `/api/v1/reputation/${randomAddress()}/OVERALL`, headers: { 'x-api-key': k.apiKey } });
    const before = (await usage(k.apiKey)).json().queriesThisMonth;
    expect(before).toBe(1);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/billing/api-keys/${k.id}/rotate`,
      headers: owner.auth,
      payload: { gracePeriodSeconds: 3600 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.id).toBe(k.id);
    expect(r.apiKey).toMatch(/^cred_live_[0-9A-Za-z]{40}$/);
    expect(r.apiKey).not.toBe(k.apiKey);
    expect(new Date(r.previousKeyExpiresAt).getTime()).toBeGreaterThan(Date.now() + 3500_000);
    // both work, and count against one quota (rotation is no way to reset a quota)
    expect((await usage(r.apiKey)).json().queriesThisMonth).toBe(before);
    expect((await usage(k.apiKey)).statusCode).toBe(200);
    // rotating again ends the first secret at once
    const again = await app.inject({ method: 'POST', url: `/api/v1/billing/api-keys/${k.id}/rotate`, headers: owner.auth, payload: {} });
    expect(again.statusCode).toBe(200);
    expect((await usage(k.apiKey)).statusCode).toBe(401);
    expect((await usage(r.apiKey)).statusCode).toBe(200);
    expect((await usage(again.json().apiKey)).statusCode).toBe(200);
  });

  it('a zero grace period ends the old secret now, even where it was cached', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    expect((await usage(k.apiKey)).statusCode).toBe(200);
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/billing/api-keys/${k.id}/rotate`,
      headers: owner.auth,
      payload: { gracePeriodSeconds: 0 },
    });
    expect(res.statusCode).toBe(200);
    expect((await usage(k.apiKey)).statusCode).toBe(401);
    expect((await usage(res.json().apiKey)).statusCode).toBe(200);
  });

  it('refuses revoked keys (409), strangers (404) and bad grace periods (400)', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner);
    const stranger = await signIn(app);
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/billing/api-keys/${k.id}/rotate`, headers: stranger.auth, payload: {} }))
        .statusCode,
    ).toBe(404);
    const bad = await app.inject({
      method: 'POST',
      url: `/api/v1/billing/api-keys/${k.id}/rotate`,
      headers: owner.auth,
      payload: { gracePeriodSeconds: 604_801 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('gracePeriodSeconds');
    await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: owner.auth });
    const revoked = await app.inject({ method: 'POST', url: `/api/v1/billing/api-keys/${k.id}/rotate`, headers: owner.auth, payload: {} });
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json().error).toBe('invalid_state');
  });
});

describe('key expiry', () => {
  it('a key stops working when it expires, also while cached', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner, { expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect(k.expiresAt).not.toBeNull();
    expect((await usage(k.apiKey)).statusCode).toBe(200);
    const expired = await eventually(async () => ((await usage(k.apiKey)).statusCode === 401 ? true : null), {
      timeoutMs: 20_000,
      intervalMs: 200,
    });
    expect(expired).toBe(true);
    expect((await usage(k.apiKey)).json().details).toMatch(/expired|not valid/);
    const listed = (await list(owner)).json().keys.find((x: { id: string }) => x.id === k.id);
    expect(listed.status).toBe('expired');
  });

  it('refuses an expiry in the past', async () => {
    const owner = await signIn(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: owner.auth,
      payload: { organizationName: 'Acme', contactEmail: 'a@acme.example', expiresAt: '2020-01-01T00:00:00Z' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('expiresAt');
  });
});

describe('test keys', () => {
  it('cred_test_ keys read deterministic sandbox scores and count against no quota', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner, { environment: 'test' });
    expect(k.apiKey).toMatch(/^cred_test_[0-9A-Za-z]{40}$/);
    const address = randomAddress();
    const headers = { 'x-api-key': k.apiKey };
    const a = await app.inject({ method: 'GET', url: `/api/v1/reputation/${address}/DEFI_LENDING`, headers });
    const b = await app.inject({ method: 'GET', url: `/api/v1/reputation/${address}/DEFI_LENDING`, headers });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toEqual(b.json());
    expect(a.json().modelVersion).toMatch(/-sandbox$/);
    const profile = await app.inject({ method: 'GET', url: `/api/v1/reputation/${address}`, headers });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().scores.find((s: { category: string }) => s.category === 'DEFI_LENDING').score).toBe(a.json().score);
    // Free-tier quota is 100: 150 calls later the key still answers and counts nothing
    for (let i = 0; i < 150; i += 50) {
      const batch = await app.inject({
        method: 'POST',
        url: '/api/v1/reputation/batch',
        headers,
        payload: { category: 'OVERALL', addresses: Array.from({ length: 50 }, randomAddress) },
      });
      expect(batch.statusCode, batch.body).toBe(200);
    }
    const u = (await usage(k.apiKey)).json();
    expect(u).toMatchObject({ queriesThisMonth: 0, monthlyLimit: null, remaining: null, environment: 'test' });
    // sandbox scores never touch the real store
    expect(await app.ctx.db.query('SELECT 1 FROM scores WHERE address = $1', [address])).toHaveLength(0);
  });

  it('cannot reach counted routes that serve no sandbox data (no free quota through test keys)', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner, { environment: 'test' });
    // (proofs have a sandbox; sanctions screening has none)
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/compliance/sanctions-check',
      headers: { 'x-api-key': k.apiKey },
      payload: { walletAddress: randomAddress() },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: 'forbidden' });
    expect(res.json().details).toMatch(/test key/i);
  });

  it('cannot be upgraded through checkout', async () => {
    const owner = await signIn(app);
    const k = await newKey(owner, { environment: 'test' });
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: { 'x-api-key': k.apiKey },
      payload: { planId: 'starter' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe.skipIf(!(usingPostgres() && redisUrl()))('two instances (PostgreSQL + Redis)', () => {
  it('a key revoked on A is refused on B at once, although B had it cached', async () => {
    const [dbA, dbB] = (await sharedPostgresDatabase(2))!;
    const secrets: Record<string, string> = {};
    const config = { redisPrefix: `credence-test:${randomBytes(6).toString('hex')}:` };
    const a = await createTestApp({ db: dbA, secrets, config });
    const b = await createTestApp({ db: dbB, secrets, config });
    try {
      const k = await createKey(a, 'Free');
      const onB = () => b.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: k.headers });
      expect((await onB()).statusCode).toBe(200);
      const del = await a.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k.id}`, headers: k.owner.auth });
      expect(del.statusCode).toBe(204);
      await eventually(async () => (await onB()).statusCode === 401, { timeoutMs: 10_000 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
