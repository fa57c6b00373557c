// Shared test data for the debt-claims tests (imported only by *.test.ts files).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { App } from '../../platform/http/types.js';
import { createTestApp, eventually, randomAddress, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';
import { createIngestionRepo } from '../ingestion/index.js';

/** A test file's app (claim rate limits out of the way, no notice period unless given) and admin, made before its
 *  tests and closed after. */
export function claimsTestApp(config: Record<string, unknown> = {}): { app: App; admin: SignedIn } {
  const t = {} as { app: App; admin: SignedIn };
  beforeAll(async () => {
    t.app = await createTestApp({
      config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000, claimNoticeHours: 0, ...config },
    });
    t.admin = await signInAdmin(t.app);
  });
  afterAll(async () => {
    await t.app?.close();
  });
  return t;
}

export const txHash = () => `0x${randomBytes(32).toString('hex')}`;

/** A debtor with a healthy lending history (Aave V3 and Compound V3 records over a year), scored, so that claims
 *  have a score to take points from. */
export async function goodBorrower(app: App): Promise<string> {
  const wallet = randomAddress();
  const kinds = ['lending_supply', 'lending_borrow', 'lending_repay', 'lending_supply', 'lending_borrow', 'lending_repay'] as const;
  const records = kinds.flatMap((kind, i) =>
    [0, 1, 2, 3].map((m) => ({
      chainId: 1,
      txHash: txHash(),
      logIndex: i,
      wallet,
      kind,
      blockNumber: 18_000_000 + m * 200_000 + i,
      // positions over time: $20k loans held ten days, four times a quarter apart
      occurredAt: new Date(Date.now() - (400 - m * 90 - i * 10) * 86_400_000),
      contract: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
      counterparty: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      tokenId: null,
      // repaid with $100 of interest each time (interest beyond what the cash earns parked backs the score)
      amount: kind === 'lending_repay' ? '20100000000' : '20000000000',
      direction: null,
      protocol: i < 3 ? 'aave-v3' : 'compound-v3',
      ref: null,
      valueUsd: kind === 'lending_repay' ? 20_100 : 20_000,
      txFrom: wallet,
    })),
  );
  // and the gas of each of its transactions (0.05 ETH each): what it lost, so the score is backed
  const fees = records.map((r) => ({
    ...r,
    logIndex: -5,
    kind: 'tx_fee',
    contract: null,
    counterparty: null,
    amount: '50000000000000000',
    direction: 'out',
    protocol: null,
    valueUsd: null,
  }));
  await createIngestionRepo(app.ctx.db).insertActivity([...records, ...fees] as never);
  await app.ctx.services.scoring!.recompute(wallet, 'ingestion');
  return wallet;
}

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
 * answers before it runs. Read from the job columns themselves, so "done" means the recompute committed; a claim in
 * its notice period keeps one job, due when the notice ends.
 */
export async function claimSettled(app: App, id: string, timeoutMs = 60_000) {
  await eventually(
    async () => {
      const [r] = await app.ctx.db.query<{ done: boolean }>(
        `SELECT evidence_status <> 'pending' AND job_lease_until IS NULL AND (job_due_at IS NULL OR job_due_at = notice_ends_at) AS done
         FROM debt_claims WHERE id = $1`,
        [id],
      );
      return r?.done === true;
    },
    { timeoutMs },
  );
}

export interface FiledClaim {
  id: string;
  status: string;
  creditorAddress: string;
  debtorAddress: string;
  verification: {
    creditorSignedIn: boolean;
    evidenceStatus: string;
    evidenceFound: boolean | null;
    evidenceProblem: string | null;
    evidenceValueUsd: number | null;
    creditorHasHistory: boolean | null;
    creditorWeight: number | null;
    verified: boolean;
    weight: number;
    noticeEndsAt: string | null;
    inNotice: boolean;
  };
}

/** Files a claim through HTTP and, unless told not to, waits for its job (so scores read after it are current). */
export async function fileClaim(
  app: App,
  over: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  opts: { settle?: boolean } = {},
) {
  const body = claimBody(over);
  const res = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: body, headers });
  if (res.statusCode !== 201) throw new Error(`file claim: ${res.statusCode} ${res.body}`);
  const claim = res.json() as FiledClaim;
  if (opts.settle !== false) await claimSettled(app, claim.id);
  return { body, claim };
}

export const post = (app: App, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, payload: payload as object, headers });
