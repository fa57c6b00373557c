// The scoring model: pure functions from a wallet's features and signals to nine scores with reason codes.
// Nothing here reads a clock, a database or the network, so the same inputs always give the same scores.
import type { Category, ComplianceSignal, DebtClaimSignal, Factor, IdentitySignal, WalletFeatures } from '../contracts.js';
import { claimsKey, compliance, developer, governance, identity, lending, nft, social, trading, type ModelSignals } from './categories.js';
import { summarizeClaims } from './debt-claims.js';
import { EMPTY_POSITIONS } from './lending-positions.js';
import { backingOf } from './backing.js';
import { MAX_FACTORS, type CategoryResult } from './terms.js';
import { clamp, fingerprint, round3 } from './transforms.js';

export { tierFor, decayConfidence, TIERS } from './transforms.js';
export type { CategoryResult } from './terms.js';

/** 4.1.0: a category's points below 0 (a recent liquidation) pull OVERALL down instead of stopping at 0.
 *  4.0.0: conduct and backing apart. A category's conduct ranks behaviour (lending: repaid loans, tenure, leverage,
 *  liquidations by recency; size only logarithmically); its backing is what the wallet lost and cannot get back
 *  (backing.ts); the score is conduct held to what the backing supports, and each result carries both.
 *  3.0.0: every point backed by what the wallet itself paid or held over time (lending: positions over time, see
 *  lending-positions.ts). 2.0.0: evidence only from the registry's pinned contracts, by USD value, self-dealing
 *  removed, per-category decay anchors, protocol contracts not scored. Scores stored under any other version are
 *  recomputed on their next read (cause model_upgrade). */
export const MODEL_VERSION = '4.1.0';

/** OVERALL = sum of weight x category score. The one weights table; it sums to 1. */
export const WEIGHTS: Readonly<Record<Exclude<Category, 'OVERALL'>, number>> = {
  DEFI_LENDING: 0.22,
  COMPLIANCE: 0.18,
  IDENTITY: 0.14,
  DEFI_TRADING: 0.12,
  GOVERNANCE: 0.1,
  SOCIAL: 0.1,
  DEVELOPER: 0.08,
  NFT: 0.06,
};

/** OVERALL of a wallet on the sanctions list never exceeds this. */
export const SANCTIONED_OVERALL_CAP = 100;

export interface ModelInput {
  features: WalletFeatures;
  claims?: readonly DebtClaimSignal[];
  compliance?: ComplianceSignal | null;
  identity?: IdentitySignal | null;
}

export const NO_COMPLIANCE: ComplianceSignal = { sanctioned: null, kycStatus: 'none', kycLevel: 'none' };
export const NO_IDENTITY: IdentitySignal = { did: null, hasDid: false, didCreatedAt: null, activeCredentials: 0 };

export function emptyFeatures(address: string): WalletFeatures {
  return {
    address: address.toLowerCase(),
    accountType: 'wallet',
    contractLabel: null,
    chains: [],
    firstActivityAt: null,
    lastActivityAt: null,
    txCount: 0,
    activeDays: 0,
    activeMonths: 0,
    distinctCounterparties: 0,
    tokenTransfers: 0,
    distinctTokens: 0,
    ageDays: 0,
    lending: {
      supplies: 0,
      borrows: 0,
      repays: 0,
      liquidations: 0,
      protocols: 0,
      suppliedUsd: 0,
      borrowedUsd: 0,
      repaidUsd: 0,
      liquidatedUsd: 0,
      unvaluedSupplies: 0,
      unvaluedBorrows: 0,
      unvaluedRepays: 0,
      avgDaysToRepay: null,
      positions: EMPTY_POSITIONS,
    },
    trading: { swaps: 0, distinctPools: 0, protocols: 0, activeDays: 0, volumeUsd: 0, unvaluedSwaps: 0 },
    governance: { votes: 0, proposalsVotedOn: 0, delegationsMade: 0, delegationsReceived: 0, governors: 0 },
    nft: { mints: 0, received: 0, sent: 0, collections: 0 },
    developer: { contractsDeployed: 0, contractsWithCode: 0 },
    identity: { ensNames: 0, attestationsReceived: 0, attestationsMade: 0 },
    evidenceCount: 0,
    evidenceAt: {},
  };
}

