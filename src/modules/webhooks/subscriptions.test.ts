import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress } from '../../../test/helpers/app.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

const post = (headers: Record<string, string>, payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/v1/webhooks', headers, payload: payload as object });

describe('POST /api/v1/webhooks', () => {
  it('creates a webhook and returns the secret once', async () => {
    const key = await createKey(app, 'Starter');
    const addr = randomAddress();
    const res = await post(key.headers, { url: 'https://example.com/hooks/credence', walletAddress: addr });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://example.com/hooks/credence',
      walletAddressFilter: toChecksum(addr),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      createdAt: expect.any(String),
    });
    expect(Buffer.from(body.secret.slice(6), 'base64')).toHaveLength(32);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();

    // stored encrypted, never listed
    const [row] = await app.ctx.db.query<{ secret_encrypted: string }>('SELECT secret_encrypted FROM webhook_subscriptions WHERE id = $1', [
      body.id,
    ]);
    expect(row.secret_encrypted).not.toContain(body.secret.slice(6));
    expect(app.ctx.cipher.decrypt(row.secret_encrypted)).toBe(body.secret);
    const one = await app.inject({ method: 'GET', url: `/api/v1/webhooks/${body.id}`, headers: key.headers });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      id: body.id,
      url: body.url,
      walletAddressFilter: toChecksum(addr),
      isActive: true,
      consecutiveFailures: 0,
      lastDeliveryAt: null,
      createdAt: body.createdAt,
    });
    expect(one.body).not.toContain('whsec_');
  });

  it('accepts walletAddressFilter, no filter, and both names when they agree', async () => {
    const key = await createKey(app, 'Growth');
    const addr = randomAddress();
    const a = await post(key.headers, { url: 'http://example.com/a', walletAddressFilter: toChecksum(addr) });
    expect(a.statusCode).toBe(201);
    expect(a.json().walletAddressFilter).toBe(toChecksum(addr));
    const b = await post(key.headers, { url: 'http://example.com/b' });
    expect(b.statusCode).toBe(201);
    expect(b.json().walletAddressFilter).toBeNull();
    const c = await post(key.headers, { url: 'http://example.com/c', walletAddress: addr, walletAddressFilter: toChecksum(addr) });
    expect(c.statusCode).toBe(201);
    const d = await post(key.headers, { url: 'http://example.com/d', walletAddress: addr, walletAddressFilter: randomAddress() });
    expect(d.statusCode).toBe(400);
    expect(d.json().fields).toEqual([{ field: 'walletAddressFilter', message: expect.any(String) }]);
  });

  it('validates url and addresses', async () => {
    const key = await createKey(app, 'Starter');
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://example.com/x' }, 'url'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: `https://example.com/${'a'.repeat(1982)}` }, 'url'],
      [{ url: 'https://example.com/x', walletAddress: '0x123' }, 'walletAddress'],
      [{ url: 'https://example.com/x', walletAddressFilter: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046' }, 'walletAddressFilter'],
      [{ url: 42 }, 'url'],
    ];
    for (const [payload, field] of cases) {
      const res = await post(key.headers, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    // exactly 2,000 characters is fine
    const max = `https://example.com/${'a'.repeat(1980)}`;
    expect(max).toHaveLength(2000);
    expect((await post(key.headers, { url: max })).statusCode).toBe(201);
  });

  it('needs a valid API key, and a paid tier', async () => {
    expect((await post({}, { url: 'https://example.com/x' })).statusCode).toBe(401);
    expect((await post({ 'x-api-key': 'cred_live_nope' }, { url: 'https://example.com/x' })).statusCode).toBe(401);
    const free = await createKey(app, 'Free');
    const res = await post(free.headers, { url: 'https://example.com/x' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', details: expect.stringContaining('Starter') });
  });

  it('enforces the per-tier maximum (Starter 3)', async () => {
    const key = await createKey(app, 'Starter');
    const made = await Promise.all([1, 2, 3, 4, 5].map((i) => post(key.headers, { url: `https://example.com/${i}` })));
    expect(made.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 403, 403]);
    const refused = made.find((r) => r.statusCode === 403)!;
    expect(refused.json().error).toBe('forbidden');
    // deleting one frees a slot
    const id = made.find((r) => r.statusCode === 201)!.json().id;
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${id}`, headers: key.headers })).statusCode).toBe(204);
    expect((await post(key.headers, { url: 'https://example.com/again' })).statusCode).toBe(201);
  });
});

describe('GET / DELETE /api/v1/webhooks', () => {
  it("lists only the caller's webhooks and hides other keys' ones", async () => {
    const mine = await createKey(app, 'Growth');
    const theirs = await createKey(app, 'Growth');
    const a = (await post(mine.headers, { url: 'https://example.com/mine1' })).json();
    const b = (await post(mine.headers, { url: 'https://example.com/mine2', walletAddress: randomAddress() })).json();
    const other = (await post(theirs.headers, { url: 'https://example.com/theirs' })).json();

    const list = await app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: mine.headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().count).toBe(2);
    expect(list.json().webhooks.map((w: { id: string }) => w.id)).toEqual([a.id, b.id]);
    expect(list.json().webhooks[0]).toEqual({
      id: a.id,
      url: 'https://example.com/mine1',
      walletAddressFilter: null,
      isActive: true,
      consecutiveFailures: 0,
      lastDeliveryAt: null,
      createdAt: a.createdAt,
    });
    expect(list.body).not.toContain('secret');

    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${other.id}`, headers: mine.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${other.id}`, headers: mine.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${other.id}/deliveries`, headers: mine.headers })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${other.id}`, headers: theirs.headers })).statusCode).toBe(200);

    const del = await app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${a.id}`, headers: mine.headers });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${a.id}`, headers: mine.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${a.id}`, headers: mine.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: mine.headers })).json().count).toBe(1);
  });

  it('rejects malformed ids and missing keys', async () => {
    const key = await createKey(app, 'Starter');
    const bad = await app.inject({ method: 'GET', url: '/api/v1/webhooks/not-a-guid', headers: key.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('id');
    expect((await app.inject({ method: 'GET', url: '/api/v1/webhooks' })).statusCode).toBe(401);
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/webhooks/00000000-0000-4000-8000-000000000000', headers: key.headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
  });

  it('validates the deliveries limit', async () => {
    const key = await createKey(app, 'Starter');
    const { id } = (await post(key.headers, { url: 'https://example.com/x' })).json();
    const ok = await app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=100`, headers: key.headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ count: 0, deliveries: [], nextCursor: null, hasMore: false });
    for (const limit of ['0', '101', 'x']) {
      const r = await app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=${limit}`, headers: key.headers });
      expect(r.statusCode).toBe(400);
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    expect(doc.paths['/api/v1/webhooks'].post.operationId).toBe('webhooks.createWebhook');
    expect(doc.paths['/api/v1/webhooks'].post.responses['403']).toBeDefined();
    expect(doc.paths['/api/v1/webhooks/{id}'].delete.responses['204']).toBeDefined();
    expect(doc.paths['/api/v1/webhooks/{id}/deliveries'].get.operationId).toBe('webhooks.listDeliveries');
  });
});
