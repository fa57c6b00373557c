// Local providers are for development: on by default with `npm start`, off when CREDENCE_PUBLIC_URL is
// https or NODE_ENV=production unless CREDENCE_LOCAL_PROVIDERS=true. A local checkout is confirmed only by the
// session's creator (its confirm token, or the creating API key), never by whoever learns the session id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../platform/config.js';
import { createKey, createTestApp, signIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

describe('CREDENCE_LOCAL_PROVIDERS', () => {
  it('on by default, off behind https or in production, forced either way by the setting', () => {
    expect(loadConfig({}).localProviders).toBe(true);
    expect(loadConfig({ CREDENCE_PUBLIC_URL: 'http://localhost:8080' }).localProviders).toBe(true);
    expect(loadConfig({ CREDENCE_PUBLIC_URL: 'https://api.credence.example' }).localProviders).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).localProviders).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', CREDENCE_LOCAL_PROVIDERS: 'true' }).localProviders).toBe(true);
    expect(loadConfig({ CREDENCE_PUBLIC_URL: 'https://api.credence.example', CREDENCE_LOCAL_PROVIDERS: 'true' }).localProviders).toBe(true);
    expect(loadConfig({ CREDENCE_LOCAL_PROVIDERS: 'false' }).localProviders).toBe(false);
    expect(() => loadConfig({ CREDENCE_LOCAL_PROVIDERS: 'maybe' })).toThrow(/CREDENCE_LOCAL_PROVIDERS/);
  });
});

describe('local checkout: only the session creator confirms', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { publicUrl: 'http://credence.test' } });
  });
  afterAll(() => app.close());

  async function start() {
    const key = await createKey(app, 'Free');
    const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId: 'growth' } });
    expect(res.statusCode).toBe(200);
    return { key, url: new URL(res.json().url), sessionId: res.json().sessionId as string };
  }
  const tier = async (headers: Record<string, string>) =>
    (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers })).json().tier;

  it('knowing the session id is not enough: 403, the key stays Free', async () => {
    const { key, url } = await start();
    const res = await app.inject({ method: 'POST', url: `${url.pathname}/confirm`, payload: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'forbidden', details: expect.any(String) });
    const forged = await app.inject({ method: 'POST', url: `${url.pathname}/confirm?token=${'A'.repeat(43)}`, payload: {} });
    expect(forged.statusCode).toBe(403);
    // another customer's API key is not the creator's
    const other = await createKey(app, 'Free');
    expect((await app.inject({ method: 'POST', url: `${url.pathname}/confirm`, headers: other.headers, payload: {} })).statusCode).toBe(
      403,
    );
    expect(await tier(key.headers)).toBe('Free');
  });

  it("the checkout url's token (what the creator got back) confirms; so does the creating key", async () => {
    const a = await start();
    expect(a.url.searchParams.get('token')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const page = await app.inject({ method: 'GET', url: `${a.url.pathname}${a.url.search}` });
    const action = /action="([^"]+)"/.exec(page.body)![1];
    expect(action).toContain(`token=${a.url.searchParams.get('token')}`);
    const ok = await app.inject({ method: 'POST', url: action, payload: {} });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await tier(a.key.headers)).toBe('Growth');
    const b = await start();
    expect((await app.inject({ method: 'POST', url: `${b.url.pathname}/confirm`, headers: b.key.headers, payload: {} })).statusCode).toBe(
      200,
    );
    // a token is bound to its own session
    const c = await start();
    const cross = await app.inject({ method: 'POST', url: `${c.url.pathname}/confirm${a.url.search}`, payload: {} });
    expect(cross.statusCode).toBe(403);
  });
});

describe('local providers off (https public URL, no CREDENCE_LOCAL_PROVIDERS)', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { publicUrl: 'https://api.credence.example', localProviders: false } });
  });
  afterAll(() => app.close());

  it('a Free key cannot upgrade itself through the local checkout: 503, no session', async () => {
    const key = await createKey(app, 'Free');
    const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId: 'growth' } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'unavailable', details: expect.stringContaining('STRIPE_SECRET_KEY') });
    expect(await app.ctx.db.query('SELECT 1 FROM checkout_sessions WHERE api_key_id = $1', [key.id])).toHaveLength(0);
  });

  it('a local checkout session made while they were on can no longer be confirmed', async () => {
    const key = await createKey(app, 'Free');
    await app.ctx.db.query(
      "INSERT INTO checkout_sessions (id, api_key_id, tier, provider, status) VALUES ('cs_local_old', $1, 'Growth', 'local', 'open')",
      [key.id],
    );
    const page = await app.inject({ method: 'GET', url: '/api/v1/billing/checkout/local/cs_local_old' });
    expect(page.statusCode).toBe(404);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout/local/cs_local_old/confirm',
      headers: key.headers,
      payload: {},
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('not_found');
  });

  it('KYC cannot be self-approved: initiate answers 503, the local page is gone (JSON 404)', async () => {
    const owner = await signIn(app);
    const did = (
      await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address, chainId: 1 } })
    ).json().did;
    const res = await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ error: 'unavailable', details: expect.stringContaining('CREDENCE_KYC_DEFAULT_API_URL') });
    const id = '6f1c2f55-5a8e-4d1c-9a55-0d6a3b8f1e20';
    const page = await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/local/${id}` });
    expect(page.statusCode).toBe(404);
    expect(page.json()).toEqual({ error: 'not_found', details: expect.any(String) });
    const submit = await app.inject({
      method: 'POST',
      url: `/api/v1/compliance/kyc/local/${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'decision=approve&birthDate=1990-01-01',
    });
    expect(submit.statusCode).toBe(404);
    expect(submit.json().error).toBe('not_found');
  });
});