/** The eight independent categories. */
export function scoreCategories(input: ModelInput): CategoryResult[] {
  const claims = input.claims ?? [];
  const s: ModelSignals = {
    claims: summarizeClaims(claims),
    claimsKey: claimsKey(claims),
    compliance: input.compliance ?? NO_COMPLIANCE,
    identity: input.identity ?? NO_IDENTITY,
  };
  const f = input.features;
  if (f.accountType === 'contract') return protocolContract(f);
  return [lending(f, s), trading(f), governance(f), nft(f), identity(f, s), social(f), developer(f), compliance(f, s)];
}

/** A known protocol contract (router, pool, registry entry) is not a user: every category 0, with the reason. */
function protocolContract(f: WalletFeatures): CategoryResult[] {
  const factor = {
    code: 'PROTOCOL_CONTRACT',
    description: `${f.contractLabel ?? 'a protocol contract'}: a known protocol contract, not scored as a user`,
    impact: 0,
  };
  return (['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER', 'COMPLIANCE'] as const).map(
    (category) => ({
      category,
      score: 0,
      conduct: 0,
      backingUsd: null,
      confidence: 0.95,
      factors: [factor],
      inputsKey: fingerprint(`contract:${f.contractLabel ?? ''}`),
      offchainKey: '',
      evidenceAt: null,
    }),
  );
}

const byImpact = (a: Factor, b: Factor) => Math.abs(b.impact) - Math.abs(a.impact);

export interface CompositeInput {
  category: Category;
  score: number;
  /** the category's conduct before its backing ceiling (default: its score) */
  conduct?: number;
  /** the category's backing in USD (null: a verification category) */
  backingUsd?: number | null;
  confidence: number;
  inputsKey: string;
  /** points the category fell below 0 (CategoryResult.below); 0 when an admin revised its score */
  below?: number;
  conductBelow?: number;
}

/**
 * OVERALL from the (effective) category scores: 500 + sum of weight x (score - 500), which equals the plain
 * weighted sum since the weights sum to 1, written so each category's factor says how far it pulled up or down.
 * A category's points below 0 count too: a category score stops at 0, but a wallet liquidated last week must rank
 * below one that never did anything, so OVERALL takes the liquidations' full weight.
 * Confidence is the weighted mean of the category confidences.
 */
export function composite(parts: readonly CompositeInput[], sanctioned: boolean | null, backingUsd: number | null = null): CategoryResult {
  let total = 0;
  let conduct = 0;
  let conf = 0;
  let keys = '';
  const factors: Factor[] = [];
  for (const p of parts) {
    if (p.category === 'OVERALL') continue;
    const w = WEIGHTS[p.category];
    const below = p.below ?? 0;
    total += w * (p.score - below);
    conduct += w * ((p.conduct ?? p.score) - (p.conductBelow ?? 0));
    conf += w * p.confidence;
    keys += p.inputsKey;
    factors.push({
      code: `CATEGORY_${p.category}`,
      description:
        below > 0
          ? `${p.category} ${p.score} (weight ${Math.round(w * 100)}%), and ${below} points of ${p.category === 'DEFI_LENDING' ? 'liquidations or upheld claims' : 'a rejected KYC'} below its 0`
          : `${p.category} ${p.score} (weight ${Math.round(w * 100)}%)`,
      impact: Math.round(w * (p.score - below - 500)),
    });
  }
  let score = Math.round(clamp(total, 0, 1000));
  if (sanctioned === true && score > SANCTIONED_OVERALL_CAP) {
    factors.push({
      code: 'SANCTIONED_CAP',
      description: `sanctioned address: OVERALL capped at ${SANCTIONED_OVERALL_CAP}`,
      impact: SANCTIONED_OVERALL_CAP - score,
    });
    score = SANCTIONED_OVERALL_CAP;
  }
  factors.sort(byImpact);
  return {
    category: 'OVERALL',
    score,
    conduct:
      sanctioned === true ? Math.min(SANCTIONED_OVERALL_CAP, Math.round(clamp(conduct, 0, 1000))) : Math.round(clamp(conduct, 0, 1000)),
    backingUsd: backingUsd === null ? null : Math.round(backingUsd * 100) / 100,
    confidence: round3(conf),
    factors: factors.length > MAX_FACTORS ? factors.slice(0, MAX_FACTORS) : factors,
    inputsKey: fingerprint(keys),
    offchainKey: '',
  };
}

/** All nine results, OVERALL first (the order of CATEGORIES). */
export function scoreWallet(input: ModelInput): CategoryResult[] {
  const cats = scoreCategories(input);
  const backing = input.features.accountType === 'contract' ? null : backingOf(input.features).total;
  cats.unshift(composite(cats, input.compliance?.sanctioned ?? null, backing));
  return cats;
}
