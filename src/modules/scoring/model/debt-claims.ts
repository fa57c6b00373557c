// How debt claims against a wallet (it is the debtor) move DEFI_LENDING. A claim's weight follows what is verified:
// anyone can file a claim for free, so only claims whose creditor signed in, whose evidence transaction
// was found on-chain between the two parties, and whose creditor has on-chain history of its own carry the spec's
// full weight. The spec's impact table, applied that way:
//   Pending, verified            minor negative per distinct verified creditor, compounding across those creditors
//   Pending, unverified          a small flat signal, non-compounding and capped however many claims or creditors
//   Disputed                     none while under review (paused)
//   Resolved in creditor favour  significant negative (an admin confirmed the debt, verified or not)
//   Resolved in debtor favour    none (the negative impact is removed)
//   Withdrawn                    none
// A Resolved claim whose outcome is not recorded (inFavorOf null) counts as upheld: the creditor's claim stood.
// Verification requires a real, priced principal moved creditor -> debtor well before the
// claim (debt-claims/evidence.ts); a verified creditor weighs by its own costly history (creditorWeight, 0.25-1),
// so compounding runs over the creditors' summed weights; a Pending claim counts only once the debtor's notice
// period is over; and a claim never raises confidence (it is no evidence of the wallet's own activity).
import type { Category, DebtClaimSignal } from '../contracts.js';
import { sat } from './transforms.js';
import type { Term } from './terms.js';
import type { ModelParams } from './params.js';

/** The claims' constants (data/scoring/model.json "debtClaims"). */
export type ClaimParams = ModelParams['debtClaims'];

/** The categories whose scores are the wallet's own costly activity: capital held over time, fees paid to others'
 *  liquidity, voting power, collections others hold, contracts others use. Not SOCIAL (a handful of own transactions
 *  earn it, a few cents on an L2), nor IDENTITY, COMPLIANCE or OVERALL (a DID, a KYC, a credential cost nothing
 *  comparable). */
