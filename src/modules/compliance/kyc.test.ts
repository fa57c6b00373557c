import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createKey, createTestApp, eventually, randomAddress, signIn, type SignedIn, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { signLocal } from './providers/local.js';
import { createKycRepo } from './repo.js';

const DEFAULT = '<provider_default>';
const ALT = '<provider_alt>';
const SECRET = 'kyc-test-secret';

let app: App;
let key: TestKey;

beforeAll(async () => {
  app = await createTestApp({ config: { kycCallbackSecret: SECRET, publicUrl: 'https://credence.test' } });
  key = await createKey(app, 'Enterprise');
});
afterAll(async () => {
  await app?.close();
});

async function ownerWithDid(chainId = 1): Promise<SignedIn & { did: string }> {
  const owner = await signIn(app);
  const res = await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address, chainId } });
  return { ...owner, did: res.json().did };
}
const initiate = (payload: unknown, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers, payload: payload as object });
const status = (did: string) => app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/${did}/status`, headers: key.headers });
function callback(provider: string, body: object, signature: string | null = signLocal(SECRET, JSON.stringify(body))) {
  return app.inject({
    method: 'POST',
    url: `/api/v1/compliance/kyc/callback/${encodeURIComponent(provider)}`,
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-credence-kyc-signature': signature } : {}) },
    payload: JSON.stringify(body),
  });
}

describe('POST /compliance/kyc/initiate', () => {
  it('opens a session with the default provider on the built-in page', async () => {
    const owner = await ownerWithDid();
    const res = await initiate({ did: owner.did }, owner.auth);
    expect(res.statusCode).toBe(200);
    const s = res.json();
    expect(s).toEqual({
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      provider: DEFAULT,
      redirectUrl: `https://credence.test/api/v1/compliance/kyc/local/${s.sessionId}`,
      sessionUrl: s.redirectUrl,
      expiresIn: 3600,
      expiresAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(s.expiresAt) - Date.now() - 3600_000)).toBeLessThan(10_000);
    const st = await status(owner.did);
    expect(st.statusCode).toBe(200);
    expect(st.json()).toMatchObject({
      did: owner.did,
      kycLevel: 'none',
      status: 'pending',
      sessionId: s.sessionId,
      provider: DEFAULT,
      reason: null,
    });
    // Any accepted spelling of the DID reaches the same record.
    expect((await status(`did:credence:${owner.address}`)).json().sessionId).toBe(s.sessionId);

    const alt = await initiate({ did: `did:credence:${owner.address.toLowerCase()}`, provider: ALT }, owner.auth);
    expect(alt.statusCode).toBe(200);
    expect(alt.json().provider).toBe(ALT);
    // The newer session replaces the older pending one.
    expect((await status(owner.did)).json().sessionId).toBe(alt.json().sessionId);
    const stale = await callback(DEFAULT, { eventId: randomUUID(), sessionId: s.sessionId, status: 'approved', birthDate: '1990-01-01' });
    expect(stale.statusCode).toBe(409);
  });

  it('accepts exactly the two provider strings and a DID of at most 200 characters in the DID format', async () => {
    const owner = await ownerWithDid();
    for (const provider of ['provider_default', '<PROVIDER_DEFAULT>', ' <provider_default>', '<provider_alt> ', '', 'onfido', 42]) {
      const res = await initiate({ did: owner.did, provider }, owner.auth);
      expect(res.statusCode, String(provider)).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain('provider');
    }
    for (const did of ['', 'did:credence:0x123', `did:ethr:${owner.address}`, `${owner.did}${'0'.repeat(170)}`, 'x'.repeat(201)]) {
      const res = await initiate({ did }, owner.auth);
      expect(res.statusCode, did.slice(0, 40)).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain('did');
    }
    expect((await initiate({}, owner.auth)).json().fields).toContainEqual({ field: 'did', message: 'is required' });
  });

  it('needs a JWT, a registered DID and its owner', async () => {
    const owner = await ownerWithDid();
    expect((await initiate({ did: owner.did }, {})).statusCode).toBe(401);
    expect((await initiate({ did: owner.did }, { authorization: 'Bearer x.y.z' })).statusCode).toBe(401);
    const stranger = await signIn(app);
    const forbidden = await initiate({ did: owner.did }, stranger.auth);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('forbidden');
    const unknown = await initiate({ did: `did:credence:1:${stranger.address.toLowerCase()}` }, stranger.auth);
    expect(unknown.statusCode).toBe(404);
    expect((await status(owner.did)).statusCode).toBe(404); // nothing started
  });
});

