// How debt claims against a wallet (it is the debtor) move DEFI_LENDING. A claim's weight follows what is verified
// (issue 11): anyone can file a claim for free, so only claims whose creditor signed in, whose evidence transaction
// was found on-chain between the two parties, and whose creditor has on-chain history of its own carry the spec's
// full weight. The spec's impact table, applied that way:
//   Pending, verified            minor negative per distinct verified creditor, compounding across those creditors
//   Pending, unverified          a small flat signal, non-compounding and capped however many claims or creditors
//   Disputed                     none while under review (paused)
//   Resolved in creditor favour  significant negative (an admin confirmed the debt, verified or not)
//   Resolved in debtor favour    none (the negative impact is removed)
//   Withdrawn                    none
// A Resolved claim whose outcome is not recorded (inFavorOf null) counts as upheld: the creditor's claim stood.
import type { DebtClaimSignal } from '../contracts.js';
import { sat } from './transforms.js';
import type { Term } from './terms.js';

/** Points one distinct verified creditor with Pending claims takes away. */
export const PENDING_PER_CREDITOR = 40;
/** Each further distinct verified creditor raises every verified creditor's weight by this much (compounding). */
export const PENDING_COMPOUNDING = 0.5;
/** Ceiling of the verified Pending penalty. */
export const PENDING_CAP = 400;
/** Points one distinct creditor with only unverified Pending claims takes away (a quarter of a verified one). */
export const UNVERIFIED_PER_CREDITOR = 10;
/** Ceiling of all unverified Pending claims together, whatever their number: the most a forger can take. */
export const UNVERIFIED_CAP = 20;
/** Weight of an unverified claim relative to a verified one (shown on the claim resource). */
export const UNVERIFIED_WEIGHT = UNVERIFIED_PER_CREDITOR / PENDING_PER_CREDITOR;
/** Upheld claims: -UPHELD_MAX x (1 - e^(-n/UPHELD_K)) for n upheld claims (-236 for one, -379 for two). */
export const UPHELD_MAX = 600;
export const UPHELD_K = 2;

export interface ClaimSummary {
  pending: number;
  /** distinct creditors with at least one verified Pending claim */
  pendingCreditors: number;
  /** Pending claims that are not (yet) verified */
  pendingUnverified: number;
  /** distinct creditors with Pending claims, none of them verified */
  unverifiedCreditors: number;
  disputed: number;
  upheld: number;
  upheldCreditors: number;
  dismissed: number;
  withdrawn: number;
}

export function summarizeClaims(claims: readonly DebtClaimSignal[]): ClaimSummary {
  const s: ClaimSummary = { pending: 0, pendingCreditors: 0, pendingUnverified: 0, unverifiedCreditors: 0, disputed: 0, upheld: 0, upheldCreditors: 0, dismissed: 0, withdrawn: 0 };
  if (claims.length === 0) return s;
  const verifiedFrom = new Set<string>();
  const unverifiedFrom = new Set<string>();
  const upheldFrom = new Set<string>();
  for (const c of claims) {
    const creditor = c.creditorAddress.toLowerCase();
    switch (c.status) {
      case 'Pending':
        s.pending++;
        if (c.verified === true) verifiedFrom.add(creditor);
        else {
          s.pendingUnverified++;
          unverifiedFrom.add(creditor);
        }
        break;
      case 'Disputed':
        s.disputed++;
        break;
      case 'Resolved':
        if (c.inFavorOf === 'debtor') s.dismissed++;
        else {
          s.upheld++;
          upheldFrom.add(creditor);
        }
        break;
      case 'Withdrawn':
        s.withdrawn++;
        break;
    }
  }
  // A creditor with one verified claim is a verified creditor: its unverified claims add nothing beside it.
  for (const c of verifiedFrom) unverifiedFrom.delete(c);
  s.pendingCreditors = verifiedFrom.size;
  s.unverifiedCreditors = unverifiedFrom.size;
  s.upheldCreditors = upheldFrom.size;
  return s;
}

/** n distinct verified creditors: 40 x n x (1 + 0.5 (n - 1)), capped: 40, 120, 240, 400. */
export function pendingPenalty(distinctCreditors: number): number {
  const n = distinctCreditors;
  if (n <= 0) return 0;
  return Math.min(PENDING_CAP, PENDING_PER_CREDITOR * n * (1 + PENDING_COMPOUNDING * (n - 1)));
}

/** n distinct creditors of unverified claims: 10 x n, never above 20 (no compounding). */
export function unverifiedPenalty(distinctCreditors: number): number {
  return distinctCreditors <= 0 ? 0 : Math.min(UNVERIFIED_CAP, UNVERIFIED_PER_CREDITOR * distinctCreditors);
}

export function upheldPenalty(upheld: number): number {
  return UPHELD_MAX * sat(upheld, UPHELD_K);
}

export function claimTerms(s: ClaimSummary): Term[] {
  const out: Term[] = [];
  if (s.pendingCreditors > 0) {
    const verified = s.pending - s.pendingUnverified;
    out.push({
      code: s.pendingCreditors > 1 ? 'DEBT_CLAIMS_PENDING_MULTIPLE_CREDITORS' : 'DEBT_CLAIM_PENDING',
      description: `${verified} verified debt claim(s) pending from ${s.pendingCreditors} creditor(s)${s.pendingCreditors > 1 ? '; verified claims from several creditors compound' : ''}`,
      points: -pendingPenalty(s.pendingCreditors),
      pinned: true,
    });
  }
  if (s.unverifiedCreditors > 0) {
    out.push({
      code: 'DEBT_CLAIM_PENDING_UNVERIFIED',
      description: `${s.pendingUnverified} unverified debt claim(s) pending from ${s.unverifiedCreditors} creditor(s): a minor signal, capped at ${UNVERIFIED_CAP} points`,
      points: -unverifiedPenalty(s.unverifiedCreditors),
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

/** The signed points all claims add to DEFI_LENDING (0 or less): what an admin's revision is shifted by. */
export function claimPoints(claims: readonly DebtClaimSignal[]): number {
  let p = 0;
  for (const t of claimTerms(summarizeClaims(claims))) p += t.points;
  return p;
}

/** The claim facts that can move the score (withdrawn claims cannot), for the inputs fingerprint. */
export function claimsKey(claims: readonly DebtClaimSignal[]): string {
  if (claims.length === 0) return '';
  return claims
    // Anyone can file an unverified claim for free: it shifts the score by its capped points (claimTerms), but it is
    // no evidence about the wallet, so it neither moves the decay anchor (a free claim would otherwise restore a
    // dormant wallet's confidence) nor counts as the category's off-chain inputs.
    .filter((c) => c.status !== 'Withdrawn' && !(c.status === 'Pending' && c.verified !== true))
    .map((c) => `${c.id}:${c.status}:${c.inFavorOf ?? ''}:${c.verified === true ? 'v' : ''}`)
    .sort()
    .join(',');
}
