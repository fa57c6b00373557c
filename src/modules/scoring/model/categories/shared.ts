// What every category's scoring shares: the result with its conduct, score and points below 0, the backing ceiling,
// the decay anchor and the words of its factors.
import type { ComplianceSignal, IdentitySignal, WalletFeatures } from '../../contracts.js';
import type { ClaimSummary } from '../debt-claims.js';
import { UNVALUED_EVENT_USD } from '../lending-positions.js';
import { ceilingTerm } from '../cost-ceiling.js';
import type { ModelParams } from '../params.js';
import { toScore, topFactors, type CategoryResult, type Term } from '../terms.js';
import { fingerprint } from '../transforms.js';

/** An event with no known price counts as one worth this many USD (defined with the lending positions). */
export { UNVALUED_EVENT_USD };
/** Unvalued events count at UNVALUED_EVENT_USD each, at most unvaluedMaxEvents of them (a loop of priced-unknown
 *  assets is bounded at $1,000). */
export const unvaluedUsd = (n: number, P: ModelParams) => UNVALUED_EVENT_USD * Math.min(n, P.unvaluedMaxEvents);
type EvidenceKey = keyof NonNullable<WalletFeatures['evidenceAt']>;
/** The category's decay anchor: its own latest pinned evidence (undefined: the features carry none, legacy). */
export const anchor = (f: WalletFeatures, k: EvidenceKey) => (f.evidenceAt ? (f.evidenceAt[k] ?? null) : undefined);
export const usd = (n: number) => `$${n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0)}`;
export const r0 = (n: number) => Math.round(n);

export interface ModelSignals {
  claims: ClaimSummary;
  claimsKey: string;
  compliance: ComplianceSignal;
  identity: IdentitySignal;
}

// `many` is built only when used: a default parameter would concatenate it on every call
export const plural = (n: number, one: string, many?: string) => `${n} ${n === 1 ? one : (many ?? `${one}s`)}`;

/** Holds the terms' positive points to what the backing supports (cost-ceiling.ts); the limit applied, if any,
 *  is part of the category's inputs (a dispute override lasts until it changes). */
export function capped(terms: Term[], backingUsd: number, what: string, P: ModelParams, unpriced = false): string {
  const t = ceilingTerm(terms, backingUsd, what, P.ceiling, unpriced);
  if (!t) return '';
  terms.push(t);
  return `,cap${Math.round(t.points)}`;
}

/** Negative evidence that is settled fact about the wallet (its own liquidations, a claim upheld after dispute, a
 *  KYC provider's rejection of its own session): below a category's 0 it still counts in OVERALL. Pending claims,
 *  which anyone can file, stop at the category's 0. */
const SETTLED_NEGATIVE: ReadonlySet<string> = new Set(['LIQUIDATIONS', 'DEBT_CLAIM_RESOLVED_FOR_CREDITOR', 'KYC_REJECTED']);

export function result(
  category: CategoryResult['category'],
  terms: Term[],
  conf: number,
  inputs: string,
  offchain: string,
  empty: { code: string; description: string },
  evidenceAt: Date | null | undefined,
  backingUsd: number | null,
): CategoryResult {
  const offchainKey = offchain === '' ? '' : fingerprint(offchain);
  let conduct = 0;
  let total = 0;
  let settled = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    total += t.points;
    if (t.code !== 'COST_CEILING' && t.code !== 'UNPRICED_EVIDENCE_CAP') conduct += t.points;
    if (t.points < 0 && SETTLED_NEGATIVE.has(t.code)) settled -= t.points;
  }
  const r: CategoryResult = {
    category,
    score: toScore(total),
    conduct: toScore(conduct),
    backingUsd: backingUsd === null ? null : Math.round(backingUsd * 100) / 100,
    confidence: conf,
    factors: topFactors(terms, empty),
    inputsKey: fingerprint(inputs) + offchainKey,
    offchainKey,
  };
  if (evidenceAt !== undefined) r.evidenceAt = evidenceAt;
  if (total < 0 && settled > 0) r.below = Math.round(Math.min(-total, settled));
  if (conduct < 0 && settled > 0) r.conductBelow = Math.round(Math.min(-conduct, settled));
  return r;
}

export const days = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(Math.round(n)));

/** Attestations found and left out: anyone can attest anything about anyone, so only trusted attesters count. */
export const untrustedAttestations = (count: number, which: string): Term => ({
  code: 'ATTESTATIONS_DISCOUNTED',
  description: `found but not counted: ${plural(count, 'attestation')} ${which} from attesters not on the trusted list, or about itself`,
  points: 0,
  pinned: true,
});