describe('GET /compliance/kyc/{did}/status', () => {
  it('404 for unknown DIDs and DIDs without a session, 400 for malformed ones, 401 without a key', async () => {
    const owner = await ownerWithDid();
    const none = await status(owner.did);
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toBe('not_found');
    expect((await status(`did:credence:1:${randomAddress()}`)).statusCode).toBe(404);
    expect((await status('did:credence:nope')).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/${owner.did}/status` })).statusCode).toBe(401);
  });
});

describe('POST /compliance/kyc/callback/{provider}', () => {
  it('approves with a birth date kept only encrypted; a replay is idempotent; a contrary result is refused', async () => {
    const owner = await ownerWithDid();
    const { sessionId } = (await initiate({ did: owner.did, provider: ALT }, owner.auth)).json();
    const body = { eventId: randomUUID(), sessionId, status: 'approved', level: 'full', birthDate: '1990-07-15' };

    // Wrong secret, missing header, tampered body, wrong provider's route: all 401/404 and nothing changes.
    expect((await callback(ALT, body, signLocal('wrong', JSON.stringify(body)))).statusCode).toBe(401);
    expect((await callback(ALT, body, null)).statusCode).toBe(401);
    const sig = signLocal(SECRET, JSON.stringify(body));
    expect((await callback(ALT, { ...body, birthDate: '1980-01-01' }, sig)).statusCode).toBe(401);
    expect((await callback('<provider_other>', body)).statusCode).toBe(404);
    expect((await callback(DEFAULT, body)).statusCode).toBe(404); // the session belongs to the other provider
    expect((await status(owner.did)).json().status).toBe('pending');

    const ok = await callback(ALT, body);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ received: true, sessionId, status: 'approved', duplicate: false });
    expect((await status(owner.did)).json()).toMatchObject({ did: owner.did, status: 'approved', kycLevel: 'full', reason: null });

    const replay = await callback(ALT, body);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, sessionId, status: 'approved', duplicate: true });
    const contrary = await callback(ALT, { ...body, eventId: randomUUID(), status: 'rejected' });
    expect(contrary.statusCode).toBe(409);
    expect((await status(owner.did)).json().status).toBe('approved');

    // Stored encrypted: the plain birth date appears nowhere in the row.
    const [row] = await app.ctx.db.query<Record<string, unknown>>('SELECT * FROM kyc_birth_dates WHERE wallet_address = $1', [
      owner.address.toLowerCase(),
    ]);
    expect(JSON.stringify(row)).not.toMatch(/19900715|1990-07-15/);
    expect(row.birth_date_encrypted).toMatch(/^v1:/);
    expect(app.ctx.cipher.decrypt(row.birth_date_encrypted as string)).toBe('19900715');
    if (app.ctx.services.proofs) {
      // The salted commitment the age circuit checks; the salt is sealed too.
      expect(row.commitment).toMatch(/^\d+$/);
      expect(row.salt_encrypted).toMatch(/^v1:/);
      const rec = await app.ctx.services.kyc!.approvedBirthDate(owner.address);
      expect(rec).toMatchObject({ birthDate: 19900715, commitment: row.commitment });
      expect(rec!.salt).toMatch(/^\d+$/);
    }

    expect(await app.ctx.services.kyc!.kycStatus(owner.address)).toBe('approved');
    expect(await app.ctx.services.compliance!.signalFor(owner.address)).toMatchObject({ kycStatus: 'approved', kycLevel: 'full' });
    const nobody = randomAddress();
    expect(await app.ctx.services.compliance!.signalsForMany!([owner.address, nobody])).toEqual([
      await app.ctx.services.compliance!.signalFor(owner.address),
      await app.ctx.services.compliance!.signalFor(nobody),
    ]);
    // Approved is final for the DID.
    expect((await initiate({ did: owner.did }, owner.auth)).statusCode).toBe(409);
  });

  it('rejects, and validates the callback body', async () => {
    const owner = await ownerWithDid();
    const { sessionId } = (await initiate({ did: owner.did }, owner.auth)).json();
    for (const bad of [
      { eventId: 'e', sessionId, status: 'maybe' },
      { eventId: 'e', sessionId, status: 'approved', birthDate: '1990-02-30' },
      { eventId: 'e', sessionId, status: 'approved', birthDate: '2999-01-01' },
      { eventId: 'e', sessionId, status: 'approved', level: 'gold' },
      { sessionId, status: 'approved' },
    ]) {
      const res = await callback(DEFAULT, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const unsigned = await app.inject({
      method: 'POST',
      url: `/api/v1/compliance/kyc/callback/${encodeURIComponent(DEFAULT)}`,
      headers: { 'content-type': 'application/json' },
      payload: '{bad json',
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await callback(DEFAULT, { eventId: randomUUID(), sessionId: randomUUID(), status: 'approved' })).statusCode).toBe(404);

    const res = await callback(DEFAULT, { eventId: randomUUID(), sessionId, status: 'rejected', reason: 'document unreadable' });
    expect(res.json()).toMatchObject({ status: 'rejected', duplicate: false });
    expect((await status(owner.did)).json()).toMatchObject({ status: 'rejected', kycLevel: 'none', reason: 'document unreadable' });
    expect(await app.ctx.services.kyc!.approvedBirthDate(owner.address)).toBeNull();
    // A rejected person may try again.
    expect((await initiate({ did: owner.did }, owner.auth)).statusCode).toBe(200);
    expect((await status(owner.did)).json().status).toBe('pending');
  });

  it('expires sessions after 3600 s: late results are refused and the status reads rejected (expired)', async () => {
    const owner = await ownerWithDid();
    const { sessionId } = (await initiate({ did: owner.did }, owner.auth)).json();
    // Move the session's clock instead of waiting an hour.
    await app.ctx.db.query(`UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [sessionId]);
    expect((await status(owner.did)).json()).toMatchObject({ status: 'rejected', reason: 'expired', kycLevel: 'none' });
    expect(await app.ctx.services.kyc!.kycStatus(owner.address)).toBe('none');
    const late = await callback(DEFAULT, { eventId: randomUUID(), sessionId, status: 'approved', birthDate: '1990-01-01' });
    expect(late.statusCode).toBe(409);
    expect(late.json().details).toContain('expired');
    // The background sweep's query marks it (and names the wallet to rescore).
    expect(await createKycRepo(app.ctx.db).expireDue()).toContain(owner.address.toLowerCase());
    expect((await app.ctx.db.query<{ status: string }>('SELECT status FROM kyc_sessions WHERE id = $1', [sessionId]))[0].status).toBe(
      'expired',
    );
    expect((await status(owner.did)).json()).toMatchObject({ status: 'rejected', reason: 'expired' });
    // A rejection arriving after expiry is acknowledged and changes nothing.
    const lateReject = await callback(DEFAULT, { eventId: randomUUID(), sessionId, status: 'rejected', reason: 'timeout' });
    expect(lateReject.json()).toMatchObject({ status: 'rejected', duplicate: true });
    expect((await status(owner.did)).json()).toMatchObject({ status: 'rejected', reason: 'expired' });
    const page = await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/local/${sessionId}` });
    expect(page.body).toContain('data-status="expired"');
  });
});

describe('the built-in verification page', () => {
  it('serves a form and records a submitted approval through the signed callback', async () => {
    const owner = await ownerWithDid(10);
    const { sessionId, redirectUrl } = (await initiate({ did: owner.did }, owner.auth)).json();
    const path = new URL(redirectUrl).pathname;
    const page = await app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(sessionId);
    expect(page.body).toContain('name="birthDate"');

    const form = (fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const noDate = await form({ decision: 'approve', birthDate: '' });
    expect(noDate.statusCode).toBe(400);
    expect(noDate.body).toContain('id="error"');
    expect((await status(owner.did)).json().status).toBe('pending');

    const done = await form({ decision: 'approve', birthDate: '2001-03-04', level: 'basic' });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('data-status="approved"');
    expect((await status(owner.did)).json()).toMatchObject({ status: 'approved', kycLevel: 'basic' });
    expect((await app.inject({ method: 'GET', url: path })).body).toContain('data-status="approved"');
    expect((await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/local/${randomUUID()}` })).statusCode).toBe(404);
  });
});

