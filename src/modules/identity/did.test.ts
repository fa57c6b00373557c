import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { createKey, createTestApp, randomAddress, redisUrl, signIn, type TestKey } from '../../../test/helpers/app.js';
import { secondConnection, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';
import { eventually } from '../../../test/helpers/app.js';
import { parseDid } from './did.js';

let app: App;
let key: TestKey;

beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Enterprise');
});
afterAll(async () => {
  await app?.close();
});

const register = (payload: unknown) => app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: payload as object });
const resolve = (did: string, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'GET', url: `/api/v1/identity/${encodeURIComponent(did)}`, headers });

describe('parseDid', () => {
  it('canonicalizes the short form, chain ids and hex case', () => {
    const a = '0xAbCdEf0123456789abcdef0123456789ABCDEF01';
    expect(parseDid(`did:credence:${a}`)).toEqual({ did: `did:credence:1:${a.toLowerCase()}`, chainId: 1, address: a.toLowerCase() });
    expect(parseDid(`did:credence:137:${a}`)?.did).toBe(`did:credence:137:${a.toLowerCase()}`);
    for (const bad of [
      'did:ethr:0x' + '1'.repeat(40),
      'did:credence:0:0x' + '1'.repeat(40),
      'did:credence:1:0x123',
      `did:credence:01:${a}`,
    ]) {
      expect(parseDid(bad)).toBeNull();
    }
  });
});

