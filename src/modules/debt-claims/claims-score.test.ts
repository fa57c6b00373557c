// Each claim status moves the debtor's DEFI_LENDING score the way the spec's impact table says, through the real
// scoring service (runs when the scoring module is present).
import { describe, expect, it } from 'vitest';
import { randomAddress } from '../../../test/helpers/app.js';
import { claimsTestApp, fileClaim, post, goodBorrower as sharedGoodBorrower } from './test-helpers.js';
import { model } from '../scoring/params.js';

const UNVERIFIED_CAP = model.params.debtClaims.unverifiedCap;

const claims = claimsTestApp();

const goodBorrower = () => sharedGoodBorrower(claims.app);

const lending = async (wallet: string) =>
  (await claims.app.ctx.services.scoring!.getScore(wallet, 'DEFI_LENDING', { explain: false })).score;
const overall = async (wallet: string) => (await claims.app.ctx.services.scoring!.getScore(wallet, 'OVERALL', { explain: false })).score;
const viaHttpNote = 'a score read through the public route agrees';

describe('debt claims and the DEFI_LENDING score', () => {
  it('Pending lowers it, Disputed pauses that, Resolved for the debtor removes it, for the creditor lowers it more', async (t) => {
    if (!claims.app.ctx.services.scoring) return t.skip();
    const debtor = await goodBorrower();
    const base = await lending(debtor);
    const baseOverall = await overall(debtor);
    expect(base).toBeGreaterThan(300);

    const a = await fileClaim(claims.app, { debtorAddress: debtor });
    const pending = await lending(debtor);
    expect(pending).toBeLessThan(base); // minor negative
    expect(base - pending).toBeLessThan(100);
    expect(await overall(debtor)).toBeLessThanOrEqual(baseOverall);

    expect(
      (await post(claims.app, `/debt-claims/${a.claim.id}/dispute`, { debtorAddress: debtor, reason: 'I repaid this in March' }))
        .statusCode,
    ).toBe(200);
    expect(await lending(debtor)).toBe(base); // paused while under review

    expect(
      (
        await post(
          claims.app,
          `/debt-claims/${a.claim.id}/resolve`,
          { resolutionNotes: 'Repayment found on-chain', inFavorOf: 'debtor' },
          claims.admin.auth,
        )
      ).statusCode,
    ).toBe(200);
    expect(await lending(debtor)).toBe(base); // removed

    const b = await fileClaim(claims.app, { debtorAddress: debtor });
    expect(await lending(debtor)).toBe(pending);
    expect(
      (await post(claims.app, `/debt-claims/${b.claim.id}/resolve`, { resolutionNotes: 'The loan was never repaid' }, claims.admin.auth))
        .statusCode,
    ).toBe(200);
    const upheld = await lending(debtor);
    expect(upheld).toBeLessThan(pending); // significant negative, worse than an unverified claim
    expect(base - upheld).toBeGreaterThan(100);
    expect(await overall(debtor)).toBeLessThan(baseOverall);
  });

  it('withdrawing removes the impact; re-filing brings it back (history is not reset)', async (t) => {
    if (!claims.app.ctx.services.scoring) return t.skip();
    const debtor = await goodBorrower();
    const base = await lending(debtor);
    const a = await fileClaim(claims.app, { debtorAddress: debtor });
    const pending = await lending(debtor);
    expect(pending).toBeLessThan(base);
    expect((await post(claims.app, `/debt-claims/${a.claim.id}/withdraw`, { creditorAddress: a.body.creditorAddress })).statusCode).toBe(
      200,
    );
    expect(await lending(debtor)).toBe(base);
    await fileClaim(claims.app, { debtorAddress: debtor, creditorAddress: a.body.creditorAddress });
    expect(await lending(debtor)).toBe(pending);
    const signals = await claims.app.ctx.services.debtClaims!.signalsFor(debtor);
    expect(signals.map((s) => s.status)).toEqual(['Withdrawn', 'Pending']);
  });

  it('unverified claims from several creditors do not compound: capped (verified ones: claims-attacks.test.ts)', async (t) => {
    if (!claims.app.ctx.services.scoring) return t.skip();
    const debtor = await goodBorrower();
    const base = await lending(debtor);
    const creditor = randomAddress();
    await fileClaim(claims.app, { debtorAddress: debtor, creditorAddress: creditor });
    const one = base - (await lending(debtor));
    await fileClaim(claims.app, { debtorAddress: debtor, creditorAddress: creditor });
    expect(base - (await lending(debtor))).toBe(one);
    await fileClaim(claims.app, { debtorAddress: debtor });
    const two = base - (await lending(debtor));
    await fileClaim(claims.app, { debtorAddress: debtor });
    const three = base - (await lending(debtor));
    expect(one).toBeGreaterThan(0);
    expect(two).toBe(Math.min(2 * one, UNVERIFIED_CAP)); // no compounding among unverified claims
    expect(three).toBe(two); // capped
    expect(three).toBeLessThanOrEqual(UNVERIFIED_CAP);
    // The public route tells the same story.
    const key = await claims.app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: claims.admin.auth,
      payload: { organizationName: 'Score test', contactEmail: 'score@example.com', tier: 'Starter' },
    });
    const res = await claims.app.inject({ url: `/api/v1/reputation/${debtor}/DEFI_LENDING`, headers: { 'x-api-key': key.json().apiKey } });
    expect(res.statusCode, viaHttpNote).toBe(200);
    expect(res.json().score).toBe(base - three);
  });

  it('an open score dispute freezes nothing: claims keep moving the score while it is under review', async (t) => {
    if (!claims.app.ctx.services.scoring) return t.skip();
    const debtor = await goodBorrower();
    const base = await lending(debtor);
    const key = await claims.app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: claims.admin.auth,
      payload: { organizationName: 'Dispute test', contactEmail: 'd@example.com', tier: 'Starter' },
    });
    const dispute = await claims.app.inject({
      method: 'POST',
      url: '/api/v1/dispute',
      headers: { 'x-api-key': key.json().apiKey },
      payload: { walletAddress: debtor, category: 'DEFI_LENDING', reason: 'InaccurateScore', description: 'These claims are unfair to me' },
    });
    expect(dispute.statusCode).toBe(201);
    const a = await fileClaim(claims.app, { debtorAddress: debtor });
    const pending = await lending(debtor);
    expect(pending).toBeLessThan(base);
    await post(claims.app, `/debt-claims/${a.claim.id}/withdraw`, { creditorAddress: a.body.creditorAddress });
    const b = await fileClaim(claims.app, { debtorAddress: debtor, creditorAddress: a.body.creditorAddress });
    expect(await lending(debtor)).toBe(pending);
    await post(claims.app, `/debt-claims/${b.claim.id}/resolve`, { resolutionNotes: 'Debt confirmed by the protocol' }, claims.admin.auth);
    expect(await lending(debtor)).toBeLessThan(pending);
  });
});
