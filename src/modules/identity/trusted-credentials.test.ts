// The issuer key signs only what the service verified. Everything here goes over a real socket and is
// checked the way a dApp would: did-jwt-vc with a stock did-resolver reading our keyless resolution endpoint, and a
// stock Bitstring Status List check (as status-list.test.ts does it).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ES256KSigner } from 'did-jwt';
import { createVerifiableCredentialJwt, verifyCredential } from 'did-jwt-vc';
import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { Wallet } from 'ethers';
import { createKey, createTestApp, eventually, signIn, signInAdmin, type SignedIn, type TestKey } from '../../../test/helpers/app.js';
import { freePort } from '../../../test/helpers/ports.js';
import type { App } from '../../platform/http/types.js';
import { MIGRATIONS_DIR } from '../../platform/db/migrate.js';
import { signLocal } from '../compliance/providers/local.js';
import { controllerKeyId } from './did.js';
import { signJwt } from './es256k.js';
import { issuerDidOf } from './credentials.js';
import { createIdentityRepo } from './repo.js';
import { createStatusLists } from './status-list.js';
import { backgroundSettled } from '../scoring/background.js';

const KYC_SECRET = 'trusted-credentials-kyc-secret';
const ISSUER_KEY = `0x${'7'.repeat(63)}1`;
const issuerDid = issuerDidOf(ISSUER_KEY);

let app: App;
let base: string;
let key: TestKey;
let resolver: Resolver;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await createTestApp({
    config: { publicUrl: base, didResolverRateLimit: 10_000, kycCallbackSecret: KYC_SECRET, issuerKey: ISSUER_KEY },
  });
  await app.listen({ port, host: '127.0.0.1' });
  key = await createKey(app, 'Enterprise');
  resolver = new Resolver({
    credence: async (did): Promise<DIDResolutionResult> =>
      (await fetch(`${base}/1.0/identifiers/${encodeURIComponent(did)}`)).json() as Promise<DIDResolutionResult>,
  });
});
afterAll(async () => {
  await app?.close();
});

type Holder = SignedIn & { did: string };
async function http(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
}
async function holder(wallet?: Parameters<typeof signIn>[1]): Promise<Holder> {
  const h = await signIn(app, wallet);
  const r = await http('POST', '/identity/register', { walletAddress: h.address });
  expect(r.status).toBe(201);
  return { ...h, did: r.body.did };
}
const issue = (h: Holder, credentialType: string, subject: unknown, extra: object = {}, auth = h.auth) =>
  http(
    'POST',
    `/identity/${h.did}/credentials`,
    { credentialType, subject: typeof subject === 'string' ? subject : JSON.stringify(subject), ...extra },
    auth,
  );
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field);

