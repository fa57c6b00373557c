import { describe, it, expect } from 'vitest';
import type { DebtClaimSignal, WalletFeatures } from '../contracts.js';
import { CATEGORIES } from '../contracts.js';
import { decayConfidence, emptyFeatures, MODEL_VERSION, tierFor, type ModelInput } from './index.js';
import { EMPTY_POSITIONS } from './lending-positions.js';
import { sat, logCap, fingerprint } from './transforms.js';
import { model } from '../params.js';

const { composite, pendingPenalty, scoreWallet, upheldPenalty } = model;
const WEIGHTS = model.weights;

const ADDR = '0x00000000000000000000000000000000000000aa';
const byCat = (input: ModelInput) => Object.fromEntries(scoreWallet(input).map((r) => [r.category, r]));

function borrower(): WalletFeatures {
  const f = emptyFeatures(ADDR);
  f.chains = [1, 10];
  f.activeMonths = 8;
  f.lastActivityAt = new Date('2026-01-01T00:00:00Z');
  f.ageDays = 240;
  // model 2 scores value: a $40k borrower who repaid everything within two weeks
  f.lending = {
    supplies: 4,
    borrows: 5,
    repays: 5,
    liquidations: 0,
    protocols: 2,
    suppliedUsd: 64_000,
    borrowedUsd: 40_000,
    repaidUsd: 40_000,
    liquidatedUsd: 0,
    unvaluedSupplies: 0,
    unvaluedBorrows: 0,
    unvaluedRepays: 0,
    avgDaysToRepay: 14,
  };
  // model 4.0.0 scores conduct over time: twelve loans of ~$40k held two weeks each in twelve months, debt at a third
  // of the collateral, over 400 days; backed by $3,000 of gas and the interest net of what the cash earns parked
  f.lending.positions = {
    debtUsdDays: 2_800_000,
    collateralUsdDays: 28_800_000,
    interestUsd: 383,
    cycles: 12,
    cycleMonths: 12,
    avgCycleDays: 14,
    protocolsHeld: 2,
    spanDays: 400,
    creditDays: 400,
    ltvDays: 168 / 3,
    leveragedDays: 168,
    liquidationsAged: [],
  };
  f.gasUsd = { lending: 3_000, trading: 0, governance: 0, total: 3_000 };
  return f;
}

let claimSeq = 0;
function claim(
  status: DebtClaimSignal['status'],
  creditor = `0x${'c'.repeat(39)}1`,
  inFavorOf: DebtClaimSignal['inFavorOf'] = null,
): DebtClaimSignal {
  // verified: the spec's impact table applies in full (unverified claims: model/debt-claims.test.ts)
  return {
    id: `claim-${++claimSeq}`,
    creditorAddress: creditor,
    status,
    inFavorOf,
    amount: '100',
    currency: 'USDC',
    createdAt: new Date('2026-01-02T00:00:00Z'),
    verified: true,
  };
}
const creditor = (i: number) => `0x${i.toString(16).padStart(40, '0')}`;
const lendingScore = (claims: DebtClaimSignal[], f = borrower()) => byCat({ features: f, claims }).DEFI_LENDING;

describe('tiers', () => {
  it.each([
    [0, 'Very Low'],
    [199, 'Very Low'],
    [200, 'Low'],
    [399, 'Low'],
    [400, 'Medium'],
    [599, 'Medium'],
    [600, 'High'],
    [799, 'High'],
    [800, 'Very High'],
    [1000, 'Very High'],
  ])('score %i is %s', (score, tier) => {
    expect(tierFor(score)).toBe(tier);
  });
});

describe('decay', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
  it('is 5% per 30 days, compounding', () => {
    expect(decayConfidence(0.8, daysAgo(0), now)).toBe(0.8);
    expect(decayConfidence(0.8, daysAgo(30), now)).toBe(0.76);
    expect(decayConfidence(0.8, daysAgo(60), now)).toBe(0.722);
    expect(decayConfidence(1, daysAgo(15), now)).toBeCloseTo(Math.pow(0.95, 0.5), 3);
    expect(decayConfidence(0.9, daysAgo(365), now)).toBeCloseTo(0.9 * Math.pow(0.95, 365 / 30), 3);
  });
  it('never grows for an anchor in the future and leaves a missing anchor alone', () => {
    expect(decayConfidence(0.5, new Date(now.getTime() + 86_400_000), now)).toBe(0.5);
    expect(decayConfidence(0.5, null, now)).toBe(0.5);
  });
});

