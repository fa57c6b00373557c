// Attacks through debt claims replayed through the HTTP API against a real chain (in-process Hardhat served over
// JSON-RPC as CREDENCE_RPC_URL_1): invented creditors, placeholder evidence, a revision erased by one claim. Each now
// fails for the attacker, while verified claims from independent creditors still compound as the spec's table says.
import { HDNodeWallet, Mnemonic } from 'ethers';
import { encodeFunctionData, parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import type { App } from '../../platform/http/types.js';
import { artifact, chainClient, PINNED } from '../../../scripts/scenarios.js';
import { claimBody, claimSettled, fileClaim, post, txHash, type FiledClaim, goodBorrower as sharedGoodBorrower } from './test-helpers.js';
import { model } from '../scoring/params.js';

const { pendingPenalty } = model;
const CREDITOR_MIN_WEIGHT = model.params.debtClaims.creditorMinWeight;
const UNVERIFIED_CAP = model.params.debtClaims.unverifiedCap;

/** Hardhat's default accounts come from this mnemonic, so a test can sign in as the node's funded accounts. */
const HARDHAT_MNEMONIC = Mnemonic.fromPhrase('test test test test test test test test test test test junk');
const account = (i: number) => HDNodeWallet.fromMnemonic(HARDHAT_MNEMONIC, `m/44'/60'/0'/0/${i}`);

let chain: LocalChain;
let app: App;
let admin: SignedIn;
let key: TestKey;

beforeAll(async () => {
  chain = await startLocalChain({ accounts: 12 });
  // no notice period and no minimum evidence age here: these tests are about verification and weights
  // (claims-cost.test.ts covers the notice, the evidence age and creditors with costly histories)
  app = await createTestApp({
    config: {
      rpcUrls: { 1: chain.url },
      claimsPerIpPerMinute: 100_000,
      claimsPerCreditorPerMinute: 100_000,
      claimNoticeHours: 0,
      claimMinEvidenceAgeHours: 0,
    },
  });
  // USDC's mock at mainnet USDC's address: a principal the registry prices (1 USD per unit)
  const c = chainClient(chain.url);
  await c.pinAt(await c.deploy(chain.accounts[0], 'MockERC20Six', ['USD Coin', 'USDC']), PINNED.usdc);
  admin = await signInAdmin(app);
  key = await createKey(app, 'Growth');
}, 120_000);
afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

const goodBorrower = () => sharedGoodBorrower(app);

/** A score through the public route, as an integrator reads it. */
async function score(wallet: string, category: 'DEFI_LENDING' | 'OVERALL'): Promise<number> {
  const res = await app.inject({ url: `/api/v1/reputation/${wallet}/${category}`, headers: key.headers });
  expect(res.statusCode).toBe(200);
  return res.json().score;
}

const send = (from: string, to: string, value = '0x1') => chain.request('eth_sendTransaction', [{ from, to, value }]) as Promise<string>;
const usdcAbi = () => artifact('MockERC20Six').abi;
/** A principal of `usdc` USDC from `from` to `to` (minted to `from` first by the node's first account). */
async function lendUsdc(from: string, to: string, usdc = 500): Promise<string> {
  const amount = parseUnits(String(usdc), 6);
  await chain.request('eth_sendTransaction', [
    { from: chain.accounts[0], to: PINNED.usdc, data: encodeFunctionData({ abi: usdcAbi(), functionName: 'mint', args: [from, amount] }) },
  ]);
  return chain.request('eth_sendTransaction', [
    { from, to: PINNED.usdc, data: encodeFunctionData({ abi: usdcAbi(), functionName: 'transfer', args: [to, amount] }) },
  ]) as Promise<string>;
}

/** A creditor that is a wallet of its own: on-chain history, then a loan to the debtor as evidence, then sign-in. */
async function verifiedClaim(i: number, debtor: string): Promise<FiledClaim> {
  const w = account(i);
  const from = w.address.toLowerCase();
  await send(from, randomAddress()); // history of its own, before the evidence
  const evidence = await lendUsdc(from, debtor);
  const me = await signIn(app, w);
  const { claim } = await fileClaim(app, { creditorAddress: w.address, debtorAddress: debtor, evidenceTransactionHash: evidence }, me.auth);
  return claim;
}

const getClaim = async (id: string) => (await app.inject({ url: `/api/v1/debt-claims/${id}` })).json() as FiledClaim;

describe('claims that cannot be weaponized', () => {
  it('four anonymous claims with invented creditors: placeholder evidence is refused, random hashes move DEFI_LENDING by at most the cap', async () => {
    const debtor = await goodBorrower();
    const base = await score(debtor, 'DEFI_LENDING');
    expect(base).toBeGreaterThan(UNVERIFIED_CAP);

    // The exact attack: all-zero evidence hash -> 400, nothing stored.
    for (let i = 0; i < 4; i++) {
      const res = await post(app, '/debt-claims', claimBody({ debtorAddress: debtor, evidenceTransactionHash: `0x${'0'.repeat(64)}` }));
      expect(res.statusCode).toBe(400);
    }
    expect((await app.inject({ url: `/api/v1/debt-claims/debtor/${debtor}` })).json().claimCount).toBe(0);

    // The same with invented hashes: stored, checked against the chain, not found -> unverified.
    const filed: FiledClaim[] = [];
    for (let i = 0; i < 4; i++) filed.push((await fileClaim(app, { debtorAddress: debtor, evidenceTransactionHash: txHash() })).claim);
    for (const c of filed) {
      expect((await getClaim(c.id)).verification).toMatchObject({
        creditorSignedIn: false,
        evidenceStatus: 'not_found',
        evidenceFound: false,
        creditorHasHistory: false,
        verified: false,
        weight: 0.25,
      });
    }
    const after = await score(debtor, 'DEFI_LENDING');
    expect(base - after).toBeLessThanOrEqual(UNVERIFIED_CAP);
    expect(base - after).toBeLessThanOrEqual(40);
    expect(base - after).toBeGreaterThan(0); // still the spec's "minor negative (unverified)"
  });

  it('verified claims from independent creditors compound over their weights: fresh creditors a quarter each (full weight: claims-cost.test.ts)', async () => {
    const debtor = await goodBorrower();
    const base = await score(debtor, 'DEFI_LENDING');
    expect(base).toBeGreaterThanOrEqual(240);
    const drops: number[] = [];
    for (const i of [1, 2, 3]) {
      const c = await verifiedClaim(i, debtor);
      expect((await getClaim(c.id)).verification).toMatchObject({
        creditorSignedIn: true,
        evidenceStatus: 'found',
        evidenceFound: true,
        evidenceValueUsd: 500,
        creditorHasHistory: true,
        verified: true,
        creditorWeight: CREDITOR_MIN_WEIGHT,
        weight: CREDITOR_MIN_WEIGHT,
      });
      drops.push(base - (await score(debtor, 'DEFI_LENDING')));
    }
    // 40 x n x (1 + 0.5 (n - 1)) over n = 0.25, 0.5, 0.75 (scores are whole numbers: within one point)
    const expected = [1, 2, 3].map((n) => pendingPenalty(n * CREDITOR_MIN_WEIGHT));
    drops.forEach((d, i) => expect(Math.abs(d - expected[i])).toBeLessThanOrEqual(1));
    expect(drops[2]).toBeLessThan(40);
  });

  it('each verification fact is needed: no sign-in, evidence with someone else, or a creditor with no history of its own', async () => {
    const debtor = await goodBorrower();
    // anonymous filer, real evidence between the parties, creditor with history: not signed in
    const a = account(4).address.toLowerCase();
    await send(a, randomAddress());
    const anon = await fileClaim(app, { creditorAddress: a, debtorAddress: debtor, evidenceTransactionHash: await lendUsdc(a, debtor) });
    expect((await getClaim(anon.claim.id)).verification).toMatchObject({
      creditorSignedIn: false,
      evidenceFound: true,
      creditorHasHistory: true,
      verified: false,
    });
    // signed in, history, but the evidence pays a third party
    const b = account(5);
    await send(b.address.toLowerCase(), randomAddress());
    const other = await fileClaim(
      app,
      {
        creditorAddress: b.address,
        debtorAddress: debtor,
        evidenceTransactionHash: await lendUsdc(b.address.toLowerCase(), randomAddress()),
      },
      (await signIn(app, b)).auth,
    );
    expect((await getClaim(other.claim.id)).verification).toMatchObject({
      creditorSignedIn: true,
      evidenceStatus: 'not_found',
      evidenceProblem: 'no_value_to_debtor',
      verified: false,
    });
    // signed in, evidence to the debtor, but that evidence is the creditor's first transaction ever
    const c = account(6);
    const fresh = await fileClaim(
      app,
      { creditorAddress: c.address, debtorAddress: debtor, evidenceTransactionHash: await lendUsdc(c.address.toLowerCase(), debtor) },
      (await signIn(app, c)).auth,
    );
    expect((await getClaim(fresh.claim.id)).verification).toMatchObject({
      creditorSignedIn: true,
      evidenceFound: true,
      creditorHasHistory: false,
      verified: false,
    });
  });

  it("an anonymous claim leaves an admin's revisedScore in place (less at most the cap); withdrawing restores it exactly", async () => {
    const debtor = await goodBorrower();
    const dispute = await app.inject({
      method: 'POST',
      url: '/api/v1/dispute',
      headers: key.headers,
      payload: {
        walletAddress: debtor,
        category: 'DEFI_LENDING',
        reason: 'MissingActivity',
        description: 'Repayments on Aave are missing',
      },
    });
    expect(dispute.statusCode).toBe(201);
    const revise = await app.inject({
      method: 'PUT',
      url: `/api/v1/dispute/${dispute.json().id}/status`,
      headers: admin.auth,
      payload: { status: 'Resolved', revisedScore: 800, resolutionNotes: 'Repayments confirmed by the risk desk', resolvedBy: 'Risk desk' },
    });
    expect(revise.statusCode).toBe(200);
    expect(await score(debtor, 'DEFI_LENDING')).toBe(800);
    const overall = await score(debtor, 'OVERALL');

    const one = await fileClaim(app, { debtorAddress: debtor });
    const afterOne = await score(debtor, 'DEFI_LENDING');
    expect(afterOne).toBeLessThan(800);
    expect(800 - afterOne).toBeLessThanOrEqual(UNVERIFIED_CAP);
    const more: Awaited<ReturnType<typeof fileClaim>>[] = [one];
    for (let i = 0; i < 3; i++) more.push(await fileClaim(app, { debtorAddress: debtor }));
    expect(800 - (await score(debtor, 'DEFI_LENDING'))).toBeLessThanOrEqual(UNVERIFIED_CAP);
    expect(overall - (await score(debtor, 'OVERALL'))).toBeLessThanOrEqual(UNVERIFIED_CAP);

    for (const c of more)
      expect((await post(app, `/debt-claims/${c.claim.id}/withdraw`, { creditorAddress: c.body.creditorAddress })).statusCode).toBe(200);
    expect(await score(debtor, 'DEFI_LENDING')).toBe(800);
    expect(await score(debtor, 'OVERALL')).toBe(overall);

    // A verified claim weighs by its creditor (a fresh one: a quarter), and still shifts the revision rather than erasing it.
    const v = await verifiedClaim(7, debtor);
    expect(await score(debtor, 'DEFI_LENDING')).toBe(Math.round(800 - pendingPenalty(CREDITOR_MIN_WEIGHT)));
    expect(
      (await post(app, `/debt-claims/${v.id}/withdraw`, { creditorAddress: v.creditorAddress }, (await signIn(app, account(7))).auth))
        .statusCode,
    ).toBe(200);
    expect(await score(debtor, 'DEFI_LENDING')).toBe(800);
  });
});

describe('POST /debt-claims answers before the recompute, and a crash after commit loses nothing', () => {
  it('answers 201 while the score recompute cannot finish; the score follows once it can', async () => {
    const debtor = await goodBorrower();
    const base = await score(debtor, 'DEFI_LENDING');
    const scoring = app.ctx.services.scoring!;
    const real = scoring.recompute.bind(scoring);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let waiting = 0;
    scoring.recompute = async (...args: Parameters<typeof real>) => {
      waiting++;
      await gate; // a recompute stuck behind a slow database or a busy instance
      return real(...args);
    };
    try {
      const { claim } = await fileClaim(app, { debtorAddress: debtor }, {}, { settle: false });
      // the response came back with the recompute still held: the claim is stored, its job pending
      expect(claim.status).toBe('Pending');
      await eventually(async () => waiting > 0);
      const [row] = await app.ctx.db.query<{ job_due_at: Date | null }>('SELECT job_due_at FROM debt_claims WHERE id = $1', [claim.id]);
      expect(row.job_due_at).not.toBeNull();
      release();
      await claimSettled(app, claim.id);
      expect(await score(debtor, 'DEFI_LENDING')).toBeLessThan(base);
    } finally {
      release();
      scoring.recompute = real;
    }
  });

  it('a claim committed by an instance that died before its job ran is checked and scored by the claims worker', async () => {
    const debtor = await goodBorrower();
    const base = await score(debtor, 'DEFI_LENDING');
    // Exactly what the create transaction commits (the claim row with its job due), with no instance running it:
    // the state a kill -9 right after COMMIT leaves behind. A second row was leased by a worker that then died.
    const { createClaimsRepo } = await import('./repo.js');
    const repo = createClaimsRepo(app.ctx.db);
    const row = (creditor: string) => ({
      creditorAddress: creditor,
      debtorAddress: debtor,
      claimType: 'DefaultedLoan',
      amount: '10',
      currency: 'USDC',
      description: 'written before a crash',
      evidenceTransactionHash: txHash(),
      chainId: 1,
      protocolName: 'Aave',
      createdBy: null,
      createdIp: '127.0.0.1',
      creditorSignedIn: false,
      noticeHours: 0,
    });
    const orphan = await app.ctx.db.tx((q) => repo.insert(row(randomAddress()), q));
    const leased = await app.ctx.db.tx((q) => repo.insert(row(randomAddress()), q));
    await app.ctx.db.query(`UPDATE debt_claims SET job_lease_until = clock_timestamp() + interval '3 seconds' WHERE id = $1`, [leased.id]);
    await claimSettled(app, orphan.id);
    await claimSettled(app, leased.id);
    expect((await getClaim(orphan.id)).verification.evidenceStatus).toBe('not_found');
    expect((await getClaim(leased.id)).verification.evidenceStatus).toBe('not_found');
    const after = await score(debtor, 'DEFI_LENDING');
    expect(after).toBeLessThan(base);
    expect(base - after).toBeLessThanOrEqual(UNVERIFIED_CAP);
  });
});
