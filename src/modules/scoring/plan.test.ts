import { describe, expect, it } from 'vitest';
import type { DebtClaimSignal, WalletFeatures } from './contracts.js';
import { emptyFeatures } from './model/index.js';
import { EMPTY_POSITIONS } from './model/lending-positions.js';
import { planWallet } from './plan.js';
import type { ScoreRow } from './repo.js';
import { model } from './params.js';

const { claimPoints, scoreCategories, scoreWallet } = model;
const UNVERIFIED_CAP = model.params.debtClaims.unverifiedCap;
const WEIGHTS = model.weights;

const A = '0x00000000000000000000000000000000000000bb';
const t0 = new Date('2026-03-01T00:00:00Z');
const t1 = new Date('2026-04-01T00:00:00Z');
const t2 = new Date('2026-05-01T00:00:00Z');
const claim: DebtClaimSignal = {
  id: 'c1',
  creditorAddress: `0x${'c'.repeat(40)}`,
  status: 'Pending',
  inFavorOf: null,
  amount: '1',
  currency: 'USDC',
  createdAt: t0,
};
const verifiedClaim: DebtClaimSignal = { ...claim, verified: true };

function features(lastActivityAt: Date | null, swaps = 0): WalletFeatures {
  const f = emptyFeatures(A);
  f.lastActivityAt = lastActivityAt;
  f.trading.swaps = swaps;
  return f;
}

function plan(
  f: WalletFeatures,
  claims: DebtClaimSignal[],
  stored: ScoreRow[],
  now: Date,
  override?: { category: 'DEFI_TRADING'; score: number; disputeId: string },
) {
  return planWallet(
    {
      address: A,
      results: scoreCategories({ features: f, claims }),
      sanctioned: false,
      lastActivityAt: f.lastActivityAt,
      stored,
      override,
    },
    'test',
    now,
  );
}
const row = (rows: ScoreRow[], c: string) => rows.find((r) => r.category === c)!;

describe('planWallet', () => {
  it('first scores are nine rows and no changes', () => {
    const p = plan(features(t0), [], [], t1);
    expect(p.rows.map((r) => r.category)).toEqual([
      'OVERALL',
      'DEFI_LENDING',
      'DEFI_TRADING',
      'GOVERNANCE',
      'NFT',
      'IDENTITY',
      'SOCIAL',
      'DEVELOPER',
      'COMPLIANCE',
    ]);
    expect(p.changes).toEqual([]);
  });

  it('an unverified claim (anyone can file one) moves no decay anchor', () => {
    const before = plan(features(t0), [], [], t1);
    const after = plan(features(t0), [claim], before.rows, t2);
    expect(row(after.rows, 'DEFI_LENDING').decay_anchor).toEqual(row(before.rows, 'DEFI_LENDING').decay_anchor);
    expect(row(after.rows, 'OVERALL').decay_anchor).toEqual(row(before.rows, 'OVERALL').decay_anchor);
    // its capped points still apply
    expect(row(after.rows, 'DEFI_LENDING').score).toBeLessThanOrEqual(row(before.rows, 'DEFI_LENDING').score);
  });

  it("anchors are the category's own evidence: no debt claim, verified or not, nor its status changes, moves one", () => {
    const claim = { ...verifiedClaim };
    const before = plan(features(t0), [], [], t1);
    const first = plan(features(t0), [claim], before.rows, t1);
    // a claim is no evidence of the wallet's own activity: it would otherwise restore a dormant wallet's confidence
    expect(row(first.rows, 'DEFI_LENDING').decay_anchor).toEqual(row(before.rows, 'DEFI_LENDING').decay_anchor);
    // a category's anchor is its own evidence; no swaps, no trading evidence: no anchor, no decay
    expect(row(first.rows, 'DEFI_TRADING').decay_anchor).toBeNull();
    expect(row(first.rows, 'OVERALL').decay_anchor).toEqual(row(before.rows, 'OVERALL').decay_anchor);
    // the claim changes status, or is resolved: still no new anchor
    const disputed = plan(features(t0), [{ ...claim, status: 'Disputed' }], first.rows, t2);
    expect(row(disputed.rows, 'DEFI_LENDING').decay_anchor).toEqual(row(before.rows, 'DEFI_LENDING').decay_anchor);
    const upheld = plan(features(t0), [{ ...claim, status: 'Resolved', inFavorOf: 'creditor' }], disputed.rows, t2);
    expect(row(upheld.rows, 'DEFI_LENDING').decay_anchor).toEqual(row(before.rows, 'DEFI_LENDING').decay_anchor);
    expect(row(upheld.rows, 'DEFI_LENDING').score).toBeLessThan(row(before.rows, 'DEFI_LENDING').score + 1);
    // no evidence at all: no anchor
    expect(row(plan(features(null), [], [], t1).rows, 'NFT').decay_anchor).toBeNull();
  });

  it('keeps a dispute override while the category inputs are unchanged and drops it when they change', () => {
    const base = plan(features(t0, 0), [], [], t1);
    const revised = plan(features(t0, 0), [], base.rows, t1, { category: 'DEFI_TRADING', score: 500, disputeId: 'd1' });
    expect(revised.changes.map((c) => [c.category, c.oldScore, c.newScore])).toContainEqual(['DEFI_TRADING', 0, 500]);
    // unrelated new evidence (a claim feeds DEFI_LENDING) keeps it
    const other = plan(features(t0, 0), [claim], revised.rows, t2);
    expect(row(other.rows, 'DEFI_TRADING').score).toBe(500);
    expect(other.changes.find((c) => c.category === 'DEFI_TRADING')).toBeUndefined();
    // new trading evidence drops it: the model score applies again
    const traded = plan(features(t2, 3), [claim], other.rows, t2);
    const trading = row(traded.rows, 'DEFI_TRADING');
    expect(trading.override_score).toBeNull();
    expect(trading.score).toBe(trading.model_score);
    expect(traded.changes.find((c) => c.category === 'DEFI_TRADING')).toMatchObject({ oldScore: 500, newScore: trading.model_score });
  });

  it('carries an override set under another model version over as it stands', () => {
    const base = plan(features(t0), [], [], t1);
    const revised = plan(features(t0), [], base.rows, t1, { category: 'DEFI_TRADING', score: 500, disputeId: 'd1' });
    const old = revised.rows.map((r) => ({ ...r, model_version: '0.9.0', override_claim_points: null }));
    const upgraded = plan(features(t0), [], old, t2);
    expect(row(upgraded.rows, 'DEFI_TRADING').score).toBe(500);
    // and is then dropped by the category's own new evidence as usual
    expect(row(plan(features(t2, 3), [], upgraded.rows, t2).rows, 'DEFI_TRADING').override_score).toBeNull();
  });
});

