// Unverified claims cannot be weaponized: a small, capped, non-compounding signal; verified ones follow the table,
// scaled by their creditors' weight; nothing counts during the debtor's notice period; no claim raises confidence.
import { describe, expect, it } from 'vitest';
import type { DebtClaimSignal } from '../contracts.js';
import { claimsKey, summarizeClaims as summarizeWith } from './debt-claims.js';
import { emptyFeatures } from './index.js';
import { model } from '../params.js';

const { claimPoints, creditorWeight, pendingPenalty, scoreCategories, unverifiedPenalty } = model;
const CREDITOR_FULL_WEIGHT_SCORE = model.params.debtClaims.creditorFullWeightScore;
const CREDITOR_MIN_WEIGHT = model.params.debtClaims.creditorMinWeight;
const PENDING_CAP = model.params.debtClaims.pendingCap;
const UNVERIFIED_CAP = model.params.debtClaims.unverifiedCap;
const summarizeClaims = (claims: DebtClaimSignal[]) => summarizeWith(claims, model.params.debtClaims);

let seq = 0;
const creditor = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const claim = (i: number, verified: boolean, status: DebtClaimSignal['status'] = 'Pending'): DebtClaimSignal => ({
  id: `c${++seq}`,
  creditorAddress: creditor(i),
  status,
  inFavorOf: null,
  amount: '1',
  currency: 'USDC',
  createdAt: new Date('2026-01-02T00:00:00Z'),
  verified,
});

describe('debt claim weights', () => {
  it('the spec table holds for verified claims from independent creditors: 40, 120, 240, 400', () => {
    expect([1, 2, 3, 4, 5].map(pendingPenalty)).toEqual([40, 120, 240, 400, 400]);
    expect(claimPoints([claim(1, true), claim(2, true), claim(3, true)])).toBe(-240);
    expect(PENDING_CAP).toBe(400);
  });

  it('unverified claims are capped and do not compound, however many creditors are invented', () => {
    expect(claimPoints([claim(1, false)])).toBe(-10);
    const many = Array.from({ length: 200 }, (_, i) => claim(i + 1, false));
    expect(claimPoints(many)).toBe(-UNVERIFIED_CAP);
    expect(unverifiedPenalty(1000)).toBe(UNVERIFIED_CAP);
    expect(UNVERIFIED_CAP).toBeLessThanOrEqual(40);
    // a claim whose verification is unknown (older data, no flag) is unverified
    expect(claimPoints([{ ...claim(1, true), verified: undefined }])).toBe(-10);
  });

  it('unverified claims do not raise the compounding of verified ones', () => {
    const verifiedOnly = claimPoints([claim(1, true)]);
    const withJunk = claimPoints([claim(1, true), ...[2, 3, 4, 5].map((i) => claim(i, false))]);
    expect(verifiedOnly).toBe(-40);
    expect(withJunk).toBe(-40 - UNVERIFIED_CAP);
    // a verified creditor's own unverified claims add nothing beside its verified one
    expect(summarizeClaims([claim(1, true), claim(1, false)]).unverifiedCreditors).toBe(0);
  });

  it('four unverified claims lower DEFI_LENDING by at most the cap and move its confidence by nothing more than claims do', () => {
    const f = emptyFeatures(creditor(99));
    f.lending = { supplies: 6, borrows: 6, repays: 6, liquidations: 0, protocols: 2 };
    f.activeMonths = 12;
    f.chains = [1];
    const lending = (claims: DebtClaimSignal[]) => scoreCategories({ features: f, claims }).find((r) => r.category === 'DEFI_LENDING')!;
    const base = lending([]).score;
    const attacked = lending([1, 2, 3, 4].map((i) => claim(i, false)));
    expect(base - attacked.score).toBeLessThanOrEqual(UNVERIFIED_CAP);
    expect(attacked.factors.map((x) => x.code)).toContain('DEBT_CLAIM_PENDING_UNVERIFIED');
  });

  it('claims are no evidence of the wallet: no off-chain key (the decay anchor never moves for a claim)', () => {
    const c = claim(1, false);
    expect(claimsKey([c, { ...c, id: 'x', verified: true }, { ...c, id: 'y', status: 'Resolved', inFavorOf: 'creditor' }])).toBe('');
  });
});