describe('scores follow KYC', () => {
  it('an approval recomputes the wallet and raises its COMPLIANCE score', async () => {
    const scoring = app.ctx.services.scoring!;
    const owner = await ownerWithDid();
    const before = await scoring.getScore(owner.address.toLowerCase(), 'COMPLIANCE');
    const { sessionId } = (await initiate({ did: owner.did }, owner.auth)).json();
    expect(
      (await callback(DEFAULT, { eventId: randomUUID(), sessionId, status: 'approved', level: 'full', birthDate: '1980-01-01' }))
        .statusCode,
    ).toBe(200);
    const after = await eventually(async () => {
      const e = await scoring.getScore(owner.address.toLowerCase(), 'COMPLIANCE');
      return e.score > before.score ? e : null;
    });
    expect(after.score).toBeGreaterThan(before.score);
  });
});

describe('the kyc-session-expiry worker', () => {
  it('marks sessions past their hour expired on its own, once a minute', async () => {
    // Only the interval timers are simulated: the sweep runs when a minute is advanced, everything else is real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const own = await createTestApp({ config: { kycCallbackSecret: SECRET, publicUrl: 'https://credence.test' } });
    try {
      const owner = await signIn(own);
      const { did } = (
        await own.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })
      ).json();
      const { sessionId } = (
        await own.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } })
      ).json();
      const stored = async () =>
        (await own.ctx.db.query<{ status: string }>('SELECT status FROM kyc_sessions WHERE id = $1', [sessionId]))[0].status;
      await own.ctx.db.query(`UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [sessionId]);
      vi.advanceTimersByTime(59_000);
      await new Promise((r) => setTimeout(r, 300));
      expect(await stored()).toBe('pending'); // due, but the sweep has not run yet
      vi.advanceTimersByTime(1_000);
      await eventually(async () => (await stored()) === 'expired');
    } finally {
      vi.useRealTimers();
      await own.close();
    }
  });
});