describe('planWallet: debt claims never erase a revision', () => {
  const lendingOverride = (score: number) => ({ category: 'DEFI_LENDING' as const, score, disputeId: 'd2' });
  function planL(
    f: WalletFeatures,
    claims: DebtClaimSignal[],
    stored: ScoreRow[],
    now: Date,
    override?: ReturnType<typeof lendingOverride>,
  ) {
    return planWallet(
      {
        address: A,
        results: scoreCategories({ features: f, claims }),
        sanctioned: false,
        lastActivityAt: f.lastActivityAt,
        stored,
        override,
        claimPoints: claimPoints(claims),
      },
      'test',
      now,
    );
  }
  const unverified = (id: string, creditor: string): DebtClaimSignal => ({ ...claim, id, creditorAddress: creditor, verified: false });
  const verified = (id: string, creditor: string): DebtClaimSignal => ({ ...claim, id, creditorAddress: creditor, verified: true });

  it('a claim shifts the revision by its own points only, and withdrawing it restores the revision exactly', () => {
    const base = planL(features(t0), [], [], t1);
    const revised = planL(features(t0), [], base.rows, t1, lendingOverride(800));
    expect(row(revised.rows, 'DEFI_LENDING').score).toBe(800);
    const overallRevised = row(revised.rows, 'OVERALL').score;

    const claims = ['1', '2', '3', '4'].map((n) => unverified(`u${n}`, `0x${n.repeat(40)}`));
    const attacked = planL(features(t0), claims, revised.rows, t2);
    const l = row(attacked.rows, 'DEFI_LENDING');
    expect(l.override_score).toBe(800);
    expect(l.score).toBe(800 - UNVERIFIED_CAP);
    expect(overallRevised - row(attacked.rows, 'OVERALL').score).toBeLessThanOrEqual(Math.ceil(UNVERIFIED_CAP * 0.22));

    const withdrawn = planL(
      features(t0),
      claims.map((c) => ({ ...c, status: 'Withdrawn' as const })),
      attacked.rows,
      t2,
    );
    expect(row(withdrawn.rows, 'DEFI_LENDING').score).toBe(800);
    expect(row(withdrawn.rows, 'OVERALL').score).toBe(overallRevised);
  });

  it('verified claims shift it by the full table; the on-chain evidence of the category still clears it', () => {
    const base = planL(features(t0), [], [], t1);
    const revised = planL(features(t0), [], base.rows, t1, lendingOverride(800));
    const two = planL(features(t0), [verified('v1', `0x${'1'.repeat(40)}`), verified('v2', `0x${'2'.repeat(40)}`)], revised.rows, t2);
    expect(row(two.rows, 'DEFI_LENDING').score).toBe(800 - 120);
    const f = features(t2);
    f.lending.borrows = 2;
    f.lending.repays = 2;
    // lending evidence is a position held over time
    f.lending.positions = {
      debtUsdDays: 50_000,
      collateralUsdDays: 120_000,
      interestUsd: 8,
      cycles: 2,
      cycleMonths: 2,
      avgCycleDays: 10,
      protocolsHeld: 1,
      spanDays: 40,
    };
    const lent = planL(f, [], two.rows, t2);
    expect(row(lent.rows, 'DEFI_LENDING').override_score).toBeNull();
  });

  it('a revision of OVERALL survives a claim too', () => {
    const base = planL(features(t0), [], [], t1);
    const revised = planWallet(
      {
        address: A,
        results: scoreCategories({ features: features(t0), claims: [] }),
        sanctioned: false,
        lastActivityAt: t0,
        stored: base.rows,
        override: { category: 'OVERALL' as never, score: 700, disputeId: 'd3' },
        claimPoints: 0,
      },
      'test',
      t1,
    );
    expect(row(revised.rows, 'OVERALL').score).toBe(700);
    const attacked = planL(features(t0), [unverified('u1', `0x${'1'.repeat(40)}`)], revised.rows, t2);
    expect(row(attacked.rows, 'OVERALL').override_score).toBe(700);
    expect(700 - row(attacked.rows, 'OVERALL').score).toBeLessThanOrEqual(UNVERIFIED_CAP);
  });
});