describe('creditor weight, notice period, confidence', () => {
  const weighted = (i: number, w: number): DebtClaimSignal => ({ ...claim(i, true), creditorWeight: w });

  it('a creditor weighs by its own costly scores: a quarter with none, full from 500 in a costly category; SOCIAL, IDENTITY, COMPLIANCE and OVERALL do not count', () => {
    expect(creditorWeight([])).toBe(CREDITOR_MIN_WEIGHT);
    expect(
      creditorWeight([
        { category: 'OVERALL', score: 900 },
        { category: 'IDENTITY', score: 1000 },
        { category: 'COMPLIANCE', score: 1000 },
        { category: 'SOCIAL', score: 700 },
      ]),
    ).toBe(CREDITOR_MIN_WEIGHT);
    expect(creditorWeight([{ category: 'DEFI_LENDING', score: CREDITOR_FULL_WEIGHT_SCORE / 2 }])).toBe(0.625);
    expect(
      creditorWeight([
        { category: 'GOVERNANCE', score: 100 },
        { category: 'DEFI_TRADING', score: 800 },
      ]),
    ).toBe(1);
  });

  it('compounding runs over the summed weights: four fresh creditors together weigh what one established creditor does', () => {
    expect(claimPoints([1, 2, 3, 4].map((i) => weighted(i, CREDITOR_MIN_WEIGHT)))).toBe(-40);
    expect(claimPoints([1, 2, 3].map((i) => weighted(i, 1)))).toBe(-240);
    // a creditor counts once, at its largest weight
    expect(summarizeClaims([weighted(1, 0.25), weighted(1, 1)]).pendingWeight).toBe(1);
    // claims checked before weights existed (no weight) keep the full one
    expect(claimPoints([claim(1, true)])).toBe(-40);
    // a weight out of range is clamped
    expect(claimPoints([weighted(1, 7)])).toBe(-40);
    expect(claimPoints([weighted(1, 0)])).toBe(claimPoints([weighted(1, CREDITOR_MIN_WEIGHT)]));
  });

  it('nothing counts during the notice period, verified or not; a pinned factor says why', () => {
    const inNotice = [1, 2, 3, 4].map((i) => ({ ...weighted(i, 1), inNotice: true }));
    const unverified = [5, 6].map((i) => ({ ...claim(i, false), inNotice: true }));
    expect(claimPoints([...inNotice, ...unverified])).toBe(0);
    const s = summarizeClaims([...inNotice, ...unverified]);
    expect(s).toMatchObject({ inNotice: 6, pending: 0, pendingCreditors: 0, unverifiedCreditors: 0 });
    const f = emptyFeatures(creditor(98));
    const r = scoreCategories({ features: f, claims: inNotice }).find((x) => x.category === 'DEFI_LENDING')!;
    expect(r.factors.map((x) => x.code)).toContain('DEBT_CLAIM_IN_NOTICE');
  });

  it('no claim, in any status, raises DEFI_LENDING confidence', () => {
    const f = emptyFeatures(creditor(97));
    f.lending = {
      ...f.lending,
      supplies: 2,
      borrows: 1,
      repays: 1,
      protocols: 1,
      suppliedUsd: 5_000,
      borrowedUsd: 2_000,
      repaidUsd: 2_000,
    };
    f.chains = [1];
    const conf = (claims: DebtClaimSignal[]) =>
      scoreCategories({ features: f, claims }).find((x) => x.category === 'DEFI_LENDING')!.confidence;
    const base = conf([]);
    const all = [
      ...[1, 2, 3, 4].map((i) => weighted(i, 1)),
      ...[5, 6].map((i) => claim(i, false)),
      claim(7, true, 'Disputed'),
      { ...claim(8, true, 'Resolved'), inFavorOf: 'creditor' as const },
      { ...claim(9, true, 'Resolved'), inFavorOf: 'debtor' as const },
    ];
    expect(conf(all)).toBeLessThanOrEqual(base);
    for (const c of all) expect(conf([c])).toBeLessThanOrEqual(base);
    // a wallet with no lending of its own gains no confidence from claims either
    const empty = emptyFeatures(creditor(96));
    const c0 = scoreCategories({ features: empty, claims: [] }).find((x) => x.category === 'DEFI_LENDING')!.confidence;
    expect(scoreCategories({ features: empty, claims: all }).find((x) => x.category === 'DEFI_LENDING')!.confidence).toBe(c0);
  });
});
