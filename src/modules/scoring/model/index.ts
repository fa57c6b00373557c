// The scoring model: pure functions from a wallet's features and signals to nine scores with reason codes.
// Nothing here reads a clock, a file, a database or the network: createModel is handed the parameters
// (data/scoring/, loaded once by ../params.ts), so the same inputs always give the same scores.
import type { Category, ComplianceSignal, DebtClaimSignal, Factor, IdentitySignal, WalletFeatures } from '../contracts.js';
import {
  claimsKey,
  compliance,
  developer,
  governance,
  identity,
  lending,
  nft,
  social,
  trading,
  type ModelSignals,
} from './categories/index.js';
import { claimPoints, creditorWeight, pendingPenalty, summarizeClaims, unverifiedPenalty, upheldPenalty } from './debt-claims.js';
import { EMPTY_POSITIONS } from './lending-positions.js';
import { backingOf, netInterest, type Backing } from './backing.js';
import { ceilingFor } from './cost-ceiling.js';
import type { ModelParams } from './params.js';
import { MAX_FACTORS, type CategoryResult } from './terms.js';
import { clamp, fingerprint, round3 } from './transforms.js';

export { tierFor, decayConfidence, TIERS } from './transforms.js';
export type { CategoryResult } from './terms.js';
export { MAX_FACTORS } from './terms.js';
export type { ModelParams } from './params.js';
export { ModelParamsSchema } from './params.js';

/** Conduct and backing apart: a category's conduct ranks behaviour, its backing is what the wallet lost and cannot get
 *  back (backing.ts), and the score is conduct held to what the backing supports; settled negative evidence below a
 *  category's 0 still counts in OVERALL. Scores stored under any other version are recomputed on their next read
 *  (cause model_upgrade); docs/scoring-model.md keeps what each version changed. */
export const MODEL_VERSION = '4.1.0';

export type Weights = Readonly<Record<Exclude<Category, 'OVERALL'>, number>>;

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