describe('planWallet: points below a category 0', () => {
  const liquidated = () => {
    const f = features(t0);
    // a year of activity elsewhere, so OVERALL stays above its floor of 0 and the comparison means something
    f.chains = [1];
    f.activeMonths = 12;
    f.distinctCounterparties = 10;
    f.tokenTransfers = 40;
    f.lending.liquidations = 1;
    f.lending.liquidatedUsd = 30_000;
    f.lending.positions = { ...EMPTY_POSITIONS, debtUsdDays: 600_000, liquidationsAged: [{ usd: 30_000, ageDays: 7 }] };
    return f;
  };
  const planned = (
    f: WalletFeatures,
    stored: ScoreRow[],
    now: Date,
    override?: { category: 'DEFI_LENDING'; score: number; disputeId: string },
  ) =>
    planWallet(
      {
        address: A,
        results: scoreCategories({ features: f, compliance: clean }),
        sanctioned: false,
        lastActivityAt: f.lastActivityAt,
        stored,
        override,
      },
      'test',
      now,
    );

  const clean = { sanctioned: false, kycStatus: 'none', kycLevel: 'none' } as const;

  it("OVERALL as stored counts a recent liquidation below lending's 0, as the model does", () => {
    const f = liquidated();
    const base = planned(f, [], t1);
    const model = scoreWallet({ features: f, compliance: clean })[0];
    expect(row(base.rows, 'DEFI_LENDING').score).toBe(0);
    expect(model.score).toBeGreaterThan(0);
    expect(row(base.rows, 'OVERALL').score).toBe(model.score);
    expect(row(base.rows, 'OVERALL').score).toBeLessThan(row(planned(features(t0), [], t1).rows, 'OVERALL').score);
  });

  it("an admin's revision of the category is its whole answer: nothing below it counts", () => {
    const f = liquidated();
    const base = planned(f, [], t1);
    const revised = planned(f, base.rows, t2, { category: 'DEFI_LENDING', score: 300, disputeId: 'd9' });
    expect(row(revised.rows, 'DEFI_LENDING').score).toBe(300);
    const others = revised.rows.filter((r) => r.category !== 'OVERALL' && r.category !== 'DEFI_LENDING');
    const expected = others.reduce((a, r) => a + WEIGHTS[r.category as keyof typeof WEIGHTS] * r.score, WEIGHTS.DEFI_LENDING * 300);
    expect(row(revised.rows, 'OVERALL').score).toBe(Math.round(expected));
  });
});
