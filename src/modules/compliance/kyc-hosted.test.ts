// The hosted-provider adapter against a fake provider over real HTTP: session creation with the API key, the
// person sent to the provider's URL, and signed decisions posted back to the callback route.
import { freePort } from '../../../test/helpers/ports.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, signIn, type TestKey } from '../../../test/helpers/app.js';
import { startFakeKycProvider, type FakeKycProvider } from '../../../test/fakes/kyc-provider.js';
import type { App } from '../../platform/http/types.js';

const ALT = '<provider_alt>';

let app: App;
let key: TestKey;
let provider: FakeKycProvider;

beforeAll(async () => {
  provider = await startFakeKycProvider();
  const port = await freePort();
  app = await createTestApp({
    config: {
      publicUrl: `http://127.0.0.1:${port}`,
      kycProviders: { default: null, alt: { apiUrl: provider.url, apiKey: provider.apiKey, webhookSecret: provider.secret } },
    },
  });
  await app.listen({ port, host: '127.0.0.1' });
  key = await createKey(app, 'Enterprise');
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

async function start() {
  const owner = await signIn(app);
  const did = (await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })).json()
    .did;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/compliance/kyc/initiate',
    headers: owner.auth,
    payload: { did, provider: ALT },
  });
  return { owner, did, res };
}
const status = async (did: string) =>
  (await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/${did}/status`, headers: key.headers })).json();

describe('hosted KYC provider', () => {
  it('creates the session at the provider and applies its signed decisions', async () => {
    const { owner, did, res } = await start();
    expect(res.statusCode).toBe(200);
    const s = res.json();
    const remote = [...provider.sessions.values()].find((x) => x.vendorData === s.sessionId)!;
    expect(remote).toBeDefined();
    expect(s).toMatchObject({ provider: ALT, redirectUrl: remote.url, sessionUrl: remote.url, expiresIn: 3600 });
    expect(remote.callback).toBe(`${app.ctx.publicUrl()}/api/v1/compliance/kyc/callback/${encodeURIComponent(ALT)}`);

    // An interim notice is acknowledged and changes nothing; a forged decision is refused.
    expect((await provider.decide(remote.id, 'resubmission_requested')).status).toBe(200);
    expect((await status(did)).status).toBe('pending');
    expect((await provider.decide(remote.id, 'approved', { dateOfBirth: '1985-02-03', signWith: 'not-the-secret' })).status).toBe(401);
    expect((await status(did)).status).toBe('pending');

    const approved = await provider.decide(remote.id, 'approved', { dateOfBirth: '1985-02-03' });
    expect(approved).toEqual({ status: 200, body: { received: true, sessionId: s.sessionId, status: 'approved', duplicate: false } });
    expect(await status(did)).toMatchObject({ status: 'approved', kycLevel: 'full', provider: ALT });
    const rec = await app.ctx.services.kyc!.approvedBirthDate(owner.address);
    if (app.ctx.services.proofs) expect(rec).toMatchObject({ birthDate: 19850203 });
    // The provider's retry of the same decision is harmless.
    expect((await provider.decide(remote.id, 'approved', { dateOfBirth: '1985-02-03' })).body).toMatchObject({ duplicate: true });
  });

  it('maps a decline to rejected with its reason; the default provider stays on the built-in page', async () => {
    const { owner, did, res } = await start();
    const remote = [...provider.sessions.values()].find((x) => x.vendorData === res.json().sessionId)!;
    expect((await provider.decide(remote.id, 'declined', { reason: 'Document expired' })).status).toBe(200);
    expect(await status(did)).toMatchObject({ status: 'rejected', kycLevel: 'none', reason: 'Document expired' });
    const local = await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } });
    expect(local.json().redirectUrl).toBe(`${app.ctx.publicUrl()}/api/v1/compliance/kyc/local/${local.json().sessionId}`);
  });

  it('answers 502 and records nothing when the provider cannot create a session', async () => {
    provider.failCreate = 503;
    try {
      const { did, res } = await start();
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('upstream_unavailable');
      expect((await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/${did}/status`, headers: key.headers })).statusCode).toBe(404);
    } finally {
      provider.failCreate = null;
    }
  });
});