/** The eight independent categories; `backing`: the wallet's (backingOf), when the caller has it already. */
function scoreCategories(input: ModelInput, P: ModelParams, backing?: Backing): CategoryResult[] {
  const claims = input.claims ?? [];
  const s: ModelSignals = {
    claims: summarizeClaims(claims, P.debtClaims),
    claimsKey: claimsKey(claims),
    compliance: input.compliance ?? NO_COMPLIANCE,
    identity: input.identity ?? NO_IDENTITY,
  };
  const f = input.features;
  if (f.accountType === 'contract') return protocolContract(f);
  const b = backing ?? backingOf(f, P.backing);
  return [
    lending(f, s, P, b),
    trading(f, P, b),
    governance(f, P, b),
    nft(f, P, b),
    identity(f, s, P),
    social(f, P, b),
    developer(f, P, b),
    compliance(f, s, P),
  ];
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

/** OVERALL's factor code per category, each written once. */
const CATEGORY_CODE: Partial<Record<Category, string>> = {};

/** The factors' indices by absolute impact, largest first, ties in their order (as a stable sort leaves them). */
function factorOrder(factors: readonly Factor[]): number[] {
  const order: number[] = [];
  for (let i = 0; i < factors.length; i++) {
    const a = Math.abs(factors[i].impact);
    let j = i - 1;
    while (j >= 0 && Math.abs(factors[order[j]].impact) < a) {
      order[j + 1] = order[j];
      j--;
    }
    order[j + 1] = i;
  }
  return order;
}

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
function composite(
  parts: readonly CompositeInput[],
  sanctioned: boolean | null,
  backingUsd: number | null,
  P: ModelParams,
): CategoryResult {
  const cap = P.sanctionedOverallCap;
  let total = 0;
  let conduct = 0;
  let conf = 0;
  let keys = '';
  const factors: Factor[] = [];
  // the parts each factor's description is written from, built once the sort has said which factors are kept
  const described: CompositeInput[] = [];
  for (const p of parts) {
    if (p.category === 'OVERALL') continue;
    const w = P.weights[p.category];
    const below = p.below ?? 0;
    total += w * (p.score - below);
    conduct += w * ((p.conduct ?? p.score) - (p.conductBelow ?? 0));
    conf += w * p.confidence;
    keys += p.inputsKey;
    factors.push({
      code: (CATEGORY_CODE[p.category] ??= `CATEGORY_${p.category}`),
      description: '',
      impact: Math.round(w * (p.score - below - 500)),
    });
    described.push(p);
  }
  let score = Math.round(clamp(total, 0, 1000));
  if (sanctioned === true && score > cap) {
    factors.push({
      code: 'SANCTIONED_CAP',
      description: `sanctioned address: OVERALL capped at ${cap}`,
      impact: cap - score,
    });
    score = cap;
  }
  // factor k is part k's (the cap, if any, comes last): order the indices, then write the kept ones' descriptions
  const order = factorOrder(factors);
  const kept: Factor[] = [];
  for (let i = 0; i < order.length && i < MAX_FACTORS; i++) {
    const k = order[i];
    const f = factors[k];
    if (k < described.length) {
      const p = described[k];
      const w = P.weights[p.category as Exclude<Category, 'OVERALL'>];
      const below = p.below ?? 0;
      f.description =
        below > 0
          ? `${p.category} ${p.score} (weight ${Math.round(w * 100)}%), and ${below} points of ${p.category === 'DEFI_LENDING' ? 'liquidations or upheld claims' : 'a rejected KYC'} below its 0`
          : `${p.category} ${p.score} (weight ${Math.round(w * 100)}%)`;
    }
    kept.push(f);
  }
  return {
    category: 'OVERALL',
    score,
    conduct: sanctioned === true ? Math.min(cap, Math.round(clamp(conduct, 0, 1000))) : Math.round(clamp(conduct, 0, 1000)),
    backingUsd: backingUsd === null ? null : Math.round(backingUsd * 100) / 100,
    confidence: round3(conf),
    factors: kept,
    inputsKey: fingerprint(keys),
    offchainKey: '',
  };
}

/** The model with its parameters: what the service, the tests and the benchmarks score with. */
export interface Model {
  readonly params: ModelParams;
  /** OVERALL = sum of weight x category score; the weights sum to 1 */
  readonly weights: Weights;
  /** All nine results, OVERALL first (the order of CATEGORIES). */
  scoreWallet(input: ModelInput): CategoryResult[];
  /** The eight independent categories. */
  scoreCategories(input: ModelInput): CategoryResult[];
  /** OVERALL from the (effective) category scores; `backingUsd`: all the wallet lost, each dollar once. */
  composite(parts: readonly CompositeInput[], sanctioned: boolean | null, backingUsd?: number | null): CategoryResult;
  /** The wallet's backing per category, in USD. */
  backingOf(f: WalletFeatures): Backing;
  /** Interest paid beyond what the same debt, parked, would have earned. */
  netInterest(p: Parameters<typeof netInterest>[0]): number;
  /** The most points `usd` of backing supports. */
  ceilingFor(usd: number): number;
  /** The signed points all claims add to DEFI_LENDING (0 or less). */
  claimPoints(claims: readonly DebtClaimSignal[]): number;
  /** A creditor's weight from its own current scores. */
  creditorWeight(scores: readonly { category: Category; score: number }[]): number;
  pendingPenalty(creditorWeights: number): number;
  unverifiedPenalty(distinctCreditors: number): number;
  upheldPenalty(upheld: number): number;
}

export function createModel(P: ModelParams): Model {
  const model: Model = {
    params: P,
    weights: P.weights,
    scoreWallet(input) {
      const backing = input.features.accountType === 'contract' ? null : backingOf(input.features, P.backing);
      const cats = scoreCategories(input, P, backing ?? undefined);
      cats.unshift(composite(cats, input.compliance?.sanctioned ?? null, backing === null ? null : backing.total, P));
      return cats;
    },
    scoreCategories: (input) => scoreCategories(input, P),
    composite: (parts, sanctioned, backingUsd = null) => composite(parts, sanctioned, backingUsd, P),
    backingOf: (f) => backingOf(f, P.backing),
    netInterest: (p) => netInterest(p, P.backing),
    ceilingFor: (usd) => ceilingFor(usd, P.ceiling),
    claimPoints: (claims) => claimPoints(claims, P.debtClaims),
    creditorWeight: (scores) => creditorWeight(scores, P.debtClaims),
    pendingPenalty: (w) => pendingPenalty(w, P.debtClaims),
    unverifiedPenalty: (n) => unverifiedPenalty(n, P.debtClaims),
    upheldPenalty: (n) => upheldPenalty(n, P.debtClaims),
  };
  return model;
}
