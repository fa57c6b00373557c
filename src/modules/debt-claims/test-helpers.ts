// Shared test data for the debt-claims tests (imported only by *.test.ts files).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../platform/http/types.js';
import { createTestApp, randomAddress, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';

/** A test file's app (claim rate limits out of the way) and admin, made before its tests and closed after. */
export function claimsTestApp(): { app: App; admin: SignedIn } {
  const t = {} as { app: App; admin: SignedIn };
  beforeAll(async () => {
    t.app = await createTestApp({ config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000 } });
    t.admin = await signInAdmin(t.app);
  });
  afterAll(async () => {
    await t.app?.close();
  });
  return t;
}

export const txHash = () => `0x${randomBytes(32).toString('hex')}`;

export function claimBody(over: Record<string, unknown> = {}) {
  return {
    creditorAddress: randomAddress(),
    debtorAddress: randomAddress(),
    claimType: 'DefaultedLoan',
    amount: 1500.25,
    currency: 'USDC',
    description: 'Borrowed on Aave v3 and never repaid',
    evidenceTransactionHash: txHash(),
    chainId: 1,
    protocolName: 'Aave',
    ...over,
  };
}

export async function fileClaim(app: App, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = claimBody(over);
  const res = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: body, headers });
  if (res.statusCode !== 201) throw new Error(`file claim: ${res.statusCode} ${res.body}`);
  return { body, claim: res.json() as { id: string; status: string; creditorAddress: string; debtorAddress: string } };
}

export const post = (app: App, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });
