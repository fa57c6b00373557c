// A key of one environment with a sign-in of the other is refused with a clear 401, on every kind
// of route (API-key, JWT, public) and in both directions; each credential alone, or a matching pair, still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { createKey, createTestApp, createTestModeKey, randomAddress, siweSigned, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../http/types.js';

let app: App;
let liveKey: TestKey;
let testKey: TestKey;
let liveToken: Record<string, string>;
let testToken: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp();
  liveKey = await createKey(app, 'Free');
  testKey = await createTestModeKey(app);
  const signInAs = async (environment: 'live' | 'test') => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify',
      payload: { ...(await siweSigned(app, Wallet.createRandom())), environment },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { authorization: `Bearer ${res.json().token}` };
  };
  liveToken = await signInAs('live');
  testToken = await signInAs('test');
});
afterAll(() => app.close());

const wallet = randomAddress();
const routes = [
  ['API-key route', 'GET', `/api/v1/reputation/${wallet}/GOVERNANCE`],
  ['JWT route', 'GET', '/api/v1/billing/api-keys'],
  ['public route', 'GET', `/api/v1/debt-claims/debtor/${wallet}`],
] as const;

describe('mixed environments', () => {
  for (const [kind, method, url] of routes) {
    it(`${kind}: a live key with a test token, and a test key with a live token, get 401 naming both`, async () => {
      const a = await app.inject({ method, url, headers: { ...liveKey.headers, ...testToken } });
      expect(a.statusCode, a.body).toBe(401);
      expect(a.json()).toEqual({
        error: 'unauthorized',
        details: expect.stringContaining(
          'Mixed environments: the API key is a live key (cred_live_...) but the bearer token was signed in for the test environment',
        ),
      });
      const b = await app.inject({ method, url, headers: { ...testKey.headers, ...liveToken } });
      expect(b.statusCode, b.body).toBe(401);
      expect(b.json().details).toContain(
        'the API key is a test key (cred_test_...) but the bearer token was signed in for the live environment',
      );
    });
  }

  it('matching pairs and single credentials still work: a live key with a live token reads live scores, a test pair sandbox ones', async () => {
    const live = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${wallet}/GOVERNANCE`,
      headers: { ...liveKey.headers, ...liveToken },
    });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json().modelVersion).not.toMatch(/-sandbox$/);
    const test = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${wallet}/GOVERNANCE`,
      headers: { ...testKey.headers, ...testToken },
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(test.json().modelVersion).toMatch(/-sandbox$/);
    expect((await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}/GOVERNANCE`, headers: liveKey.headers })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/debtor/${wallet}`, headers: testToken })).statusCode).toBe(200);
  });
});
