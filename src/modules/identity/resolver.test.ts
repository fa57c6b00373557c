// Keyless DID resolution at the Universal Resolver driver path, used through the stock did-resolver library with a
// driver that does what a Universal Resolver HTTP driver does: GET /1.0/identifiers/{did} and return the result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resolver, type DIDResolutionResult } from 'did-resolver';
import { createTestApp, randomAddress, signIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let base: string;
let resolver: Resolver;

beforeAll(async () => {
  app = await createTestApp({ config: { didResolverRateLimit: 5 } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  resolver = new Resolver({
    credence: async (did): Promise<DIDResolutionResult> =>
      (await fetch(`${base}/1.0/identifiers/${encodeURIComponent(did)}`)).json() as Promise<DIDResolutionResult>,
  });
});
afterAll(async () => {
  await app?.close();
});

const get = (did: string, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'GET',
    url: `/1.0/identifiers/${did}`,
    headers,
    remoteAddress: `127.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
  });

describe('GET /1.0/identifiers/{did}', () => {
  it('resolves a registered DID for did-resolver without any API key, in the DID resolution result format', async () => {
    const wallet = randomAddress();
    const reg = await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: wallet, chainId: 10 } });
    const did = reg.json().did as string;
    const result = await resolver.resolve(did);
    expect(result.didResolutionMetadata.error).toBeUndefined();
    expect(result.didResolutionMetadata.contentType).toBe('application/did+ld+json');
    expect(result.didDocument?.id).toBe(did);
    expect(result.didDocument?.verificationMethod?.[0].blockchainAccountId?.toLowerCase()).toBe(`eip155:10:${wallet}`);
    expect(result.didDocumentMetadata.created).toBe(new Date(reg.json().createdAt).toISOString());

    const raw = await fetch(`${base}/1.0/identifiers/${did}`);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/^application\/ld\+json;/);
    expect(raw.headers.get('content-type')).toContain('profile="https://w3id.org/did-resolution"');
    expect(((await raw.json()) as Record<string, unknown>)['@context']).toBe('https://w3id.org/did-resolution/v1');
    // the short form and any hex case reach the same document
    expect((await resolver.resolve(`did:credence:${wallet.toUpperCase().replace('0X', '0x')}`)).didResolutionMetadata.error).toBe(
      'notFound',
    );
    const onChain10 = await get(`did:credence:10:${wallet.toUpperCase().replace('0X', '0x')}`);
    expect(onChain10.json().didDocument.id).toBe(did);
  });

  it('gives the DID document alone when asked for application/did+ld+json', async () => {
    const wallet = randomAddress();
    await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: wallet } });
    const res = await get(`did:credence:${wallet}`, { accept: 'application/did+ld+json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/did+ld+json');
    expect(res.json()).toMatchObject({ id: `did:credence:1:${wallet}`, '@context': expect.any(Array) });
  });

  it('answers errors as resolution results: notFound 404, invalidDid 400, methodNotSupported 501, deactivated 410', async () => {
    const unknown = await resolver.resolve(`did:credence:1:${randomAddress()}`);
    expect(unknown.didResolutionMetadata.error).toBe('notFound');
    expect(unknown.didDocument).toBeNull();

    const cases: [string, number, string][] = [
      [`did:credence:1:${randomAddress()}`, 404, 'notFound'],
      ['did:credence:0x1234', 400, 'invalidDid'],
      ['not-a-did', 400, 'invalidDid'],
      [`did:ethr:${randomAddress()}`, 501, 'methodNotSupported'],
    ];
    for (const [did, status, error] of cases) {
      const res = await get(encodeURIComponent(did));
      expect(res.statusCode, did).toBe(status);
      expect(res.headers['content-type']).toContain('profile="https://w3id.org/did-resolution"');
      expect(res.json()).toMatchObject({
        '@context': 'https://w3id.org/did-resolution/v1',
        didDocument: null,
        didResolutionMetadata: { error },
        error: expect.any(String),
        details: expect.any(String),
      });
    }

    const owner = await signIn(app);
    const did = (await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })).json()
      .did;
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/identity/${did}`, headers: owner.auth })).statusCode).toBe(204);
    const gone = await get(did);
    expect(gone.statusCode).toBe(410);
    expect(gone.json()).toMatchObject({ didDocument: { id: did }, didDocumentMetadata: { deactivated: true } });
  });

  it('has its own per-IP limit (CREDENCE_DID_RESOLVER_RATE_LIMIT), while GET /identity/{did} still needs a key', async () => {
    const did = `did:credence:1:${randomAddress()}`;
    // 20 at once against a limit of 5 per second: the limiter sees them within the same second
    const burst = await Promise.all(
      Array.from({ length: 20 }, () => app.inject({ method: 'GET', url: `/1.0/identifiers/${did}`, remoteAddress: '127.99.1.1' })),
    );
    const limited = burst.find((r) => r.statusCode === 429);
    expect(limited, burst.map((r) => r.statusCode).join()).toBeDefined();
    expect(burst.filter((r) => r.statusCode === 404).length).toBeLessThanOrEqual(5);
    expect(limited!.json().error).toBe('rate_limited');
    expect(Number(limited!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // another client is not affected
    expect((await app.inject({ method: 'GET', url: `/1.0/identifiers/${did}`, remoteAddress: '127.99.1.2' })).statusCode).toBe(404);

    expect((await app.inject({ method: 'GET', url: `/api/v1/identity/${did}` })).statusCode).toBe(401);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const op = doc.paths['/1.0/identifiers/{did}'].get;
    expect(op.operationId).toBe('identity.resolveDidDocument');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '410', '429', '501']));
  });
});
