// The age probe: a key asking verify-age with successive minimums learns the exact age (36 true,
// 37 false). Reproduced through HTTP on a real KYC approval and real Groth16 proofs; the allowance now refuses the
// further minimum on every age route, across keys of one owner, across sybil keys, and across instances.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, signIn, type SignedIn, type TestKey } from '../../../test/helpers/app.js';
import { keepOpen, secondConnection, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';
import { signLocal } from './providers/local.js';

const SECRET = 'age-privacy-kyc-secret';

/** A birth date that makes the holder exactly 36 today (UTC): 36 is true, 37 false. */
function birthDateAged(years: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  // born today `years` years ago, minus a day to stay clear of the birthday boundary
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/** A wallet with an approved KYC (through the real initiate + signed provider callback). */
async function approvedHolder(app: App, age: number): Promise<SignedIn> {
  const holder = await signIn(app);
  const { did } = (
    await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: holder.address } })
  ).json();
  const { sessionId } = (
    await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: holder.auth, payload: { did } })
  ).json();
  const body = JSON.stringify({ eventId: randomUUID(), sessionId, status: 'approved', level: 'full', birthDate: birthDateAged(age) });
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/compliance/kyc/callback/${encodeURIComponent('<provider_default>')}`,
    headers: { 'content-type': 'application/json', 'x-credence-kyc-signature': signLocal(SECRET, body) },
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`callback: ${res.statusCode} ${res.body}`);
  return holder;
}

/** A Free key may send 10 requests per second: a fast machine reaches that here, so a 429 waits its Retry-After
 *  and asks again (the per-second limit is another test's subject). */
async function within(send: () => Promise<Awaited<ReturnType<App['inject']>>>) {
  for (;;) {
    const res = await send();
    if (res.statusCode !== 429 || res.json().error !== 'rate_limited') return res;
    await new Promise((r) => setTimeout(r, Number(res.headers['retry-after'] ?? 1) * 1000));
  }
}
const verifyAge = (app: App, key: TestKey, walletAddress: string, minimumAge: number) =>
  within(() =>
    app.inject({ method: 'POST', url: '/api/v1/compliance/verify-age', headers: key.headers, payload: { walletAddress, minimumAge } }),
  );
const ageVerify = (app: App, key: TestKey, walletAddress: string, jurisdictionCode: string, minimumAge?: number) =>
  within(() =>
    app.inject({
      method: 'POST',
      url: '/api/v1/compliance/age-verify',
      headers: key.headers,
      payload: { walletAddress, jurisdictionCode, minimumAge },
    }),
  );
const proveAge = (app: App, key: TestKey, subject: string, minimumAge: number, proofType = 'AgeVerification') =>
  within(() =>
    app.inject({ method: 'POST', url: '/api/v1/reputation/prove', headers: key.headers, payload: { subject, proofType, minimumAge } }),
  );
const ageChecks = (app: App, who: SignedIn | null, query = '') =>
  app.inject({ method: 'GET', url: `/api/v1/compliance/age-checks${query}`, headers: who ? who.auth : {} });

describe('the age probe', () => {
  let app: App;
  let holder: SignedIn;
  let attacker: TestKey;

  beforeAll(async () => {
    app = await createTestApp({ config: { kycCallbackSecret: SECRET, ageCheckWalletMinimums: 4 } });
    holder = await approvedHolder(app, 36);
    attacker = await createKey(app, 'Free');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a Free key gets three distinct minimums, then 403 on the fourth: 36 true is learned, 37 false is not', async () => {
    const w = holder.address;
    expect((await verifyAge(app, attacker, w, 30)).json()).toMatchObject({ verified: true, minimumAge: 30 });
    expect((await verifyAge(app, attacker, w, 40)).json()).toMatchObject({ verified: false, reason: 'under_minimum_age' });
    const at36 = await verifyAge(app, attacker, w, 36);
    expect(at36.json()).toMatchObject({ verified: true, proof: expect.stringMatching(/^0x/) });

    const at37 = await verifyAge(app, attacker, w, 37);
    expect(at37.statusCode).toBe(403);
    expect(at37.json()).toEqual({
      error: 'forbidden',
      details: expect.stringContaining('3 different minimum ages for this wallet in the last 30 days (30, 36, 40)'),
    });
    expect(at37.json().details).toMatch(/exact age/);

    // repeating a minimum already asked reveals nothing new: allowed
    expect((await verifyAge(app, attacker, w, 36)).json()).toMatchObject({ verified: true });
    expect((await verifyAge(app, attacker, w, 40)).json()).toMatchObject({ verified: false });

    // every age route shares the allowance
    expect((await ageVerify(app, attacker, w, 'US-CA', 37)).statusCode).toBe(403);
    expect((await ageVerify(app, attacker, w, 'US-CA')).statusCode).toBe(403); // 21, a new minimum for this key
    expect((await ageVerify(app, attacker, w, 'US-CA', 36)).json()).toMatchObject({ verified: true, minimumAge: 36 });
    const proof37 = await proveAge(app, attacker, w, 37);
    expect(proof37.statusCode).toBe(403);
    expect(proof37.json().error).toBe('forbidden');
    expect((await proveAge(app, attacker, w, 36, 'AgeAboveMinimum')).statusCode).toBe(200);
    expect((await proveAge(app, attacker, w, 40)).statusCode).toBe(422);

    // a refused question counts nothing against the monthly quota
    const used = async () =>
      (await within(() => app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: attacker.headers }))).json().queriesThisMonth;
    const before = await used();
    expect((await verifyAge(app, attacker, w, 37)).statusCode).toBe(403);
    expect(await used()).toBe(before);
  });

  it('another key of the same owner shares the allowance; another wallet is a fresh allowance', async () => {
    const second = await createKey(app, 'Free', attacker.owner);
    expect((await verifyAge(app, second, holder.address, 37)).statusCode).toBe(403);
    expect((await verifyAge(app, second, holder.address, 30)).json().verified).toBe(true);
    const other = await approvedHolder(app, 20);
    for (const m of [18, 19, 21]) expect((await verifyAge(app, attacker, other.address, m)).statusCode).toBe(200);
    expect((await verifyAge(app, attacker, other.address, 20)).statusCode).toBe(403);
  });

  it('sybil keys of fresh wallets cannot go on probing: the wallet-wide cap of unusual minimums', async () => {
    const w = holder.address;
    // 30, 36, 40 are asked; the cap (4 here) leaves one more unusual minimum for everyone together
    const sybil1 = await createKey(app, 'Free');
    expect((await verifyAge(app, sybil1, w, 38)).json()).toMatchObject({ verified: false });
    const sybil2 = await createKey(app, 'Free');
    const at37 = await verifyAge(app, sybil2, w, 37);
    expect(at37.statusCode).toBe(403);
    expect(at37.json().details).toMatch(/by all API keys together/);
    // legal ages and minimums already asked stay available to any key
    expect((await verifyAge(app, sybil2, w, 21)).json()).toMatchObject({ verified: true });
    expect((await verifyAge(app, sybil2, w, 36)).json()).toMatchObject({ verified: true });
  });

  it('the allowance frees up when the window has passed', async () => {
    const key = await createKey(app, 'Free');
    const h = await approvedHolder(app, 50);
    for (const m of [30, 40, 45]) expect((await verifyAge(app, key, h.address, m)).statusCode).toBe(200);
    expect((await verifyAge(app, key, h.address, 55)).statusCode).toBe(403);
    // the oldest question leaves the 30-day window (moved back in the database, as time passing would)
    await app.ctx.db.query(`UPDATE age_checks SET created_at = now() - interval '31 days' WHERE wallet_address = $1 AND minimum_age = 30`, [
      h.address.toLowerCase(),
    ]);
    expect((await verifyAge(app, key, h.address, 55)).json()).toMatchObject({ verified: false });
  });

  it('the holder lists who asked about their age; nobody else sees the list', async () => {
    const res = await ageChecks(app, holder);
    expect(res.statusCode).toBe(200);
    const list = res.json() as {
      apiKeyId: string;
      keyOwner: string;
      minimumAge: number;
      route: string;
      verified: boolean | null;
      askedAt: string;
    }[];
    const byAttacker = list.filter((c) => c.apiKeyId === attacker.id);
    expect(byAttacker.map((c) => c.minimumAge).sort()).toEqual([30, 36, 36, 36, 36, 40, 40, 40].sort());
    expect(byAttacker.every((c) => c.keyOwner === attacker.owner.address)).toBe(true);
    expect(byAttacker.find((c) => c.minimumAge === 40 && c.route === 'prove')).toMatchObject({ verified: false });
    expect(byAttacker.filter((c) => c.route === 'age-verify')).toHaveLength(1);
    expect(list.some((c) => c.minimumAge === 37)).toBe(false); // refused questions were never answered
    expect(Date.parse(list[0].askedAt)).toBeGreaterThanOrEqual(Date.parse(list[list.length - 1].askedAt));
    expect((await ageChecks(app, holder, '?limit=2')).json()).toHaveLength(2);

    expect((await ageChecks(app, await signIn(app))).json()).toEqual([]);
    expect((await ageChecks(app, null)).statusCode).toBe(401);
    for (const q of ['?limit=0', '?limit=1001', '?limit=x']) expect((await ageChecks(app, holder, q)).statusCode, q).toBe(400);
  });
});

describe('across instances', () => {
  it('a key refused on one instance is refused on the other (the allowance is in the database)', async () => {
    const db = await testDatabase();
    const secrets = { 'kyc-callback-secret': SECRET };
    const a = await createTestApp({ db, secrets, config: { kycCallbackSecret: SECRET } });
    // PGlite is one in-process database: the second instance shares the handle; PostgreSQL: its own connection pool
    const b = await createTestApp({
      db: usingPostgres() ? await secondConnection(db) : keepOpen(db),
      secrets,
      config: { kycCallbackSecret: SECRET },
    });
    try {
      const holder = await approvedHolder(a, 36);
      const key = await createKey(a, 'Free');
      expect((await verifyAge(a, key, holder.address, 30)).statusCode).toBe(200);
      expect((await verifyAge(b, key, holder.address, 40)).statusCode).toBe(200);
      expect((await verifyAge(a, key, holder.address, 36)).statusCode).toBe(200);
      expect((await verifyAge(b, key, holder.address, 37)).statusCode).toBe(403);
      expect((await verifyAge(a, key, holder.address, 37)).statusCode).toBe(403);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