describe('transforms', () => {
  it('are bounded and monotone', () => {
    let prev = -1;
    for (const x of [0, 1, 2, 5, 10, 100, 1e6]) {
      const v = sat(x, 5);
      expect(v).toBeGreaterThanOrEqual(prev);
      expect(v).toBeLessThanOrEqual(1);
      prev = v;
    }
    expect(sat(-3, 5)).toBe(0);
    expect(logCap(0, 10)).toBe(0);
    expect(logCap(10, 10)).toBe(1);
    expect(logCap(1e9, 10)).toBe(1);
    expect(fingerprint('a')).not.toBe(fingerprint('b'));
  });
});

describe('OVERALL', () => {
  it('weights sum to 1 and cover the eight other categories', () => {
    const sum = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
    expect(sum).toBeCloseTo(1, 10);
    expect(Object.keys(WEIGHTS).sort()).toEqual(CATEGORIES.filter((c) => c !== 'OVERALL').sort());
  });
  it('is the weighted sum of the category scores', () => {
    const parts = CATEGORIES.filter((c) => c !== 'OVERALL').map((c, i) => ({
      category: c,
      score: 100 * (i + 1),
      confidence: 0.5,
      inputsKey: c,
    }));
    const expected = parts.reduce((a, p) => a + WEIGHTS[p.category as keyof typeof WEIGHTS] * p.score, 0);
    const o = composite(parts, false);
    expect(o.score).toBe(Math.round(expected));
    expect(o.confidence).toBe(0.5);
    // each category's factor is how far it pulled OVERALL from 500
    const lend = o.factors.find((f) => f.code === 'CATEGORY_DEFI_LENDING');
    expect(lend?.impact).toBe(Math.round(WEIGHTS.DEFI_LENDING * (100 - 500)));
  });
  it('moves by exactly the weight when one category moves', () => {
    const base = CATEGORIES.filter((c) => c !== 'OVERALL').map((c) => ({ category: c, score: 500, confidence: 0.5, inputsKey: c }));
    expect(composite(base, false).score).toBe(500);
    for (const [cat, w] of Object.entries(WEIGHTS)) {
      const moved = base.map((p) => (p.category === cat ? { ...p, score: 1000 } : p));
      expect(composite(moved, false).score).toBe(Math.round(500 + w * 500));
    }
  });
  it('is capped for a sanctioned wallet', () => {
    const parts = CATEGORIES.filter((c) => c !== 'OVERALL').map((c) => ({ category: c, score: 900, confidence: 0.9, inputsKey: c }));
    const o = composite(parts, true);
    expect(o.score).toBe(100);
    expect(o.factors.some((f) => f.code === 'SANCTIONED_CAP')).toBe(true);
  });

  // A wallet liquidated last week, with a year of activity elsewhere, against one that never did anything: the
  // category stops at 0, OVERALL must not.
  const liquidatedAt = (ageDays: number) => {
    const f = emptyFeatures(ADDR);
    f.chains = [1];
    f.activeMonths = 12;
    f.distinctCounterparties = 10;
    f.tokenTransfers = 40;
    f.lending.liquidations = 1;
    f.lending.liquidatedUsd = 30_000;
    f.lending.positions = {
      ...EMPTY_POSITIONS,
      debtUsdDays: 600_000,
      collateralUsdDays: 900_000,
      liquidationsAged: [{ usd: 30_000, ageDays }],
    };
    return f;
  };
  const overallOf = (f: WalletFeatures, claims: DebtClaimSignal[] = []) => byCat({ features: f, claims, compliance: clean }).OVERALL;
  const clean = { sanctioned: false, kycStatus: 'none', kycLevel: 'none' } as const;

  it('a liquidation last week ranks below a wallet that never did anything, one two years ago above it', () => {
    const fresh = overallOf(emptyFeatures(ADDR));
    const lastWeek = byCat({ features: liquidatedAt(7), compliance: clean });
    expect(lastWeek.DEFI_LENDING.score).toBe(0);
    expect(lastWeek.DEFI_LENDING.below).toBeGreaterThan(300);
    expect(lastWeek.OVERALL.score).toBeLessThan(fresh.score);
    expect(lastWeek.OVERALL.conduct).toBeLessThan(fresh.conduct);
    // the factor says how far lending pulled it down, below the 0 the category shows
    const lend = lastWeek.OVERALL.factors.find((x) => x.code === 'CATEGORY_DEFI_LENDING')!;
    expect(lend.description).toMatch(/DEFI_LENDING 0 \(weight 22%\), and \d+ points of liquidations or upheld claims below its 0/);
    expect(lend.impact).toBe(Math.round(WEIGHTS.DEFI_LENDING * (0 - lastWeek.DEFI_LENDING.below! - 500)));
    // recency still orders them: the same liquidation two years ago weighs its lasting part only
    const old = overallOf(liquidatedAt(730));
    expect(old.score).toBeGreaterThan(lastWeek.OVERALL.score);
    expect(old.score).toBeGreaterThan(fresh.score);
  });

  it('an upheld claim counts below 0; pending claims, which anyone can file, stop at the category 0', () => {
    const fresh = overallOf(emptyFeatures(ADDR));
    const pending = overallOf(
      emptyFeatures(ADDR),
      [1, 2, 3, 4].map((i) => claim('Pending', creditor(i))),
    );
    expect(pending.score).toBe(fresh.score);
    const upheld = byCat({ features: emptyFeatures(ADDR), claims: [claim('Resolved', creditor(1), 'creditor')], compliance: clean });
    expect(upheld.DEFI_LENDING.below).toBeGreaterThan(0);
    expect(upheld.OVERALL.score).toBeLessThan(fresh.score);
  });

  it('nothing below 0 leaves OVERALL the plain weighted sum', () => {
    const parts = CATEGORIES.filter((c) => c !== 'OVERALL').map((c) => ({ category: c, score: 300, confidence: 0.5, inputsKey: c }));
    expect(composite(parts, false).score).toBe(300);
    const below = parts.map((p) => (p.category === 'DEFI_LENDING' ? { ...p, score: 0, below: 200 } : p));
    expect(composite(below, false).score).toBe(Math.round(300 - WEIGHTS.DEFI_LENDING * 500));
  });
});

