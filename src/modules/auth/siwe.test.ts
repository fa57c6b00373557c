import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { decodeJwt, SignJWT } from 'jose';
import { adminWallet, createTestApp, signIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
const secrets: Record<string, string> = {};
beforeAll(async () => {
  app = await createTestApp({ secrets });
});
afterAll(() => app.close());

async function nonce(): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json().nonce;
}

function message(wallet: Wallet | ReturnType<typeof Wallet.createRandom>, n: string, extra: Partial<SiweMessage> = {}) {
  return new SiweMessage({
    domain: 'credence.test',
    address: wallet.address,
    uri: 'https://credence.test',
    version: '1',
    chainId: 1,
    nonce: n,
    issuedAt: new Date().toISOString(),
    ...extra,
  }).prepareMessage();
}

const verify = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload });

describe('GET /auth/nonce', () => {
  it('issues distinct alphanumeric nonces valid for five minutes', async () => {
    const a = (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json();
    const b = (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json();
    expect(a.nonce).toMatch(/^[A-Za-z0-9]{16,}$/);
    expect(a.nonce).not.toBe(b.nonce);
    const ttl = new Date(a.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(4 * 60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });
});

describe('POST /auth/verify', () => {
  it('signs in a real wallet and returns a one-hour JWT with checksummed sub and roles', async () => {
    const w = Wallet.createRandom();
    const msg = message(w, await nonce());
    const res = await verify({ message: msg, signature: await w.signMessage(msg) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600, address: w.address, roles: ['user'] });
    const claims = decodeJwt(body.token);
    expect(claims.sub).toBe(w.address);
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.roles).toEqual(['user']);
  });

  it('gives the admin role to CREDENCE_ADMIN_ADDRESSES', async () => {
    const s = await signIn(app, adminWallet);
    expect(decodeJwt(s.token).roles).toContain('admin');
  });

  it('refuses a reused nonce (single use)', async () => {
    const w = Wallet.createRandom();
    const msg = message(w, await nonce());
    const signature = await w.signMessage(msg);
    expect((await verify({ message: msg, signature })).statusCode).toBe(200);
    const again = await verify({ message: msg, signature });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('unauthorized');
  });

  it('refuses a nonce the service never issued', async () => {
    const w = Wallet.createRandom();
    const msg = message(w, 'abcdefgh12345678');
    expect((await verify({ message: msg, signature: await w.signMessage(msg) })).statusCode).toBe(401);
  });

  it('refuses a signature by another wallet', async () => {
    const w = Wallet.createRandom();
    const msg = message(w, await nonce());
    const res = await verify({ message: msg, signature: await Wallet.createRandom().signMessage(msg) });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a message for another domain', async () => {
    const w = Wallet.createRandom();
    const msg = message(w, await nonce(), { domain: 'evil.example' });
    const res = await verify({ message: msg, signature: await w.signMessage(msg) });
    expect(res.statusCode).toBe(401);
    expect(res.json().details).toContain('credence.test');
  });

  it('honours expirationTime and notBefore', async () => {
    const w = Wallet.createRandom();
    const expired = message(w, await nonce(), { expirationTime: new Date(Date.now() - 1000).toISOString() });
    expect((await verify({ message: expired, signature: await w.signMessage(expired) })).statusCode).toBe(401);
    const future = message(w, await nonce(), { notBefore: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await verify({ message: future, signature: await w.signMessage(future) })).statusCode).toBe(401);
  });

  it('rejects a malformed body with every offending field', async () => {
    const res = await verify({ message: '', signature: 'nothex' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    expect(body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['message', 'signature']);
    const garbage = await verify({ message: 'hello', signature: '0x1234' });
    expect(garbage.statusCode).toBe(400);
  });
});

describe('JWT-protected routes', () => {
  const create = (headers: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/v1/billing/api-keys', headers, payload: { organizationName: 'Org', contactEmail: 'a@b.co' } });

  it('401 without a token, with a garbage token, with a token signed by another secret, and with an expired one', async () => {
    expect((await create({})).statusCode).toBe(401);
    expect((await create({ authorization: 'Bearer not.a.jwt' })).statusCode).toBe(401);
    const forged = await new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(Wallet.createRandom().address)
      .setIssuer('credence')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret'));
    expect((await create({ authorization: `Bearer ${forged}` })).statusCode).toBe(401);
    const expired = await new SignJWT({ roles: ['user'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(Wallet.createRandom().address)
      .setIssuer('credence')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(secrets['jwt-secret']));
    expect((await create({ authorization: `Bearer ${expired}` })).statusCode).toBe(401);
    const s = await signIn(app);
    expect((await create(s.auth)).statusCode).toBe(201);
    const res = await create({ authorization: 'Basic abc' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', details: expect.any(String) });
  });
});
