// Unverified claims cannot be weaponized: a small, capped, non-compounding signal; verified ones follow the table.
import { describe, expect, it } from 'vitest';
import type { DebtClaimSignal } from '../contracts.js';
import { claimPoints, claimsKey, PENDING_CAP, pendingPenalty, summarizeClaims, UNVERIFIED_CAP, unverifiedPenalty } from './debt-claims.js';
import { emptyFeatures, scoreCategories } from './index.js';

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

  it('verification is part of the inputs fingerprint (a claim that becomes verified is new evidence)', () => {
    const c = claim(1, false);
    expect(claimsKey([c])).not.toBe(claimsKey([{ ...c, verified: true }]));
  });
});