describe('debt claims on DEFI_LENDING', () => {
  const clean = lendingScore([]);
  it('a good borrower without claims scores high', () => {
    expect(clean.score).toBeGreaterThanOrEqual(700);
  });
  it('Pending is a minor negative', () => {
    const s = lendingScore([claim('Pending')]);
    expect(s.score).toBe(clean.score - 40);
    expect(s.factors.map((f) => f.code)).toContain('DEBT_CLAIM_PENDING');
  });
  it('Disputed pauses the impact', () => {
    const s = lendingScore([claim('Disputed')]);
    expect(s.score).toBe(clean.score);
    expect(s.factors.find((f) => f.code === 'DEBT_CLAIM_DISPUTED')?.impact).toBe(0);
  });
  it('Resolved in the creditor favour is a significant negative', () => {
    const s = lendingScore([claim('Resolved', creditor(1), 'creditor')]);
    expect(clean.score - s.score).toBeGreaterThanOrEqual(200);
    expect(clean.score - s.score).toBeGreaterThan(clean.score - lendingScore([claim('Pending')]).score);
    expect(s.factors.find((f) => f.code === 'DEBT_CLAIM_RESOLVED_FOR_CREDITOR')?.impact).toBeLessThanOrEqual(-200);
  });
  it('an upheld claim with no recorded outcome counts as creditor favour', () => {
    expect(lendingScore([claim('Resolved', creditor(1), null)]).score).toBe(
      lendingScore([claim('Resolved', creditor(1), 'creditor')]).score,
    );
  });
  it('Resolved in the debtor favour and Withdrawn have no impact', () => {
    expect(lendingScore([claim('Resolved', creditor(1), 'debtor')]).score).toBe(clean.score);
    expect(lendingScore([claim('Withdrawn')]).score).toBe(clean.score);
  });
  it('unresolved claims from several creditors compound', () => {
    const one = clean.score - lendingScore([claim('Pending', creditor(1))]).score;
    const two = clean.score - lendingScore([claim('Pending', creditor(1)), claim('Pending', creditor(2))]).score;
    const three = clean.score - lendingScore([1, 2, 3].map((i) => claim('Pending', creditor(i)))).score;
    expect(two).toBeGreaterThan(2 * one);
    expect(three).toBeGreaterThan(3 * one);
    expect(three - two).toBeGreaterThan(two - one);
    // several claims from the same creditor do not compound
    const sameCreditor = clean.score - lendingScore([claim('Pending', creditor(1)), claim('Pending', creditor(1))]).score;
    expect(sameCreditor).toBe(one);
    expect(pendingPenalty(10)).toBe(400);
  });
  it('more upheld claims lower it more, with a bound', () => {
    expect(upheldPenalty(2)).toBeGreaterThan(upheldPenalty(1));
    expect(upheldPenalty(100)).toBeLessThanOrEqual(600);
  });
  it('claims never raise the confidence of the category (they are no evidence of its own activity)', () => {
    const f = emptyFeatures(ADDR);
    expect(lendingScore([claim('Pending')], f).confidence).toBe(lendingScore([], f).confidence);
  });
});

