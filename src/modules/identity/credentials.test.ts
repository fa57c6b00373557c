import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCredential } from 'did-jwt-vc';
import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import {
  createKey,
  createTestApp,
  eventually,
  randomAddress,
  signIn,
  signInAdmin,
  type SignedIn,
  type TestKey,
} from '../../../test/helpers/app.js';
import { startFakeIpfs, type FakeIpfs } from '../../../test/fakes/ipfs.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let base: string;
let key: TestKey;
let ipfs: FakeIpfs;
let resolver: Resolver;

beforeAll(async () => {
  ipfs = await startFakeIpfs();
  app = await createTestApp({ config: { ipfsApi: `http://user:p%40ss@${ipfs.url.slice('http://'.length)}` } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  key = await createKey(app, 'Enterprise');
  // A stock did-resolver for method `credence` that reads the document from OUR resolution endpoint over HTTP.
  resolver = new Resolver({
    credence: async (did): Promise<DIDResolutionResult> => {
      const res = await fetch(`${base}/api/v1/identity/${encodeURIComponent(did)}`, { headers: key.headers });
      if (res.status !== 200) return { didResolutionMetadata: { error: 'notFound' }, didDocument: null, didDocumentMetadata: {} };
      const record = (await res.json()) as { didDocument: string };
      return {
        didResolutionMetadata: { contentType: 'application/did+ld+json' },
        didDocument: JSON.parse(record.didDocument),
        didDocumentMetadata: {},
      };
    },
  });
});
afterAll(async () => {
  await app?.close();
  await ipfs?.close();
});

async function ownerWithDid(): Promise<SignedIn & { did: string }> {
  const owner = await signIn(app);
  const res = await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } });
  return { ...owner, did: res.json().did };
}

const issue = (did: string, payload: unknown, headers: Record<string, string>) =>
  app.inject({ method: 'POST', url: `/api/v1/identity/${did}/credentials`, headers, payload: payload as object });
const verify = (jwt: string) => app.inject({ method: 'POST', url: '/api/v1/identity/credentials/verify', payload: { jwt } });

