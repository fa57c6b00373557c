// A revoked credential must fail a stock verifier. Reproduced with did-jwt-vc and a status-list check
// written the way a stock verifier does it: verify the VC, fetch its statusListCredential over HTTP (no key), verify
// that JWT against the issuer's DID document (resolved keylessly at /1.0/identifiers), gunzip, read the bit.
import { freePort } from '../../../test/helpers/ports.js';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyCredential } from 'did-jwt-vc';
import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { createTestApp, signIn, type SignedIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let base: string;
let resolver: Resolver;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = await createTestApp({ config: { publicUrl: base, didResolverRateLimit: 10_000 } });
  await app.listen({ port, host: '127.0.0.1' });
  resolver = new Resolver({
    credence: async (did): Promise<DIDResolutionResult> =>
      (await fetch(`${base}/1.0/identifiers/${encodeURIComponent(did)}`)).json() as Promise<DIDResolutionResult>,
  });
});
afterAll(async () => {
  await app?.close();
});

interface StatusEntry {
  id: string;
  type: string;
  statusPurpose: string;
  statusListIndex: string;
  statusListCredential: string;
}

/** What a stock verifier does with a VC that has a BitstringStatusListEntry: throws when the credential is revoked. */
async function verifyWithStatus(jwt: string) {
  const { verifiableCredential: vc } = await verifyCredential(jwt, resolver);
  const entry = vc.credentialStatus as unknown as StatusEntry;
  if (entry?.type !== 'BitstringStatusListEntry') throw new Error('no BitstringStatusListEntry');
  const res = await fetch(entry.statusListCredential);
  if (res.status !== 200) throw new Error(`status list: HTTP ${res.status}`);
  const { verifiableCredential: list } = await verifyCredential(await res.text(), resolver);
  if (!list.type.includes('BitstringStatusListCredential')) throw new Error('not a BitstringStatusListCredential');
  if (list.issuer.id !== vc.issuer.id) throw new Error('the status list has another issuer than the credential');
  const subject = list.credentialSubject as { type: string; statusPurpose: string; encodedList: string };
  if (subject.type !== 'BitstringStatusList' || subject.statusPurpose !== entry.statusPurpose) throw new Error('wrong status list subject');
  if (!subject.encodedList.startsWith('u')) throw new Error('encodedList is not multibase base64url');
  const bits = gunzipSync(Buffer.from(subject.encodedList.slice(1), 'base64url'));
  if (bits.length < 16_384) throw new Error(`status list of ${bits.length} bytes, under the 16 KB minimum`);
  const i = Number(entry.statusListIndex);
  if ((bits[i >> 3] >> (7 - (i & 7))) & 1) throw new Error(`credential revoked (${entry.statusPurpose} bit ${i} is set)`);
  return { vc, entry, bytes: bits.length };
}

async function holderWithDid(): Promise<SignedIn & { did: string }> {
  const owner = await signIn(app);
  const res = await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } });
  return { ...owner, did: res.json().did };
}
const issue = async (h: SignedIn & { did: string }, type = 'MembershipCredential') => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/identity/${h.did}/credentials`,
    headers: h.auth,
    payload: { credentialType: type, subject: '{"tier":"gold"}' },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; jwt: string };
};

describe('credential status (W3C Bitstring Status List)', () => {
  it('a stock verifier accepts the credential, then rejects it once revoked; the other credentials stay valid', async () => {
    const h = await holderWithDid();
    const cred = await issue(h);
    const other = await issue(h, 'OtherCredential');
    const ok = await verifyWithStatus(cred.jwt);
    expect(ok.bytes).toBe(16_384);
    expect(ok.entry).toEqual({
      id: `${ok.entry.statusListCredential}#${ok.entry.statusListIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: expect.stringMatching(/^\d+$/),
      statusListCredential: expect.stringMatching(new RegExp(`^${base}/api/v1/identity/status-lists/\\d+$`)),
    });
    expect(Number(ok.entry.statusListIndex)).toBeLessThan(131_072);

    const revoked = await app.inject({ method: 'POST', url: `/api/v1/identity/${h.did}/credentials/${cred.id}/revoke`, headers: h.auth });
    expect(revoked.statusCode).toBe(200);
    await expect(verifyWithStatus(cred.jwt)).rejects.toThrow(/credential revoked \(revocation bit \d+ is set\)/);
    await expect(verifyWithStatus(other.jwt)).resolves.toBeDefined();
    // the service's own verification agrees
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/identity/credentials/verify', payload: { jwt: cred.jwt } })).json(),
    ).toMatchObject({ valid: false, reason: 'revoked' });
  });

  it('serves the list without a key, with short cache headers and an ETag that changes on revocation', async () => {
    const h = await holderWithDid();
    const cred = await issue(h);
    const { entry } = await verifyWithStatus(cred.jwt);
    const first = await fetch(entry.statusListCredential);
    expect(first.headers.get('content-type')).toBe('application/vc+jwt');
    expect(first.headers.get('cache-control')).toBe('public, max-age=30');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect(first.headers.get('last-modified')).toBeTruthy();
    const same = await fetch(entry.statusListCredential, { headers: { 'if-none-match': etag } });
    expect(same.status).toBe(304);

    await app.inject({ method: 'POST', url: `/api/v1/identity/${h.did}/credentials/${cred.id}/revoke`, headers: h.auth });
    const changed = await fetch(entry.statusListCredential, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('gives concurrent issues distinct indexes', async () => {
    const h = await holderWithDid();
    const creds = await Promise.all(Array.from({ length: 8 }, () => issue(h)));
    const entries = await Promise.all(creds.map(async (c) => (await verifyWithStatus(c.jwt)).entry));
    expect(new Set(entries.map((e) => `${e.statusListCredential}#${e.statusListIndex}`)).size).toBe(8);
  });

  it('404 for an unknown list, 400 for a malformed list id', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/api/v1/identity/status-lists/999999' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
    for (const id of ['0', 'x', '-1'])
      expect((await app.inject({ method: 'GET', url: `/api/v1/identity/status-lists/${id}` })).statusCode, id).toBe(400);
  });
});