describe('categories', () => {
  it('a wallet with no evidence scores low with low confidence, compliance neutral when screened clean', () => {
    const r = byCat({ features: emptyFeatures(ADDR), compliance: { sanctioned: false, kycStatus: 'none', kycLevel: 'none' } });
    for (const c of ['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER']) {
      expect(r[c].score, c).toBe(0);
      expect(r[c].confidence, c).toBe(0.05);
      expect(r[c].factors[0].code, c).toMatch(/^NO_/);
    }
    expect(r.COMPLIANCE.score).toBe(500);
    expect(r.COMPLIANCE.confidence).toBeLessThan(0.5);
    expect(r.OVERALL.score).toBe(Math.round(500 * WEIGHTS.COMPLIANCE));
    expect(r.OVERALL.confidence).toBeLessThan(0.2);
  });
  it('sanctioned means COMPLIANCE 0 with high confidence', () => {
    const f = borrower();
    const r = byCat({ features: f, compliance: { sanctioned: true, kycStatus: 'approved', kycLevel: 'full' } });
    expect(r.COMPLIANCE.score).toBe(0);
    expect(r.COMPLIANCE.confidence).toBeGreaterThan(0.8);
    expect(r.COMPLIANCE.factors[0].code).toBe('SANCTIONED');
    expect(r.OVERALL.score).toBeLessThanOrEqual(100);
  });
  it('KYC raises COMPLIANCE and IDENTITY, rejection lowers them', () => {
    const f = emptyFeatures(ADDR);
    const none = byCat({ features: f, compliance: { sanctioned: false, kycStatus: 'none', kycLevel: 'none' } });
    const basic = byCat({ features: f, compliance: { sanctioned: false, kycStatus: 'approved', kycLevel: 'basic' } });
    const full = byCat({ features: f, compliance: { sanctioned: false, kycStatus: 'approved', kycLevel: 'full' } });
    const rejected = byCat({ features: f, compliance: { sanctioned: false, kycStatus: 'rejected', kycLevel: 'none' } });
    expect(full.COMPLIANCE.score).toBeGreaterThan(basic.COMPLIANCE.score);
    expect(basic.COMPLIANCE.score).toBeGreaterThan(none.COMPLIANCE.score);
    expect(rejected.COMPLIANCE.score).toBeLessThan(none.COMPLIANCE.score);
    expect(full.IDENTITY.score).toBeGreaterThan(none.IDENTITY.score);
    expect(full.IDENTITY.confidence).toBeGreaterThan(none.IDENTITY.confidence);
  });
  it('DID, credentials and ENS raise IDENTITY', () => {
    const f = emptyFeatures(ADDR);
    const did = { did: `did:credence:1:${ADDR}`, hasDid: true, didCreatedAt: new Date(), activeCredentials: 0, controlProved: true };
    const a = byCat({ features: f }).IDENTITY.score;
    const b = byCat({ features: f, identity: did }).IDENTITY.score;
    const c = byCat({ features: f, identity: { ...did, activeCredentials: 2 } }).IDENTITY.score;
    f.identity.ensNames = 1;
    const d = byCat({ features: f, identity: { ...did, activeCredentials: 2 } }).IDENTITY.score;
    expect(a).toBeLessThan(b);
    expect(b).toBeLessThan(c);
    expect(c).toBeLessThan(d);
    // registration is public: a DID whose wallet never proved control earns nothing
    const unproven = byCat({ features: emptyFeatures(ADDR), identity: { ...did, controlProved: false } }).IDENTITY;
    expect(unproven.score).toBe(a);
    expect(unproven.factors.map((x) => x.code)).toContain('DID_CONTROL_UNPROVEN');
    // nor is it evidence: a stranger registering the wallet's DID changes no input an admin's revision is kept
    // against, and moves no decay anchor
    const none = byCat({ features: emptyFeatures(ADDR) }).IDENTITY;
    expect(unproven.inputsKey).toBe(none.inputsKey);
    expect(unproven.offchainKey).toBe(none.offchainKey);
  });
  it('liquidations lower DEFI_LENDING below a repaying borrower', () => {
    const good = borrower();
    const bad = borrower();
    bad.lending = { supplies: 4, borrows: 5, repays: 1, liquidations: 2, protocols: 2 };
    expect(lendingScore([], bad).score).toBeLessThan(lendingScore([], good).score - 300);
    // the same history with one liquidation scores lower, in conduct and score
    const once = borrower();
    once.lending.liquidations = 1;
    once.lending.liquidatedUsd = 20_000;
    once.lending.positions!.liquidationsAged = [{ usd: 20_000, ageDays: 30 }];
    expect(lendingScore([], once).conduct).toBeLessThan(lendingScore([], good).conduct - 150);
  });
  it('every category is monotone in its own positive evidence and stays within 0-1000', () => {
    const small = emptyFeatures(ADDR);
    small.chains = [1];
    small.activeMonths = 1;
    small.txCount = 5;
    small.distinctCounterparties = 3;
    small.tokenTransfers = 4;
    small.distinctTokens = 2;
    small.trading = { swaps: 2, distinctPools: 1, protocols: 1, activeDays: 1 };
    small.governance = { votes: 1, proposalsVotedOn: 1, delegationsMade: 0, delegationsReceived: 0, governors: 1 };
    small.nft = { mints: 1, received: 1, sent: 0, collections: 1 };
    small.developer = { contractsDeployed: 1, contractsWithCode: 1, usedContracts: 1, thirdPartyUsers: 1 };
    const big: WalletFeatures = JSON.parse(JSON.stringify(small));
    big.chains = [1, 10, 137];
    big.activeMonths = 1000;
    big.txCount = 1e6;
    big.distinctCounterparties = 1e6;
    big.tokenTransfers = 1e6;
    big.distinctTokens = 1e6;
    big.trading = {
      swaps: 1e6,
      distinctPools: 1e6,
      protocols: 1e6,
      activeDays: 1e6,
      volumeUsd: 1e9,
      unvaluedSwaps: 0,
      feesUsd: 1e6,
      backedFeesUsd: 1e6,
    };
    big.governance = { votes: 1e6, proposalsVotedOn: 1e6, delegationsMade: 1e6, delegationsReceived: 1e6, governors: 1e6 };
    big.gasUsd = { lending: 1e6, trading: 1e6, governance: 1e6, total: 1e6 };
    big.nft = { mints: 1e6, received: 1e6, sent: 0, collections: 1e6 };
    big.developer = { contractsDeployed: 1e6, contractsWithCode: 1e6, usedContracts: 1e6, thirdPartyUsers: 1e6 };
    big.identity = { ensNames: 1e6, attestationsReceived: 1e6, attestationsMade: 1e6 };
    // valued evidence (unvalued events are capped, see UNVALUED_MAX_EVENTS)
    big.lending = {
      supplies: 1e6,
      borrows: 1e6,
      repays: 1e6,
      liquidations: 0,
      protocols: 1e6,
      avgDaysToRepay: 1,
      suppliedUsd: 1e9,
      borrowedUsd: 1e9,
      repaidUsd: 1e9,
      liquidatedUsd: 0,
      unvaluedSupplies: 0,
      unvaluedBorrows: 0,
      unvaluedRepays: 0,
    };
    big.lending.positions = {
      debtUsdDays: 1e11,
      collateralUsdDays: 1e12,
      interestUsd: 1e9,
      cycles: 1e6,
      cycleMonths: 1e3,
      avgCycleDays: 1,
      protocolsHeld: 1e6,
      spanDays: 1e4,
      creditDays: 1e4,
      ltvDays: 1e3,
      leveragedDays: 1e4,
      liquidationsAged: [],
    };
    big.ageDays = 1e4;
    const full = { did: `did:credence:1:${ADDR}`, hasDid: true, didCreatedAt: null, activeCredentials: 1e6, controlProved: true };
    const s = byCat({ features: small });
    const b = byCat({ features: big, identity: full, compliance: { sanctioned: false, kycStatus: 'approved', kycLevel: 'full' } });
    for (const c of CATEGORIES) {
      expect(b[c].score, c).toBeGreaterThan(s[c].score);
      expect(b[c].score, c).toBeLessThanOrEqual(1000);
      expect(b[c].confidence, c).toBeGreaterThan(s[c].confidence);
      expect(b[c].confidence, c).toBeLessThanOrEqual(0.95);
    }
    expect(b.OVERALL.score).toBeGreaterThanOrEqual(980);
  });
  it('is deterministic, carries at most 6 factors and the version', () => {
    const a = scoreWallet({ features: borrower(), claims: [claim('Pending')] });
    const b = scoreWallet({ features: borrower(), claims: [claim('Pending')].map((c) => ({ ...c, id: a[1].inputsKey })) });
    expect(a.map((r) => r.score)).toEqual(b.map((r) => r.score));
    for (const r of a) expect(r.factors.length).toBeLessThanOrEqual(6);
    expect(MODEL_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
  });
  it('inputs keys change only when the category evidence changes', () => {
    const f = borrower();
    const a = byCat({ features: f });
    const g = borrower();
    g.trading.swaps = 3;
    const b = byCat({ features: g });
    expect(b.DEFI_LENDING.inputsKey).toBe(a.DEFI_LENDING.inputsKey);
    expect(b.DEFI_TRADING.inputsKey).not.toBe(a.DEFI_TRADING.inputsKey);
    // model 3.0.0: a debt claim is no evidence of the wallet's own activity: it changes neither key (it moves no
    // decay anchor and clears no revision; it shifts the score by its own points)
    const c = byCat({ features: f, claims: [claim('Pending')] });
    expect(c.DEFI_LENDING.inputsKey).toBe(a.DEFI_LENDING.inputsKey);
    expect(c.DEFI_LENDING.offchainKey).toBe(a.DEFI_LENDING.offchainKey);
    expect(c.DEFI_LENDING.score).toBeLessThan(a.DEFI_LENDING.score);
  });
});

describe('value, self-dealing, anchors', () => {
  it('SANCTIONED shows what the hit cost against the clean baseline', () => {
    const r = byCat({ features: emptyFeatures(ADDR), compliance: { sanctioned: true, kycStatus: 'none', kycLevel: 'none' } });
    expect(r.COMPLIANCE.score).toBe(0);
    expect(r.COMPLIANCE.factors[0]).toMatchObject({ code: 'SANCTIONED', impact: -500 });
  });

  it('a credit record needs borrowing; capital supplied alone is none', () => {
    const f = emptyFeatures(ADDR);
    f.lending = { ...f.lending, supplies: 3, protocols: 1, suppliedUsd: 1_000_000 };
    f.lending.positions = { ...EMPTY_POSITIONS, collateralUsdDays: 1_000_000 * 30, protocolsHeld: 1, spanDays: 30 };
    f.gasUsd = { lending: 5_000, trading: 0, governance: 0, total: 5_000 };
    const r = byCat({ features: f }).DEFI_LENDING;
    expect(r.score).toBe(0);
    expect(r.conduct).toBe(0);
    expect(r.factors.map((x) => x.code)).toContain('NO_CREDIT_RECORD');
    expect(lendingScore([]).factors.map((x) => x.code)).toContain('REPAYMENT_RECORD');
  });

  it('positions, not rows: forty same-block $1M loops score nothing, one $100k loan held a month scores; a longer history counts', () => {
    const loops = emptyFeatures(ADDR);
    loops.lending = {
      ...loops.lending,
      supplies: 40,
      borrows: 40,
      repays: 40,
      protocols: 1,
      suppliedUsd: 4e7,
      borrowedUsd: 4e7,
      repaidUsd: 4e7,
      avgDaysToRepay: 0,
      positions: EMPTY_POSITIONS,
    };
    const loan = emptyFeatures(ADDR);
    loan.lending = {
      ...loan.lending,
      supplies: 1,
      borrows: 1,
      repays: 1,
      protocols: 1,
      suppliedUsd: 2e5,
      borrowedUsd: 1e5,
      repaidUsd: 1e5,
      avgDaysToRepay: 30,
    };
    loan.lending.positions = {
      debtUsdDays: 3e6,
      collateralUsdDays: 6e6,
      interestUsd: 400,
      cycles: 1,
      cycleMonths: 1,
      avgCycleDays: 30,
      protocolsHeld: 1,
      spanDays: 30,
    };
    const a = byCat({ features: loops }).DEFI_LENDING;
    const b = byCat({ features: loan }).DEFI_LENDING;
    expect(a.score).toBe(0);
    expect(a.conduct).toBe(0);
    expect(b.conduct).toBeGreaterThan(200);
    // held to what its backing supports: $400 of interest, less what $100k parked a month earns ($296), no gas known
    expect(b.backingUsd).toBeCloseTo(400 - (3e6 * 0.036) / 365, 1);
    expect(b.score).toBeLessThan(b.conduct);
    // a longer credit record: the same loan, its first borrow two years before its latest lending evidence
    const older = JSON.parse(JSON.stringify(loan)) as WalletFeatures;
    older.lending.positions!.spanDays = 700;
    older.lending.positions!.creditDays = 700;
    expect(byCat({ features: older }).DEFI_LENDING.conduct).toBeGreaterThan(b.conduct);
    // wallet age alone (inbound records can fake it) is no lending evidence
    older.ageDays = 7000;
    older.lending.positions = EMPTY_POSITIONS;
    expect(byCat({ features: older }).DEFI_LENDING.score).toBe(0);
  });

  it("each category's decay anchor is its own latest evidence; none, no anchor", () => {
    const f = emptyFeatures(ADDR);
    f.lending = { ...f.lending, borrows: 1, borrowedUsd: 1000 };
    const at = new Date('2025-01-01T00:00:00Z');
    f.evidenceAt = { lending: at, trading: null };
    const r = byCat({ features: f });
    expect(r.DEFI_LENDING.evidenceAt).toEqual(at);
    expect(r.DEFI_TRADING.evidenceAt).toBeNull();
    expect(r.GOVERNANCE.evidenceAt).toBeNull();
  });

  it('a protocol contract is not scored as a user', () => {
    const f = borrower();
    f.accountType = 'contract';
    f.contractLabel = 'Uniswap Universal Router';
    const r = byCat({ features: f });
    for (const c of CATEGORIES) expect(r[c].score, c).toBe(0);
    expect(r.DEFI_LENDING.factors[0].code).toBe('PROTOCOL_CONTRACT');
    expect(MODEL_VERSION).toBe('4.1.0');
  });
});
