// Shared test data for the debt-claims tests (imported only by *.test.ts files).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../platform/http/types.js';
import { createTestApp, eventually, randomAddress, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';

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

/**
 * Waits until a claim's background job (evidence check, then the debtor's recompute) is done: POST /debt-claims
 * answers before it runs. Read from the job column itself, so "done" means the recompute committed.
 */
export async function claimSettled(app: App, id: string, timeoutMs = 60_000) {
  await eventually(
    async () => {
      const [r] = await app.ctx.db.query<{ job_due_at: Date | null }>('SELECT job_due_at FROM debt_claims WHERE id = $1', [id]);
      return r && r.job_due_at === null;
    },
    { timeoutMs },
  );
}

export interface FiledClaim {
  id: string;
  status: string;
  creditorAddress: string;
  debtorAddress: string;
  verification: { creditorSignedIn: boolean; evidenceStatus: string; evidenceFound: boolean | null; creditorHasHistory: boolean | null; verified: boolean; weight: number };
}

/** Files a claim through HTTP and, unless told not to, waits for its job (so scores read after it are current). */
export async function fileClaim(app: App, over: Record<string, unknown> = {}, headers: Record<string, string> = {}, opts: { settle?: boolean } = {}) {
  const body = claimBody(over);
  const res = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: body, headers });
  if (res.statusCode !== 201) throw new Error(`file claim: ${res.statusCode} ${res.body}`);
  const claim = res.json() as FiledClaim;
  if (opts.settle !== false) await claimSettled(app, claim.id);
  return { body, claim };
}

export const post = (app: App, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });
