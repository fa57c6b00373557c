// How debt claims against a wallet (it is the debtor) move DEFI_LENDING, per the spec's impact table:
//   Pending                      minor negative (unverified), per distinct creditor, compounding across creditors
//   Disputed                     none while under review (paused)
//   Resolved in creditor favour  significant negative
//   Resolved in debtor favour    none (the negative impact is removed)
//   Withdrawn                    none
// A Resolved claim whose outcome is not recorded (inFavorOf null) counts as upheld: the creditor's claim stood.
import type { DebtClaimSignal } from '../contracts.js';
import { sat } from './transforms.js';
import type { Term } from './terms.js';

/** Points one distinct creditor with Pending claims takes away. */
export const PENDING_PER_CREDITOR = 40;
/** Each further distinct creditor raises every creditor's weight by this much (compounding). */
export const PENDING_COMPOUNDING = 0.5;
/** Ceiling of the Pending penalty. */
export const PENDING_CAP = 400;
/** Upheld claims: -UPHELD_MAX x (1 - e^(-n/UPHELD_K)) for n upheld claims (-236 for one, -379 for two). */
export const UPHELD_MAX = 600;
export const UPHELD_K = 2;

export interface ClaimSummary {
  pending: number;
  pendingCreditors: number;
  disputed: number;
  upheld: number;
  upheldCreditors: number;
  dismissed: number;
  withdrawn: number;
}

export function summarizeClaims(claims: readonly DebtClaimSignal[]): ClaimSummary {
  const s: ClaimSummary = { pending: 0, pendingCreditors: 0, disputed: 0, upheld: 0, upheldCreditors: 0, dismissed: 0, withdrawn: 0 };
  if (claims.length === 0) return s;
  const pendingFrom = new Set<string>();
  const upheldFrom = new Set<string>();
  for (const c of claims) {
    switch (c.status) {
      case 'Pending':
        s.pending++;
        pendingFrom.add(c.creditorAddress.toLowerCase());
        break;
      case 'Disputed':
        s.disputed++;
        break;
      case 'Resolved':
        if (c.inFavorOf === 'debtor') s.dismissed++;
        else {
          s.upheld++;
          upheldFrom.add(c.creditorAddress.toLowerCase());
        }
        break;
      case 'Withdrawn':
        s.withdrawn++;
        break;
    }
  }
  s.pendingCreditors = pendingFrom.size;
  s.upheldCreditors = upheldFrom.size;
  return s;
}

/** n distinct creditors: 40 x n x (1 + 0.5 (n - 1)), capped: 40, 120, 240, 400. */
export function pendingPenalty(distinctCreditors: number): number {
  const n = distinctCreditors;
  if (n <= 0) return 0;
  return Math.min(PENDING_CAP, PENDING_PER_CREDITOR * n * (1 + PENDING_COMPOUNDING * (n - 1)));
}

export function upheldPenalty(upheld: number): number {
  return UPHELD_MAX * sat(upheld, UPHELD_K);
}

export function claimTerms(s: ClaimSummary): Term[] {
  const out: Term[] = [];
  if (s.pending > 0) {
    out.push({
      code: s.pendingCreditors > 1 ? 'DEBT_CLAIMS_PENDING_MULTIPLE_CREDITORS' : 'DEBT_CLAIM_PENDING',
      description: `${s.pending} unverified debt claim(s) pending from ${s.pendingCreditors} creditor(s)${s.pendingCreditors > 1 ? '; claims from several creditors compound' : ''}`,
      points: -pendingPenalty(s.pendingCreditors),
      pinned: true,
    });
  }
  if (s.upheld > 0) {
    out.push({
      code: 'DEBT_CLAIM_RESOLVED_FOR_CREDITOR',
      description: `${s.upheld} debt claim(s) resolved in the creditor's favour`,
      points: -upheldPenalty(s.upheld),
      pinned: true,
    });
  }
  if (s.disputed > 0) {
    out.push({ code: 'DEBT_CLAIM_DISPUTED', description: `${s.disputed} debt claim(s) disputed and under review: impact paused`, points: 0, pinned: true });
  }
  if (s.dismissed > 0) {
    out.push({ code: 'DEBT_CLAIM_RESOLVED_FOR_DEBTOR', description: `${s.dismissed} debt claim(s) resolved in the debtor's favour: no impact`, points: 0, pinned: true });
  }
  return out;
}

/** The claim facts that can move the score (withdrawn claims cannot), for the inputs fingerprint. */
export function claimsKey(claims: readonly DebtClaimSignal[]): string {
  if (claims.length === 0) return '';
  return claims
    .filter((c) => c.status !== 'Withdrawn')
    .map((c) => `${c.id}:${c.status}:${c.inFavorOf ?? ''}`)
    .sort()
    .join(',');
}
