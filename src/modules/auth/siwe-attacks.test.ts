// Sign-in attacks (EIP-4361 "Security Considerations"): each is reproduced through the real
// route and must be refused. The app under attack has no CREDENCE_SIWE_DOMAIN: its domain comes from
// CREDENCE_PUBLIC_URL, never from the Host header a relaying phishing site controls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { adminWallet, createTestApp, signIn } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';

let app: App;
const secrets: Record<string, string> = {};
const config = { siweDomain: null, publicUrl: 'https://api.credence.test', siweDomains: ['app.partner.test'] };
beforeAll(async () => {
  app = await createTestApp({ secrets, config });
});
afterAll(() => app.close());

async function nonce(): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json().nonce;
}

async function attempt(wallet: Wallet | ReturnType<typeof Wallet.createRandom>, fields: Partial<SiweMessage>, host?: string) {
  const domain = fields.domain ?? 'api.credence.test';
  const message = new SiweMessage({
    domain,
    address: wallet.address,
    uri: `https://${domain}/login`,
    version: '1',
    chainId: 1,
    nonce: await nonce(),
    issuedAt: new Date().toISOString(),
    ...fields,
  }).prepareMessage();
  const signature = await wallet.signMessage(message);
  return app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { message, signature }, headers: host ? { host } : {} });
}

describe('sign-in domain binding', () => {
  it('refuses a message signed on evil.example relayed with Host: evil.example (no CREDENCE_SIWE_DOMAIN)', async () => {
    const res = await attempt(adminWallet, { domain: 'evil.example' }, 'evil.example');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'unauthorized', details: expect.stringContaining('api.credence.test') });
  });

  it('accepts the host of CREDENCE_PUBLIC_URL whatever Host the request carries', async () => {
    const res = await attempt(Wallet.createRandom(), {}, 'evil.example');
    expect(res.statusCode).toBe(200);
  });

  it('accepts a further domain listed in CREDENCE_SIWE_DOMAINS, with its own uri', async () => {
    const res = await attempt(Wallet.createRandom(), { domain: 'app.partner.test', uri: 'https://app.partner.test/' });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a uri on a foreign domain', async () => {
    const res = await attempt(Wallet.createRandom(), { uri: 'https://evil.example/login' });
    expect(res.statusCode).toBe(401);
    expect(res.json().details).toContain('uri');
  });

  it('refuses a chainId outside the supported chains', async () => {
    const res = await attempt(Wallet.createRandom(), { chainId: 999999 });
    expect(res.statusCode).toBe(401);
    expect(res.json().details).toContain('chain');
  });

  it('refuses an issuedAt a year ahead, and accepts one a few seconds ahead (clock skew)', async () => {
    const ahead = await attempt(Wallet.createRandom(), { issuedAt: new Date(Date.now() + 365 * 86400_000).toISOString() });
    expect(ahead.statusCode).toBe(401);
    expect(ahead.json().details).toContain('issuedAt');
    const skewed = await attempt(Wallet.createRandom(), { issuedAt: new Date(Date.now() + 5_000).toISOString() });
    expect(skewed.statusCode).toBe(200);
  });
});

describe('configured chain ids', () => {
  it('CREDENCE_SIWE_CHAIN_IDS replaces the supported chains (a local chain 31337)', async () => {
    const local = await createTestApp({ config: { siweChainIds: [31337] } });
    try {
      const w = Wallet.createRandom();
      const sign = async (chainId: number) => {
        const n = (await local.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json().nonce;
        const message = new SiweMessage({
          domain: 'credence.test',
          address: w.address,
          uri: 'https://credence.test',
          version: '1',
          chainId,
          nonce: n,
          issuedAt: new Date().toISOString(),
        }).prepareMessage();
        return local.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: { message, signature: await w.signMessage(message) } });
      };
      expect((await sign(31337)).statusCode).toBe(200);
      expect((await sign(1)).statusCode).toBe(401);
    } finally {
      await local.close();
    }
  });
});

describe('admin rights follow the current settings', () => {
  it('an admin removed from CREDENCE_ADMIN_ADDRESSES loses admin at once, with an unexpired token', async () => {
    const db = await testDatabase();
    const { keepOpen } = await import('../../../test/helpers/db.js');
    const shared = keepOpen(db);
    const before = await createTestApp({ db: shared, secrets });
    const admin = await signIn(before, adminWallet);
    // an admin-only call: creating an Enterprise key
    const create = (a: App) =>
      a.inject({
        method: 'POST',
        url: '/api/v1/billing/api-keys',
        headers: admin.auth,
        payload: { organizationName: 'Org', contactEmail: 'a@b.co', tier: 'Enterprise' },
      });
    expect((await create(before)).statusCode).toBe(201);
    await before.close();
    // the same deployment restarted with the admin removed from the settings
    const after = await createTestApp({ db: shared, secrets, config: { adminAddresses: [] } });
    try {
      expect((await create(after)).statusCode).toBe(403);
      const res = await after.inject({
        method: 'PUT',
        url: '/api/v1/dispute/00000000-0000-4000-8000-000000000000/status',
        headers: admin.auth,
        payload: { status: 'Resolved' },
      });
      expect(res.statusCode).toBe(403);
    } finally {
      await after.close();
      await shared.reallyClose();
    }
  });
});