describe('credentials', () => {
  it('issues a W3C VC (a holder assertion) that a stock library verifies against our DID documents; lists, verifies and revokes it', async () => {
    const owner = await ownerWithDid();
    const res = await issue(
      owner.did,
      { credentialType: 'KYCCredential', subject: JSON.stringify({ name: 'Ada', level: 'full' }) },
      owner.auth,
    );
    expect(res.statusCode).toBe(201);
    const cred = res.json();
    expect(cred).toMatchObject({
      id: expect.any(String),
      credentialType: 'KYCCredential',
      kind: 'holder_assertion',
      issuerDID: expect.stringMatching(/^did:credence:1:0x[0-9a-f]{40}$/),
    });
    const years = (Date.parse(cred.expirationDate) - Date.parse(cred.issuanceDate)) / (365 * 86400_000);
    expect(years).toBe(1);

    // CIDv1 of the stored credential, pinned to the configured node (with the URL's credentials as Basic auth).
    const cid = CID.parse(cred.ipfsHash);
    expect(cid.version).toBe(1);
    expect(cid.multihash.bytes).toEqual((await sha256.digest(new TextEncoder().encode(cred.jwt))).bytes);
    expect(new TextDecoder().decode(ipfs.pinned.get(cred.ipfsHash))).toBe(cred.jwt);
    expect(ipfs.requests.at(-1)!.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    expect(ipfs.requests.at(-1)!.query.get('cid-version')).toBe('1');

    // did-jwt-vc, resolving both DIDs through GET /identity/{did}.
    const verified = await verifyCredential(cred.jwt, resolver);
    expect(verified.verified).toBe(true);
    expect(verified.issuer).toBe(cred.issuerDID);
    // the holder's claims are nested under `assertion`, never the service's own finding
    expect(verified.verifiableCredential.type).toEqual(['VerifiableCredential', 'HolderAssertion']);
    expect(verified.verifiableCredential.credentialSubject).toEqual({
      id: owner.did,
      assertion: { assertedBy: owner.did, credentialType: 'KYCCredential', claims: { name: 'Ada', level: 'full' } },
    });
    expect(verified.verifiableCredential.id).toBe(`urn:uuid:${cred.id}`);
    expect(verified.signer.blockchainAccountId?.toLowerCase()).toBe(`eip155:1:${cred.issuerDID.split(':')[3]}`);

    const list = await app.inject({ method: 'GET', url: `/api/v1/identity/${owner.did}/credentials`, headers: owner.auth });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([{ ...cred, revoked: false, revokedAt: null }]);

    expect((await verify(cred.jwt)).json()).toEqual({
      valid: true,
      revoked: false,
      expired: false,
      issuer: cred.issuerDID,
      signatureValid: true,
      credentialId: cred.id,
      kind: 'holder_assertion',
      reason: null,
    });
    // a holder's assertion is no identity evidence
    expect(await app.ctx.services.identity!.signalFor(owner.address)).toMatchObject({ activeCredentials: 0 });

    const revoke = await app.inject({
      method: 'POST',
      url: `/api/v1/identity/${owner.did}/credentials/${cred.id}/revoke`,
      headers: owner.auth,
    });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toMatchObject({ id: cred.id, revoked: true, revokedAt: expect.any(String) });
    expect((await verify(cred.jwt)).json()).toMatchObject({ valid: false, revoked: true, signatureValid: true, reason: 'revoked' });
    const twice = await app.inject({
      method: 'POST',
      url: `/api/v1/identity/${owner.did}/credentials/${cred.id}/revoke`,
      headers: owner.auth,
    });
    expect(twice.statusCode).toBe(409);
    expect(await app.ctx.services.identity!.signalFor(owner.address)).toMatchObject({ activeCredentials: 0 });
  });

  it('reports tampered, foreign and malformed tokens as invalid (and so does did-jwt-vc)', async () => {
    const owner = await ownerWithDid();
    const { jwt } = (await issue(owner.did, { credentialType: 'Membership', subject: '{"tier":"gold"}' }, owner.auth)).json();
    const [h, p, s] = jwt.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    payload.vc.credentialSubject.assertion.claims.tier = 'platinum';
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await verify(tampered)).json()).toMatchObject({ valid: false, signatureValid: false, reason: 'bad_signature' });
    await expect(verifyCredential(tampered, resolver)).rejects.toThrow(/signature/i);

    // Claiming to come from a registered DID whose key did not sign it.
    const other = await ownerWithDid();
    payload.iss = other.did;
    const forged = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await verify(forged)).json()).toMatchObject({ valid: false, issuer: other.did, reason: 'bad_signature' });

    payload.iss = `did:credence:1:${randomAddress()}`;
    const unknown = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expect((await verify(unknown)).json()).toMatchObject({ valid: false, reason: 'unknown_issuer' });
    expect((await verify('not.a.jwt!')).json()).toEqual({
      valid: false,
      revoked: false,
      expired: false,
      issuer: null,
      signatureValid: false,
      credentialId: null,
      kind: null,
      reason: 'malformed',
    });
    expect((await verify('')).statusCode).toBe(400);
    expect((await verify('x'.repeat(20_001))).statusCode).toBe(400);
  });

  it('honours an expirationDate in the subject and then reports the credential expired', async () => {
    const owner = await ownerWithDid();
    const expirationDate = new Date(Date.now() + 2_000).toISOString();
    const res = await issue(owner.did, { credentialType: 'ShortLived', subject: JSON.stringify({ expirationDate, x: 1 }) }, owner.auth);
    expect(res.statusCode).toBe(201);
    expect(Math.abs(Date.parse(res.json().expirationDate) - Date.parse(expirationDate))).toBeLessThan(1000);
    const expired = await eventually(async () => {
      const v = (await verify(res.json().jwt)).json();
      return v.expired ? v : null;
    });
    expect(expired).toMatchObject({ valid: false, expired: true, signatureValid: true, reason: 'expired' });
    // did-jwt allows 300 s of clock skew by default; without it the stock library agrees.
    await expect(verifyCredential(res.json().jwt, resolver, { skewTime: 0 })).rejects.toThrow(/expired/i);
  });

  it('validates the body at every boundary', async () => {
    const owner = await ownerWithDid();
    const ok = (over: object) => ({ credentialType: 'T', subject: '{}', ...over });
    expect((await issue(owner.did, ok({ credentialType: 'x'.repeat(100) }), owner.auth)).statusCode).toBe(201);
    const padded = JSON.stringify({ a: '' });
    expect((await issue(owner.did, ok({ subject: JSON.stringify({ a: 'x'.repeat(5000 - padded.length) }) }), owner.auth)).statusCode).toBe(
      201,
    );
    const bad: [object, string][] = [
      [ok({ credentialType: 'x'.repeat(101) }), 'credentialType'],
      [ok({ credentialType: '' }), 'credentialType'],
      [ok({ subject: JSON.stringify({ a: 'x'.repeat(5001 - padded.length) }) }), 'subject'],
      [ok({ subject: 'not json' }), 'subject'],
      [ok({ subject: '[1]' }), 'subject'],
      [ok({ subject: '"str"' }), 'subject'],
      [ok({ subject: JSON.stringify({ id: `did:credence:1:${randomAddress()}` }) }), 'subject'],
      [ok({ subject: JSON.stringify({ expirationDate: '2001-01-01T00:00:00Z' }) }), 'subject'],
      [ok({ subject: JSON.stringify({ expirationDate: 'soon' }) }), 'subject'],
      [{ subject: '{}' }, 'credentialType'],
      [{ credentialType: 'T' }, 'subject'],
    ];
    for (const [payload, field] of bad) {
      const res = await issue(owner.did, payload, owner.auth);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    // The subject's own id may repeat the DID, in any accepted form.
    expect((await issue(owner.did, ok({ subject: JSON.stringify({ id: `did:credence:${owner.address}` }) }), owner.auth)).statusCode).toBe(
      201,
    );
  });

  it('lets only the owner or an admin issue, list and revoke; 401 without a JWT; 404 for unknown DIDs', async () => {
    const owner = await ownerWithDid();
    const stranger = await signIn(app);
    const admin = await signInAdmin(app);
    const body = { credentialType: 'T', subject: '{}' };
    expect((await issue(owner.did, body, stranger.auth)).statusCode).toBe(403);
    expect((await issue(owner.did, body, {})).statusCode).toBe(401);
    expect((await issue(`did:credence:1:${randomAddress()}`, body, owner.auth)).statusCode).toBe(404);
    const byAdmin = await issue(owner.did, body, admin.auth);
    expect(byAdmin.statusCode).toBe(201);
    const list = (headers: Record<string, string>) =>
      app.inject({ method: 'GET', url: `/api/v1/identity/${owner.did}/credentials`, headers });
    expect((await list(stranger.auth)).statusCode).toBe(403);
    expect((await list({})).statusCode).toBe(401);
    expect((await list(admin.auth)).json()).toHaveLength(1);
    const revokeUrl = `/api/v1/identity/${owner.did}/credentials/${byAdmin.json().id}/revoke`;
    expect((await app.inject({ method: 'POST', url: revokeUrl, headers: stranger.auth })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: revokeUrl })).statusCode).toBe(401);
    // A credential of another DID is not found under this one.
    const other = await ownerWithDid();
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/v1/identity/${other.did}/credentials/${byAdmin.json().id}/revoke`,
          headers: other.auth,
        })
      ).statusCode,
    ).toBe(404);
    expect((await app.inject({ method: 'POST', url: revokeUrl, headers: admin.auth })).statusCode).toBe(200);
  });

  it('answers 502 and stores nothing when the IPFS node fails', async () => {
    const owner = await ownerWithDid();
    ipfs.failWith = 503;
    try {
      const res = await issue(owner.did, { credentialType: 'T', subject: '{}' }, owner.auth);
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('upstream_unavailable');
    } finally {
      ipfs.failWith = null;
    }
    expect((await app.inject({ method: 'GET', url: `/api/v1/identity/${owner.did}/credentials`, headers: owner.auth })).json()).toEqual([]);
  });
});

describe('scores follow identity', () => {
  it('registering a DID (with proven control) raises the IDENTITY score a little; a holder assertion does not count', async () => {
    const scoring = app.ctx.services.scoring!;
    const owner = await signIn(app);
    const address = owner.address.toLowerCase();
    const before = await scoring.getScore(address, 'IDENTITY');
    const did = (await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })).json()
      .did;
    const withDid = await eventually(async () => {
      const e = await scoring.getScore(address, 'IDENTITY');
      return e.score > before.score ? e : null;
    });
    expect(withDid.score - before.score).toBeLessThanOrEqual(20);
    expect((await issue(did, { credentialType: 'T', subject: '{}' }, owner.auth)).statusCode).toBe(201);
    expect(await app.ctx.services.identity!.signalFor(address)).toMatchObject({ activeCredentials: 0 });
  });
});
