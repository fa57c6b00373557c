// Claim limits hold for signed-in callers too. The attack: a fresh wallet signed in for every request, 107 claims in
// a burst from one address; before, a JWT skipped the per-IP limit. With CREDENCE_TEST_REDIS_URL set the limiter is
// Redis (shared by every instance), else in-process: the same code path either way (ctx.limiter).
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, randomAddress, signIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { claimBody } from './test-helpers.js';

let app: App;
beforeAll(async () => {
  // the defaults: 30 per minute per IP, 10 per minute per creditor
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('debt claim limits', () => {
  it('a fresh signed-in wallet per request does not get around the per-IP limit: 107 claims, refused after 30', async () => {
    const perIp = app.ctx.config.claimsPerIpPerMinute;
    expect(perIp).toBe(30);
    const debtor = randomAddress();
    // the sign-ins first: on a loaded machine 107 of them take longer than the limiter's one-minute window
    const wallets = [];
    for (let i = 0; i < 107; i++) wallets.push(await signIn(app, Wallet.createRandom()));
    const statuses: number[] = [];
    for (const me of wallets) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/debt-claims',
        payload: claimBody({ creditorAddress: me.address, debtorAddress: debtor }),
        headers: me.auth,
        remoteAddress: '127.0.0.9',
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ error: 'rate_limited' });
        expect(res.json().details).toMatch(/client address/);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(perIp);
    expect(statuses.slice(0, perIp).every((s) => s === 201)).toBe(true);
    expect(statuses.slice(perIp).every((s) => s === 429)).toBe(true);
    const listing = (await app.inject({ url: `/api/v1/debt-claims/debtor/${debtor}` })).json();
    expect(listing.claimCount).toBe(perIp);
  }, 600_000); // 107 sign-ins on a shared machine: a generous deadline, nothing timed

  it('a signed-in creditor is held to its own per-creditor limit from any address', async () => {
    const me = await signIn(app);
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/debt-claims',
        payload: claimBody({ creditorAddress: me.address }),
        headers: me.auth,
        remoteAddress: `127.0.1.${i + 1}`,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 201)).toBe(true);
    expect(codes.slice(10)).toEqual([429, 429]);
  });
});
