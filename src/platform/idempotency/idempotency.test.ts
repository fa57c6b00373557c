// Idempotency-Key: a client retrying a creating POST must not create twice. Through the real routes:
// debt claims (no credentials: scoped per client IP), API keys (JWT subject), webhooks (API key).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createKey, createTestApp, signIn } from '../../../test/helpers/app.js';
import { claimBody } from '../../modules/debt-claims/test-helpers.js';
import type { App } from '../http/types.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp({ config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000 } });
});
afterAll(() => app.close());

const fileClaim = (body: object, key?: string, ip = '127.0.0.1') =>
  app.inject({
    method: 'POST',
    url: '/api/v1/debt-claims',
    payload: body,
    headers: key ? { 'idempotency-key': key } : {},
    remoteAddress: ip,
  });
const claimsOf = async (creditor: string) =>
  (
    await app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM debt_claims WHERE creditor_address = $1', [
      creditor.toLowerCase(),
    ])
  )[0].n;

describe('Idempotency-Key on POST /debt-claims', () => {
  it('a retried POST files one claim and replays the first answer', async () => {
    const body = claimBody();
    const key = randomUUID();
    const first = await fileClaim(body, key);
    expect(first.statusCode).toBe(201);
    const retry = await fileClaim(body, key);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().id).toBe(first.json().id);
    expect(retry.body).toBe(first.body);
    expect(await claimsOf(body.creditorAddress)).toBe(1);
  });

  it('without the header, a retry files a second claim (the header is what makes retries safe)', async () => {
    const body = claimBody();
    expect((await fileClaim(body)).statusCode).toBe(201);
    expect((await fileClaim(body)).statusCode).toBe(201);
    expect(await claimsOf(body.creditorAddress)).toBe(2);
  });

  it('the same key with another body: 422 idempotency_key_reused, nothing filed', async () => {
    const key = randomUUID();
    const body = claimBody();
    expect((await fileClaim(body, key)).statusCode).toBe(201);
    const other = claimBody();
    const res = await fileClaim(other, key);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'idempotency_key_reused', details: expect.any(String) });
    expect(await claimsOf(other.creditorAddress)).toBe(0);
  });

  it('the same body with its keys in another order is the same request', async () => {
    const key = randomUUID();
    const body = claimBody();
    const first = await fileClaim(body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const retry = await fileClaim(reordered, key);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().id).toBe(first.json().id);
  });

  it('concurrent duplicates file one claim: each answer is the claim or 409 idempotency_key_in_use', async () => {
    const key = randomUUID();
    const body = claimBody();
    const all = await Promise.all(Array.from({ length: 8 }, () => fileClaim(body, key)));
    const ids = new Set<string>();
    for (const r of all) {
      if (r.statusCode === 201) ids.add(r.json().id);
      else expect(r.json().error).toBe('idempotency_key_in_use');
    }
    expect(ids.size).toBe(1);
    expect(await claimsOf(body.creditorAddress)).toBe(1);
  });

  it('keys are scoped to the caller: another client IP with the same key files its own claim', async () => {
    const key = randomUUID();
    const body = claimBody();
    const a = await fileClaim(body, key, '127.0.0.2');
    const b = await fileClaim(body, key, '127.0.0.3');
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(b.json().id).not.toBe(a.json().id);
  });

  it('an error answer releases the key: the corrected request then runs', async () => {
    const key = randomUUID();
    const bad = await fileClaim({ ...claimBody(), amount: -1 }, key);
    expect(bad.statusCode).toBe(400);
    const good = await fileClaim(claimBody(), key);
    expect(good.statusCode).toBe(201);
  });

  it('a malformed key: 400 validation_failed naming the header', async () => {
    const res = await fileClaim(claimBody(), 'x'.repeat(300));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toContain('idempotency-key');
  });
});

