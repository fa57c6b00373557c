// Keys and tokens never reach the logs: every request below carries a secret where clients really
// send one, the app logs at trace level into a captured stream, and no secret may appear in it.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createKey, signIn, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { App } from './types.js';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});

let app: App;
beforeAll(async () => {
  app = await buildApp(testConfig({ logLevel: 'trace' }), { db: await testDatabase(), secrets: {}, logStream: sink });
  await app.ready();
});
afterAll(() => app.close());

describe('log redaction', () => {
  it('logs requests, but no API key, JWT, Stripe signature or cookie, wherever they were sent', async () => {
    const user = await signIn(app);
    const key = await createKey(app);
    const secrets = [key.apiKey, user.token, 't=1700000000,v1=5ecre7516nature', 'session=c00k1e5ecret'];
    lines.length = 0;
    // the hub's negotiate with the key in the query string, as browsers send it
    await app.inject({ method: 'POST', url: `/hubs/scores/negotiate?negotiateVersion=1&access_token=${key.apiKey}` });
    await app.inject({ method: 'GET', url: `/api/v1/billing/usage?access_token=${key.apiKey}&x=1`, headers: key.headers });
    await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: { ...key.headers, cookie: 'session=c00k1e5ecret' } });
    await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: user.auth,
      payload: { organizationName: 'Org', contactEmail: 'a@b.co' },
    });
    await app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1700000000,v1=5ecre7516nature' },
      payload: '{}',
    });
    const log = lines.join('');
    expect(log).toContain('/hubs/scores/negotiate');
    expect(log).toContain('access_token=[REDACTED]');
    for (const s of secrets) expect(log).not.toContain(s);
    // the key's distinctive part, in case it was logged cut or encoded
    expect(log).not.toContain(key.apiKey.slice(10, 30));
  });
});