function birthDateAged(years: number): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate()));
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
async function approveKyc(h: Holder, level: 'basic' | 'full', age: number) {
  const init = await http('POST', '/compliance/kyc/initiate', { did: h.did }, h.auth);
  expect(init.status).toBe(200);
  const body = JSON.stringify({
    eventId: randomUUID(),
    sessionId: init.body.sessionId,
    status: 'approved',
    level,
    birthDate: birthDateAged(age),
  });
  const res = await fetch(`${base}/api/v1/compliance/kyc/callback/${encodeURIComponent('<provider_default>')}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-credence-kyc-signature': signLocal(KYC_SECRET, body) },
    body,
  });
  expect(res.status).toBe(200);
}

interface StatusEntry {
  type: string;
  statusPurpose: string;
  statusListIndex: string;
  statusListCredential: string;
}
/** A stock verifier: did-jwt-vc, then the status list credential fetched keylessly and its bit read. */
async function verifyWithStatus(jwt: string) {
  const verified = await verifyCredential(jwt, resolver);
  const entry = verified.verifiableCredential.credentialStatus as unknown as StatusEntry;
  if (entry?.type !== 'BitstringStatusListEntry') throw new Error('no BitstringStatusListEntry');
  const { verifiableCredential: list } = await verifyCredential(await (await fetch(entry.statusListCredential)).text(), resolver);
  if (list.issuer.id !== verified.verifiableCredential.issuer.id) throw new Error('the status list has another issuer');
  const subject = list.credentialSubject as { encodedList: string };
  const bits = gunzipSync(Buffer.from(subject.encodedList.slice(1), 'base64url'));
  const i = Number(entry.statusListIndex);
  if ((bits[i >> 3] >> (7 - (i & 7))) & 1) throw new Error(`credential revoked (bit ${i} is set)`);
  return verified;
}

describe('the three requests of the issue', () => {
  it('produce no credential signed by the service key with the holder claims at the top level; IDENTITY stays near a fresh wallet', async () => {
    const h = await holder();
    // KYCVerified without a KYC session: refused, nothing signed
    const kyc = await issue(h, 'KYCVerified', { kycLevel: 'full', verifiedBy: 'Credence', sanctioned: false });
    expect(kyc.status).toBe(422);
    expect(kyc.body).toMatchObject({ error: 'proof_unsatisfiable', details: expect.any(String) });
    expect(fieldsOf(kyc.body)).toEqual(['credentialType']);

    const asked = [
      ['CreditScoreCredential', { creditScore: 1000, tier: 'Very High', defaults: 0 }],
      ['AccreditedInvestor', { accredited: true, netWorthUsd: 10000000 }],
    ] as const;
    for (const [type, claims] of asked) {
      const r = await issue(h, type, claims);
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({ credentialType: type, kind: 'holder_assertion', issuerDID: issuerDid });
      const v = await verifyWithStatus(r.body.jwt);
      expect(v.issuer).toBe(issuerDid);
      const vc = v.verifiableCredential;
      expect(vc.type).toEqual(['VerifiableCredential', 'HolderAssertion']);
      expect(vc.type).not.toContain(type);
      // the claims are there only nested, with who asserted them
      expect(Object.keys(vc.credentialSubject).sort()).toEqual(['assertion', 'id']);
      expect(vc.credentialSubject).toEqual({ id: h.did, assertion: { assertedBy: h.did, credentialType: type, claims } });
      for (const k of Object.keys(claims)) expect((vc.credentialSubject as Record<string, unknown>)[k]).toBeUndefined();
    }
    // ...and the service's own verification says what kind it is
    const list = await http('GET', `/identity/${h.did}/credentials`, undefined, h.auth);
    expect(list.body.map((c: { kind: string }) => c.kind)).toEqual(['holder_assertion', 'holder_assertion']);
    const verified = await http('POST', '/identity/credentials/verify', { jwt: list.body[0].jwt });
    expect(verified.body).toMatchObject({ valid: true, kind: 'holder_assertion', issuer: issuerDid });

    // IDENTITY: a wallet that only asked stays within 20 of a fresh wallet
    const scoring = app.ctx.services.scoring!;
    const fresh = await scoring.getScore(Wallet.createRandom().address.toLowerCase(), 'IDENTITY');
    const mine = await eventually(async () => {
      const e = await scoring.getScore(h.address.toLowerCase(), 'IDENTITY', { explain: true });
      return e.factors?.some((f) => f.code === 'DID_REGISTERED') ? e : null;
    });
    expect(Math.abs(mine.score - fresh.score)).toBeLessThanOrEqual(20);
    expect(mine.factors!.map((f) => f.code)).not.toContain('VERIFIABLE_CREDENTIALS');
    expect(await app.ctx.services.identity!.signalFor(h.address)).toMatchObject({ activeCredentials: 0 });
  });
});

describe('service-verified credentials', () => {
  it('KYCVerified after a completed KYC verifies with the service as issuer; contradicting claims are 422; a KYC revocation revokes it and stops age checks', async () => {
    const h = await holder();
    await approveKyc(h, 'basic', 30);

    const contradict = await issue(h, 'KYCVerified', { kycLevel: 'full', sanctioned: false });
    expect(contradict.status).toBe(422);
    expect(fieldsOf(contradict.body).sort()).toEqual(['subject.kycLevel', 'subject.sanctioned']);
    const ok = await issue(h, 'KYCVerified', { kycLevel: 'basic' });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ kind: 'service_verified', credentialType: 'KYCVerified', issuerDID: issuerDid });
    const v = await verifyWithStatus(ok.body.jwt);
    expect(v.issuer).toBe(issuerDid);
    expect(v.verifiableCredential.type).toEqual(['VerifiableCredential', 'KYCVerified']);
    expect(v.verifiableCredential.credentialSubject).toEqual({
      id: h.did,
      kycStatus: 'approved',
      kycLevel: 'basic',
      kycProvider: '<provider_default>',
      verifiedAt: expect.any(String),
    });

    const over = await issue(h, 'AgeOver', { ageOver: 18 });
    expect(over.status).toBe(201);
    expect((await verifyWithStatus(over.body.jwt)).verifiableCredential.credentialSubject).toMatchObject({
      id: h.did,
      ageOver: 18,
      birthDateCommitment: expect.any(String),
    });
    const older = await issue(h, 'AgeOver', { ageOver: 31 });
    expect(older.status).toBe(422);
    expect(fieldsOf(older.body)).toEqual(['subject.ageOver']);
    expect((await issue(h, 'AgeOver', {})).status).toBe(400);

    // score: the model's number, not the caller's
    expect(fieldsOf((await issue(h, 'ReputationScore', { score: 1000, tier: 'Very High' })).body)).toEqual([
      'subject.score',
      'subject.tier',
    ]);
    const score = await issue(h, 'ReputationScore', { category: 'IDENTITY' });
    expect(score.status).toBe(201);
    const scored = (await verifyWithStatus(score.body.jwt)).verifiableCredential.credentialSubject as { score: number; category: string };
    expect(scored.category).toBe('IDENTITY');
    expect(Date.parse(score.body.expirationDate) - Date.parse(score.body.issuanceDate)).toBe(7 * 86400_000);
    const control = await issue(h, 'DIDControl', {});
    expect(control.status).toBe(201);
    expect((await verifyWithStatus(control.body.jwt)).verifiableCredential.credentialSubject).toMatchObject({ controlProvenBy: 'SIWE' });
    // an administrator's sign-in proves nothing about this wallet's key
    expect((await issue(h, 'DIDControl', {}, {}, (await signInAdmin(app)).auth)).status).toBe(422);

    // the KYC-backed credentials count for IDENTITY, the others do not
    expect(await app.ctx.services.identity!.signalFor(h.address)).toMatchObject({ activeCredentials: 2 });
    // bulk scoring reads the same in three queries
    const unknown = Wallet.createRandom().address;
    expect(await app.ctx.services.identity!.signalsForMany!([unknown, h.address])).toEqual([
      await app.ctx.services.identity!.signalFor(unknown),
      await app.ctx.services.identity!.signalFor(h.address),
    ]);

    // an age proof and an age check made before the revocation
    const before = await http('POST', '/compliance/verify-age', { walletAddress: h.address, minimumAge: 18 }, key.headers);
    expect(before.body).toMatchObject({ verified: true, proof: expect.any(String) });
    expect((await http('POST', '/reputation/verify', { proof: before.body.proof }, key.headers)).body).toMatchObject({ valid: true });

    const stranger = await signIn(app);
    expect((await http('POST', `/compliance/kyc/${h.did}/revoke`, {}, stranger.auth)).status).toBe(403);
    // not the wallet itself either: a revocation reads as a failed KYC
    expect((await http('POST', `/compliance/kyc/${h.did}/revoke`, {}, h.auth)).status).toBe(403);
    const admin = await signInAdmin(app);
    const revoked = await http('POST', `/compliance/kyc/${h.did}/revoke`, { reason: 'document found to be forged' }, admin.auth);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      did: h.did,
      status: 'rejected',
      kycLevel: 'none',
      reason: 'revoked by an administrator: document found to be forged',
    });
    expect((await http('POST', `/compliance/kyc/${h.did}/revoke`, {}, admin.auth)).status).toBe(409);
    expect((await http('GET', `/compliance/kyc/${h.did}/status`, undefined, key.headers)).body).toMatchObject({
      status: 'rejected',
      kycLevel: 'none',
    });

    // at once: the birth date is gone, the old proof no longer verifies, the credentials are revoked for a stock verifier
    const after = await http('POST', '/compliance/verify-age', { walletAddress: h.address, minimumAge: 18 }, key.headers);
    expect(after.body).toMatchObject({ verified: false, proof: null, reason: 'no_approved_kyc' });
    expect((await http('POST', '/reputation/verify', { proof: before.body.proof }, key.headers)).body).toMatchObject({ valid: false });
    await expect(verifyWithStatus(ok.body.jwt)).rejects.toThrow(/credential revoked/);
    await expect(verifyWithStatus(over.body.jwt)).rejects.toThrow(/credential revoked/);
    await expect(verifyWithStatus(control.body.jwt)).resolves.toBeDefined();
    expect(
      (await http('POST', '/reputation/prove', { subject: h.address, proofType: 'AgeVerification', minimumAge: 18 }, key.headers)).status,
    ).toBe(422);
    expect((await issue(h, 'KYCVerified', {})).status).toBe(422);
    expect(await app.ctx.services.identity!.signalFor(h.address)).toMatchObject({ activeCredentials: 0 });
    // real Groth16 proving and a real KYC flow: minutes on a loaded CI machine, not a speed check
  }, 240_000);
});

describe('holder-signed credentials and what an attacker tries', () => {
  it('a credential the holder signs (ES256K-R) has the holder as issuer; replays, other DIDs, other signers and reserved types are refused', async () => {
    const wallet = Wallet.createRandom();
    const h = await holder(wallet);
    const signer = ES256KSigner(Buffer.from(wallet.privateKey.slice(2), 'hex'), true);
    const now = Math.floor(Date.now() / 1000);
    const claims = { id: h.did, memberOf: 'DAO X' };
    const sign = (over: Record<string, unknown> = {}, by = signer) =>
      createVerifiableCredentialJwt(
        {
          sub: h.did,
          nbf: now,
          exp: now + 86400,
          jti: `urn:uuid:${randomUUID()}`,
          vc: {
            '@context': ['https://www.w3.org/2018/credentials/v1'],
            type: ['VerifiableCredential', 'Membership'],
            credentialSubject: claims,
          },
          ...over,
        },
        { did: h.did, signer: by, alg: 'ES256K-R' },
      );
    const jwt = await sign();
    const r = await issue(h, 'Membership', { memberOf: 'DAO X' }, { holderJwt: jwt });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ kind: 'holder_signed', issuerDID: h.did, credentialType: 'Membership', jwt });
    const v = await verifyCredential(r.body.jwt, resolver);
    expect(v.issuer).toBe(h.did);
    expect((await http('POST', '/identity/credentials/verify', { jwt })).body).toMatchObject({
      valid: true,
      kind: 'holder_signed',
      issuer: h.did,
      credentialId: r.body.id,
    });

    // replay: the same signed credential is stored once
    expect((await issue(h, 'Membership', { memberOf: 'DAO X' }, { holderJwt: jwt })).status).toBe(409);
    // to another DID (its owner submits it): iss/sub are not that DID
    const other = await holder();
    const elsewhere = await http(
      'POST',
      `/identity/${other.did}/credentials`,
      { credentialType: 'Membership', subject: JSON.stringify({ memberOf: 'DAO X' }), holderJwt: await sign() },
      other.auth,
    );
    expect(elsewhere.status).toBe(400);
    expect(fieldsOf(elsewhere.body)).toEqual(['holderJwt']);
    // another wallet's key claiming to be this holder
    const forged = await sign({}, ES256KSigner(Buffer.from(Wallet.createRandom().privateKey.slice(2), 'hex'), true));
    expect(fieldsOf((await issue(h, 'Membership', { memberOf: 'DAO X' }, { holderJwt: forged })).body)).toEqual(['holderJwt']);
    // a signed subject other than the request's, a stale signature
    expect((await issue(h, 'Membership', { memberOf: 'DAO Y' }, { holderJwt: await sign() })).status).toBe(400);
    expect((await issue(h, 'Membership', { memberOf: 'DAO X' }, { holderJwt: await sign({ nbf: now - 3600 }) })).status).toBe(400);
    // the service's types are never holder-signed
    const kycSigned = await createVerifiableCredentialJwt(
      {
        sub: h.did,
        nbf: now,
        exp: now + 86400,
        jti: `urn:uuid:${randomUUID()}`,
        vc: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'KYCVerified'],
          credentialSubject: { id: h.did, kycLevel: 'full' },
        },
      },
      { did: h.did, signer, alg: 'ES256K-R' },
    );
    expect(fieldsOf((await issue(h, 'KYCVerified', { kycLevel: 'full' }, { holderJwt: kycSigned })).body)).toEqual(['credentialType']);
  });

  it('refuses look-alike type names, keeps smuggled claims nested and the asserter honest', async () => {
    const h = await holder();
    for (const t of [
      'kycverified',
      'KYC_Verified',
      'KYCVerifiedCredential',
      'ＫＹＣVerified',
      'HolderAssertion',
      'holder-assertion',
      'VerifiableCredential',
      'ageover',
      'Reputation Score',
    ]) {
      const r = await issue(h, t, {});
      expect(r.status, t).toBe(400);
      expect(fieldsOf(r.body), t).toEqual(['credentialType']);
    }
    // claims shaped like the service's, or like an assertion by someone else, stay inside `claims`
    const smuggled = {
      kycLevel: 'full',
      assertedBy: issuerDid,
      assertion: { assertedBy: issuerDid, credentialType: 'KYCVerified', claims: { kycLevel: 'full' } },
      type: 'KYCVerified',
    };
    const r = await issue(h, 'KYCCredential', smuggled);
    expect(r.status).toBe(201);
    const subject = (await verifyCredential(r.body.jwt, resolver)).verifiableCredential.credentialSubject as Record<string, unknown>;
    expect(subject).toEqual({ id: h.did, assertion: { assertedBy: h.did, credentialType: 'KYCCredential', claims: smuggled } });
    // a subject naming another DID is refused
    const other = await holder();
    expect(fieldsOf((await issue(h, 'Note', { id: other.did })).body)).toEqual(['subject']);
    // an administrator's assertion is the administrator's, not the holder's
    const admin = await signInAdmin(app);
    const byAdmin = await issue(h, 'Note', { text: 'hi' }, {}, admin.auth);
    expect(byAdmin.status).toBe(201);
    const adminSubject = (await verifyCredential(byAdmin.body.jwt, resolver)).verifiableCredential.credentialSubject as {
      assertion: { assertedBy: string };
    };
    expect(adminSubject.assertion.assertedBy).toBe(`did:credence:1:${admin.address.toLowerCase()}`);
  });
});

describe('migration 0036', () => {
  it('revokes credentials signed with holder-written claims (visible to a stock status-list check) and has their scores recomputed', async () => {
    const h = await holder();
    const db = app.ctx.db;
    const repo = createIdentityRepo(db);
    // a credential exactly as the service signed them before it signed only what it verified: holder claims, service issuer, a status entry
    const status = await createStatusLists({ repo, issuerKey: ISSUER_KEY, issuerDid, publicUrl: () => base }).allocate();
    const id = randomUUID();
    const t = Math.floor(Date.now() / 1000);
    const jwt = await signJwt(
      ISSUER_KEY,
      { kid: controllerKeyId(issuerDid) },
      {
        vc: {
          '@context': ['https://www.w3.org/2018/credentials/v1'],
          type: ['VerifiableCredential', 'KYCVerified'],
          credentialSubject: { id: h.did, kycLevel: 'full' },
          credentialStatus: status.credentialStatus,
        },
        sub: h.did,
        iss: issuerDid,
        jti: `urn:uuid:${id}`,
        nbf: t,
        iat: t,
        exp: t + 86400,
      },
    );
    const [didRow] = await db.query<{ id: string }>('SELECT id FROM dids WHERE did = $1', [h.did]);
    await db.query(
      `INSERT INTO credentials (id, did_id, subject_did, wallet_address, credential_type, issuer_did, jwt, ipfs_hash, pinned, issued_by, issuance_date, expiration_date, status_list_id, status_index)
       VALUES ($1, $2, $3, $4, 'KYCVerified', $5, $6, 'bafy-legacy', false, $4, to_timestamp($7), to_timestamp($8), $9, $10)`,
      [id, didRow.id, h.did, h.address.toLowerCase(), issuerDid, jwt, t, t + 86400, status.listId, status.index],
    );
    await app.ctx.services.scoring!.recompute(h.address.toLowerCase(), 'test');
    await expect(verifyWithStatus(jwt)).resolves.toBeDefined();
    // a migration runs before any recomputation: none of the sign-in's or registration's may still be writing
    await backgroundSettled();

    await db.exec(readFileSync(`${MIGRATIONS_DIR}/0036_holder_written_credentials.sql`, 'utf8'));

    await expect(verifyWithStatus(jwt)).rejects.toThrow(/credential revoked/);
    expect((await http('POST', '/identity/credentials/verify', { jwt })).body).toMatchObject({
      valid: false,
      revoked: true,
      kind: 'legacy_holder_written',
    });
    const rows = await db.query<{ model_version: string }>('SELECT DISTINCT model_version FROM scores WHERE address = $1', [
      h.address.toLowerCase(),
    ]);
    expect(rows.map((r) => r.model_version)).toEqual(['recompute:0036']);
    // the next read recomputes
    const read = await http('GET', `/reputation/${h.address}/IDENTITY`, undefined, key.headers);
    expect(read.status).toBe(200);
    const after = await db.query<{ model_version: string }>('SELECT DISTINCT model_version FROM scores WHERE address = $1', [
      h.address.toLowerCase(),
    ]);
    expect(after.map((r) => r.model_version)).not.toContain('recompute:0036');
    // credentials issued since are untouched by running it again
    const fresh = await issue(h, 'Note', { text: 'after' });
    await db.exec(readFileSync(`${MIGRATIONS_DIR}/0036_holder_written_credentials.sql`, 'utf8'));
    await expect(verifyWithStatus(fresh.body.jwt)).resolves.toBeDefined();
  });
});