export const COSTLY_CATEGORIES: readonly Category[] = ['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'DEVELOPER'];

/** A creditor's weight from its own current scores: min + (1 - min) x min(1, best costly score / full-weight score)
 *  (0.25 for a fresh wallet, 1 from 500 in one costly category). */
export function creditorWeight(scores: readonly { category: Category; score: number }[], D: ClaimParams): number {
  let best = 0;
  for (const s of scores) if (COSTLY_CATEGORIES.includes(s.category)) best = Math.max(best, s.score);
  const share = Math.min(1, Math.max(0, best) / D.creditorFullWeightScore);
  return Math.round((D.creditorMinWeight + (1 - D.creditorMinWeight) * share) * 1000) / 1000;
}

export interface ClaimSummary {
  /** Pending claims past their notice period (the ones that count) */
  pending: number;
  /** distinct creditors with at least one verified Pending claim */
  pendingCreditors: number;
  /** sum over those creditors of their weight (each counted once, at its largest weight) */
  pendingWeight: number;
  /** Pending claims still in the debtor's notice period: no impact yet */
  inNotice: number;
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

export function summarizeClaims(claims: readonly DebtClaimSignal[], D: ClaimParams): ClaimSummary {
  const s: ClaimSummary = {
    pending: 0,
    pendingCreditors: 0,
    pendingWeight: 0,
    inNotice: 0,
    pendingUnverified: 0,
    unverifiedCreditors: 0,
    disputed: 0,
    upheld: 0,
    upheldCreditors: 0,
    dismissed: 0,
    withdrawn: 0,
  };
  if (claims.length === 0) return s;
  const verifiedFrom = new Map<string, number>();
  const unverifiedFrom = new Set<string>();
  const upheldFrom = new Set<string>();
  for (const c of claims) {
    const creditor = c.creditorAddress.toLowerCase();
    switch (c.status) {
      case 'Pending':
        // the debtor has this long to dispute before the claim counts
        if (c.inNotice === true) {
          s.inNotice++;
          break;
        }
        s.pending++;
        if (c.verified === true) verifiedFrom.set(creditor, Math.max(verifiedFrom.get(creditor) ?? 0, clampWeight(c.creditorWeight, D)));
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
  for (const c of verifiedFrom.keys()) unverifiedFrom.delete(c);
  s.pendingCreditors = verifiedFrom.size;
  for (const w of verifiedFrom.values()) s.pendingWeight += w;
  s.unverifiedCreditors = unverifiedFrom.size;
  s.upheldCreditors = upheldFrom.size;
  return s;
}

/** A signal's creditor weight (absent: 1, the full weight of claims checked before weights existed). */
const clampWeight = (w: number | undefined, D: ClaimParams) =>
  w === undefined || !Number.isFinite(w) ? 1 : Math.min(1, Math.max(D.creditorMinWeight, w));

/** n = the verified creditors' summed weight: 40 x n x (1 + 0.5 (n - 1)), capped: 40, 120, 240, 400 at full weight. */
export function pendingPenalty(creditorWeights: number, D: ClaimParams): number {
  const n = creditorWeights;
  if (n <= 0) return 0;
  return Math.min(D.pendingCap, D.pendingPerCreditor * n * (1 + D.pendingCompounding * (n - 1)));
}

/** n distinct creditors of unverified claims: 10 x n, never above 20 (no compounding). */
export function unverifiedPenalty(distinctCreditors: number, D: ClaimParams): number {
  return distinctCreditors <= 0 ? 0 : Math.min(D.unverifiedCap, D.unverifiedPerCreditor * distinctCreditors);
}

/** n upheld claims: -upheldMax x (1 - e^(-n/upheldK)). */
export function upheldPenalty(upheld: number, D: ClaimParams): number {
  return D.upheldMax * sat(upheld, D.upheldK);
}

export function claimTerms(s: ClaimSummary, D: ClaimParams): Term[] {
  const out: Term[] = [];
  if (s.pendingCreditors > 0) {
    const verified = s.pending - s.pendingUnverified;
    const weight = Math.round(s.pendingWeight * 100) / 100;
    out.push({
      code: s.pendingCreditors > 1 ? 'DEBT_CLAIMS_PENDING_MULTIPLE_CREDITORS' : 'DEBT_CLAIM_PENDING',
      description:
        `${verified} verified debt claim(s) pending from ${s.pendingCreditors} creditor(s) of combined weight ${weight}` +
        `${s.pendingCreditors > 1 ? '; verified claims from several creditors compound' : ''}`,
      points: -pendingPenalty(s.pendingWeight, D),
      pinned: true,
    });
  }
  if (s.inNotice > 0) {
    out.push({
      code: 'DEBT_CLAIM_IN_NOTICE',
      description: `${s.inNotice} debt claim(s) in the debtor's notice period: no impact unless undisputed when it ends`,
      points: 0,
      pinned: true,
    });
  }
  if (s.unverifiedCreditors > 0) {
    out.push({
      code: 'DEBT_CLAIM_PENDING_UNVERIFIED',
      description: `${s.pendingUnverified} unverified debt claim(s) pending from ${s.unverifiedCreditors} creditor(s): a minor signal, capped at ${D.unverifiedCap} points`,
      points: -unverifiedPenalty(s.unverifiedCreditors, D),
      pinned: true,
    });
  }
  if (s.upheld > 0) {
    out.push({
      code: 'DEBT_CLAIM_RESOLVED_FOR_CREDITOR',
      description: `${s.upheld} debt claim(s) resolved in the creditor's favour`,
      points: -upheldPenalty(s.upheld, D),
      pinned: true,
    });
  }
  if (s.disputed > 0) {
    out.push({
      code: 'DEBT_CLAIM_DISPUTED',
      description: `${s.disputed} debt claim(s) disputed and under review: impact paused`,
      points: 0,
      pinned: true,
    });
  }
  if (s.dismissed > 0) {
    out.push({
      code: 'DEBT_CLAIM_RESOLVED_FOR_DEBTOR',
      description: `${s.dismissed} debt claim(s) resolved in the debtor's favour: no impact`,
      points: 0,
      pinned: true,
    });
  }
  return out;
}

/** The signed points all claims add to DEFI_LENDING (0 or less): what an admin's revision is shifted by. */
export function claimPoints(claims: readonly DebtClaimSignal[], D: ClaimParams): number {
  let p = 0;
  for (const t of claimTerms(summarizeClaims(claims, D), D)) p += t.points;
  return p;
}

/**
 * The claims' part of DEFI_LENDING's off-chain fingerprint: none. A claim is no evidence of the wallet's own activity,
 * so it never raises confidence: it neither counts in the category's confidence nor moves its decay anchor (a changed
 * off-chain key would reset the decay, restoring a dormant wallet's confidence). Claims still move the score (claimTerms).
 */
export function claimsKey(_claims: readonly DebtClaimSignal[]): string {
  return '';
}
