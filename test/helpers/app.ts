// Boots the real app for a test (no port unless asked) with its own fresh database, and signs in like a client.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Wallet, type HDNodeWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import type { App } from '../../src/platform/http/types.js';
import { testDatabase } from './db.js';
import { installResponseCheck } from './openapi-check.js';
import { siweDomainsOf } from '../../src/modules/auth/service.js';

/** An admin wallet known to every test app (listed in CREDENCE_ADMIN_ADDRESSES). */
export const adminWallet: HDNodeWallet = Wallet.createRandom();

export const redisUrl = () => process.env.CREDENCE_TEST_REDIS_URL || null;

export interface TestAppOptions {
  config?: Partial<Config>;
  /** Secrets shared between apps (two instances of one deployment). */
  secrets?: Record<string, string>;
  /** Start from this database instead of a fresh one (restart tests). */
  db?: Awaited<ReturnType<typeof testDatabase>>;
  /** Extra routes for platform tests, added before the app is ready. */
  beforeReady?: (app: App) => void | Promise<void>;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    databaseUrl: 'pglite://memory',
    dataDir: mkdtempSync(path.join(tmpdir(), 'credence-data-')),
    logLevel: 'silent',
    ipRateLimit: 100_000,
    webhookAllowPrivate: true,
    redisUrl: redisUrl(),
    redisPrefix: `credence-test:${randomBytes(6).toString('hex')}:`,
    adminAddresses: [adminWallet.address.toLowerCase()],
    siweDomain: 'credence.test',
    // most test apps never prove: their threads start on first use
    proverWarmup: false,
    // tests start with no sanctions list (fail-closed cases); the shipped snapshot's own tests turn it on
    sanctionsSnapshot: false,
    ...overrides,
  };
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<App> {
  const db = opts.db ?? (await testDatabase());
  const app = await buildApp(testConfig(opts.config), { db, logger: false, secrets: opts.secrets ?? {} });
  // every response of every test is checked against the published OpenAPI document
  installResponseCheck(app as never);
  await opts.beforeReady?.(app);
  await app.ready();
  return app;
}

export interface SignedIn {
  token: string;
  wallet: HDNodeWallet | Wallet;
  address: string;
  auth: { authorization: string };
}

/** A signed EIP-4361 message for the app's own sign-in domain (CREDENCE_SIWE_DOMAIN, else its public URL's host). */
export async function siweSigned(app: App, wallet: HDNodeWallet | Wallet): Promise<{ message: string; signature: string }> {
  const nonceRes = await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' });
  if (nonceRes.statusCode !== 200) throw new Error(`nonce: ${nonceRes.statusCode} ${nonceRes.body}`);
  const { nonce } = nonceRes.json();
  const domain = siweDomainsOf(app.ctx.config)[0];
  const message = new SiweMessage({
    domain,
    address: wallet.address,
    statement: 'Sign in to Credence',
    uri: `https://${domain}`,
    version: '1',
    chainId: app.ctx.config.siweChainIds[0] ?? 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  return { message, signature: await wallet.signMessage(message) };
}

/** The full Sign-In with Ethereum flow with a real ethers wallet. */
export async function signIn(app: App, wallet: HDNodeWallet | Wallet = Wallet.createRandom()): Promise<SignedIn> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/verify', payload: await siweSigned(app, wallet) });
  if (res.statusCode !== 200) throw new Error(`verify: ${res.statusCode} ${res.body}`);
  const { token } = res.json();
  return { token, wallet, address: wallet.address, auth: { authorization: `Bearer ${token}` } };
}

export const signInAdmin = (app: App) => signIn(app, adminWallet);

export interface TestKey {
  apiKey: string;
  id: string;
  tier: string;
  owner: SignedIn;
  headers: { 'x-api-key': string };
}

/** Creates an API key of the given tier (paid tiers through an admin JWT, as decisions.md allows). */
export async function createKey(app: App, tier: 'Free' | 'Starter' | 'Growth' | 'Enterprise' = 'Free', owner?: SignedIn): Promise<TestKey> {
  const who = owner ?? (tier === 'Free' ? await signIn(app) : await signInAdmin(app));
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/api-keys',
    headers: who.auth,
    payload: { organizationName: 'Test Org', contactEmail: 'dev@example.com', tier },
  });
  if (res.statusCode !== 201) throw new Error(`api-keys: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { apiKey: body.apiKey, id: body.id, tier: body.tier, owner: who, headers: { 'x-api-key': body.apiKey } };
}

/** A test-mode key (cred_test_...): any signed-in wallet may make one, of any tier (an admin for paid tiers). */
export async function createTestModeKey(app: App, owner?: SignedIn): Promise<TestKey> {
  const who = owner ?? (await signIn(app));
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/api-keys',
    headers: who.auth,
    payload: { organizationName: 'Sandbox Org', contactEmail: 'dev@example.com', environment: 'test' },
  });
  if (res.statusCode !== 201) throw new Error(`api-keys (test): ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { apiKey: body.apiKey, id: body.id, tier: body.tier, owner: who, headers: { 'x-api-key': body.apiKey } };
}

/** A random lowercase address for test data. */
export const randomAddress = () => Wallet.createRandom().address.toLowerCase();

/** Polls until fn returns a truthy value (never a fixed sleep). */
export async function eventually<T>(fn: () => Promise<T> | T, { timeoutMs = 10_000, intervalMs = 25 } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