describe('Idempotency-Key on other creating POSTs', () => {
  it('POST /billing/api-keys: a retry returns the same key (stored encrypted), one key made', async () => {
    const user = await signIn(app);
    const key = randomUUID();
    const create = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/billing/api-keys',
        headers: { ...user.auth, 'idempotency-key': key },
        payload: { organizationName: 'Org', contactEmail: 'a@b.co' },
      });
    const a = await create();
    const b = await create();
    expect(a.statusCode).toBe(201);
    expect(b.json().apiKey).toBe(a.json().apiKey);
    const rows = await app.ctx.db.query<{ response_body: string }>('SELECT response_body FROM idempotency_keys WHERE idem_key = $1', [key]);
    expect(rows[0].response_body).not.toContain(a.json().apiKey);
    // another signed-in wallet with the same key is another scope
    const other = await signIn(app);
    const c = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: { ...other.auth, 'idempotency-key': key },
      payload: { organizationName: 'Org', contactEmail: 'a@b.co' },
    });
    expect(c.json().apiKey).not.toBe(a.json().apiKey);
  });

  it('POST /webhooks: scoped per API key', async () => {
    const k = await createKey(app, 'Growth');
    const key = randomUUID();
    const payload = { url: 'http://127.0.0.1:9/hook', events: ['score.updated'] };
    const a = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { ...k.headers, 'idempotency-key': key }, payload });
    const b = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: { ...k.headers, 'idempotency-key': key }, payload });
    expect(a.statusCode).toBeLessThan(300);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.json().id).toBe(a.json().id);
  });

  it('POST /reputation/batch-jobs and POST /webhooks/{id}/test: a retry makes no second job or test event', async () => {
    const k = await createKey(app, 'Growth');
    const key = randomUUID();
    const body = { addresses: [`0x${randomUUID().replace(/-/g, '').padEnd(40, '0')}`], category: 'OVERALL' };
    const job = () =>
      app.inject({
        method: 'POST',
        url: '/api/v1/reputation/batch-jobs',
        headers: { ...k.headers, 'idempotency-key': key },
        payload: body,
      });
    const j1 = await job();
    const j2 = await job();
    expect(j1.statusCode).toBe(202);
    expect(j2.headers['idempotent-replayed']).toBe('true');
    expect(j2.json().id).toBe(j1.json().id);
    const other = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: { ...k.headers, 'idempotency-key': key },
      payload: { ...body, category: 'NFT' },
    });
    expect(other.statusCode).toBe(422);

    const hook = (
      await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: k.headers, payload: { url: 'http://127.0.0.1:9/hook' } })
    ).json();
    const tkey = randomUUID();
    const t1 = await app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/test`,
      headers: { ...k.headers, 'idempotency-key': tkey },
    });
    const t2 = await app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${hook.id}/test`,
      headers: { ...k.headers, 'idempotency-key': tkey },
    });
    expect(t1.statusCode).toBe(202);
    expect(t2.json().deliveryId).toBe(t1.json().deliveryId);
    const [{ n }] = await app.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE subscription_id = $1 AND body::text LIKE '%webhook.test%'",
      [hook.id],
    );
    expect(n).toBe(1);
  });

  it('the OpenAPI document lists the header and its errors on every idempotent operation', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const expected = [
      ['/api/v1/debt-claims', 'post'],
      ['/api/v1/dispute', 'post'],
      ['/api/v1/webhooks', 'post'],
      ['/api/v1/billing/api-keys', 'post'],
      ['/api/v1/billing/checkout', 'post'],
      ['/api/v1/identity/register', 'post'],
      ['/api/v1/compliance/kyc/initiate', 'post'],
      ['/api/v1/identity/{did}/credentials', 'post'],
      ['/api/v1/reputation/prove', 'post'],
      ['/api/v1/reputation/batch-jobs', 'post'],
      ['/api/v1/webhooks/{id}/replay', 'post'],
      ['/api/v1/webhooks/{id}/test', 'post'],
    ];
    for (const [path, method] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(
        op.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
        `${method} ${path}`,
      ).toBe(true);
      expect(op.responses['422'], `${method} ${path}`).toBeDefined();
    }
  });
});