describe('POST /identity/register', () => {
  it('creates a DID with a W3C document, then 409 with the existing DID for the same wallet and chain', async () => {
    const wallet = Wallet.createRandom();
    const res = await register({ walletAddress: wallet.address });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    const did = `did:credence:1:${wallet.address.toLowerCase()}`;
    expect(body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), did, createdAt: expect.any(String) });
    expect(Date.parse(body.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const again = await register({ walletAddress: wallet.address.toLowerCase(), chainId: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('invalid_state');
    expect(again.json().details).toContain(did);

    // Another chain is another DID.
    const polygon = await register({ walletAddress: wallet.address, chainId: 137 });
    expect(polygon.statusCode).toBe(201);
    expect(polygon.json().did).toBe(`did:credence:137:${wallet.address.toLowerCase()}`);

    const doc = JSON.parse((await resolve(did)).json().didDocument);
    expect(doc).toEqual({
      '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/secp256k1recovery-2020/v2'],
      id: did,
      controller: did,
      verificationMethod: [
        {
          id: `${did}#controller`,
          type: 'EcdsaSecp256k1RecoveryMethod2020',
          controller: did,
          blockchainAccountId: `eip155:1:${wallet.address}`,
        },
      ],
      authentication: [`${did}#controller`],
      assertionMethod: [`${did}#controller`],
    });
  });

  it('validates every field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'walletAddress'],
      [{ walletAddress: '0x123' }, 'walletAddress'],
      [{ walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045'.replace('d8dA', 'D8dA') }, 'walletAddress'], // bad checksum
      [{ walletAddress: randomAddress(), chainId: 0 }, 'chainId'],
      [{ walletAddress: randomAddress(), chainId: -1 }, 'chainId'],
      [{ walletAddress: randomAddress(), chainId: 1.5 }, 'chainId'],
      [{ walletAddress: randomAddress(), chainId: 2147483648 }, 'chainId'],
    ];
    for (const [payload, field] of cases) {
      const res = await register(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(res.json().fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const upper = '0x' + randomAddress().slice(2).toUpperCase();
    expect((await register({ walletAddress: upper, chainId: 2147483647 })).statusCode).toBe(201);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/identity/register',
      payload: 'walletAddress=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('GET /identity/{did}', () => {
  it('resolves the canonical form, the short form and any hex case; costs no query', async () => {
    const wallet = Wallet.createRandom();
    const { id, did } = (await register({ walletAddress: wallet.address })).json();
    const forms = [
      did,
      `did:credence:${wallet.address}`,
      `did:credence:1:${wallet.address.toUpperCase().replace('0X', '0x')}`,
      `did:credence:${wallet.address.toLowerCase()}`,
    ];
    for (const form of forms) {
      const res = await resolve(form);
      expect(res.statusCode, form).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id, did, walletAddress: wallet.address, chainId: 1, isActive: true });
      expect(body.updatedAt).toBe(body.createdAt);
      expect(res.headers['x-ratelimit-limit']).toBeDefined();
    }
    const usage = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers });
    if (usage.statusCode === 200) expect(usage.json().queriesThisMonth).toBe(0);
  });

  it('404 for an unknown DID, 400 for a malformed one, 401 without a key', async () => {
    const unknown = await resolve(`did:credence:1:${randomAddress()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
    for (const bad of ['did:credence:0x123', 'did:web:example.com', `did:credence:1:${randomAddress()}0`]) {
      const res = await resolve(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().fields[0].field).toBe('did');
    }
    // An over-long DID reaches validation and gets the usual error body.
    const huge = await resolve(`did:credence:1:${randomAddress()}${'0'.repeat(200)}`);
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error).toBe('validation_failed');
    const noKey = await resolve(`did:credence:1:${randomAddress()}`, {});
    expect(noKey.statusCode).toBe(401);
    const badKey = await resolve(`did:credence:1:${randomAddress()}`, { 'x-api-key': 'cred_live_' + 'x'.repeat(40) });
    expect(badKey.statusCode).toBe(401);
  });
});

describe('PUT /identity/{did}', () => {
  it('lets the owner replace the document (cache evicted), refuses others, needs a JWT', async () => {
    const owner = await signIn(app);
    const { did } = (await register({ walletAddress: owner.address })).json();
    const before = (await resolve(did)).json(); // now cached
    const doc = {
      ...JSON.parse(before.didDocument),
      service: [{ id: `${did}#hub`, type: 'LinkedDomains', serviceEndpoint: 'https://example.com' }],
    };
    const put = (didDocument: unknown, headers: Record<string, string> = owner.auth, path = did) =>
      app.inject({ method: 'PUT', url: `/api/v1/identity/${path}`, headers, payload: { didDocument } as object });

    const res = await put(JSON.stringify(doc), owner.auth, `did:credence:${owner.address}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const after = (await resolve(did)).json();
    expect(JSON.parse(after.didDocument).service[0].serviceEndpoint).toBe('https://example.com');
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(before.updatedAt));

    const other = await signIn(app);
    const forbidden = await put(JSON.stringify(doc), other.auth);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().error).toBe('forbidden');
    expect((await put(JSON.stringify(doc), {})).statusCode).toBe(401);
    expect((await put(JSON.stringify(doc), { authorization: 'Bearer nope' })).statusCode).toBe(401);
    expect((await put(JSON.stringify(doc), owner.auth, `did:credence:1:${randomAddress()}`)).statusCode).toBe(404);

    for (const [bad, why] of [
      ['{not json', 'JSON'],
      ['[1,2]', 'object'],
      [JSON.stringify({ ...doc, id: `did:credence:1:${randomAddress()}` }), 'id'],
      [JSON.stringify({ ...doc, id: undefined }), 'id'],
    ]) {
      const r = await put(bad);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().fields[0]).toMatchObject({ field: 'didDocument' });
      expect(r.json().details).toContain(why);
    }
    expect((await put(42)).statusCode).toBe(400);
    expect((await put(undefined)).statusCode).toBe(400);

    // 50,000 characters is the limit, inclusive.
    const base = JSON.stringify({ ...doc, padding: '' });
    const exact = JSON.stringify({ ...doc, padding: 'x'.repeat(50_000 - base.length) });
    expect(exact.length).toBe(50_000);
    expect((await put(exact)).statusCode).toBe(204);
    const tooLong = await put(JSON.stringify({ ...doc, padding: 'x'.repeat(50_001 - base.length) }));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields[0].field).toBe('didDocument');
    expect(JSON.parse((await resolve(did)).json().didDocument).padding.length).toBe(50_000 - base.length);
  });
});

describe('DELETE /identity/{did}', () => {
  it('lets the owner deactivate; the record stays resolvable and nothing more can change', async () => {
    const owner = await signIn(app);
    const { did } = (await register({ walletAddress: owner.address })).json();
    const del = (headers: Record<string, string>) => app.inject({ method: 'DELETE', url: `/api/v1/identity/${did}`, headers });
    expect((await del({})).statusCode).toBe(401);
    expect((await del((await signIn(app)).auth)).statusCode).toBe(403);
    expect((await resolve(did)).json().isActive).toBe(true); // cached now
    const res = await del(owner.auth);
    expect(res.statusCode).toBe(204);
    expect((await resolve(did)).json()).toMatchObject({ did, isActive: false });
    expect((await del(owner.auth)).statusCode).toBe(409);
    const doc = (await resolve(did)).json().didDocument;
    expect(
      (await app.inject({ method: 'PUT', url: `/api/v1/identity/${did}`, headers: owner.auth, payload: { didDocument: doc } })).statusCode,
    ).toBe(409);
    const issue = await app.inject({
      method: 'POST',
      url: `/api/v1/identity/${did}/credentials`,
      headers: owner.auth,
      payload: { credentialType: 'T', subject: '{}' },
    });
    expect(issue.statusCode).toBe(409);
    const kyc = await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } });
    expect(kyc.statusCode).toBe(409);
    expect(await app.ctx.services.identity!.signalFor(owner.address)).toMatchObject({ hasDid: false, did: null });
    expect((await register({ walletAddress: owner.address })).statusCode).toBe(409);
  });
});

describe('identity signals', () => {
  it('reports the DID and credentials for the scoring module', async () => {
    const address = randomAddress();
    expect(await app.ctx.services.identity!.signalFor(address)).toEqual({
      did: null,
      hasDid: false,
      didCreatedAt: null,
      activeCredentials: 0,
      controlProved: false,
    });
    await register({ walletAddress: address, chainId: 10 });
    await register({ walletAddress: address });
    const s = await app.ctx.services.identity!.signalFor(address);
    expect(s).toMatchObject({ did: `did:credence:1:${address}`, hasDid: true, activeCredentials: 0 });
    expect(s.didCreatedAt).toBeInstanceOf(Date);
    const none = randomAddress();
    expect(await app.ctx.services.identity!.signalsForMany!([address, none])).toEqual([
      s,
      await app.ctx.services.identity!.signalFor(none),
    ]);
  });
});

describe.skipIf(!redisUrl() || !usingPostgres())('two instances on one Redis and one database', () => {
  it('an update on one instance evicts the cached DID on the other', async () => {
    const prefix = `credence-test:did-${Date.now()}:`;
    const secrets = {};
    const db = await testDatabase();
    const a = await createTestApp({ db, secrets, config: { redisPrefix: prefix } });
    const b = await createTestApp({ db: await secondConnection(db), secrets, config: { redisPrefix: prefix } });
    try {
      const k = await createKey(a, 'Enterprise');
      const owner = await signIn(a);
      const { did } = (
        await a.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })
      ).json();
      const read = async () =>
        JSON.parse((await b.inject({ method: 'GET', url: `/api/v1/identity/${did}`, headers: k.headers })).json().didDocument);
      const doc = await read(); // cached on b
      const res = await a.inject({
        method: 'PUT',
        url: `/api/v1/identity/${did}`,
        headers: owner.auth,
        payload: { didDocument: JSON.stringify({ ...doc, alsoKnownAs: ['https://example.org'] }) },
      });
      expect(res.statusCode).toBe(204);
      await eventually(async () => (await read()).alsoKnownAs?.[0] === 'https://example.org', { timeoutMs: 5000 });
    } finally {
      await a.close();
      await b.close();
    }
  });
});
