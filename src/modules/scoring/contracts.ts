// The interfaces modules use to talk to each other about scores. Each module implements its part, set in
// ModuleServices (platform/context.ts); callers reach it only through that face (never its tables).
import type { Queryable } from '../../platform/db/types.js';
import type { LendingPositions } from './model/lending-positions.js';
import type { Category } from './categories.js';

export { CATEGORIES, categoryId, type Category } from './categories.js';

export interface Factor {
  code: string;
  description: string;
  /** signed points this signal contributed */
  impact: number;
}

export interface ScoreEntry {
  category: Category;
  score: number;
  /** the conduct score before the backing ceiling (how the wallet behaves) */
  conduct: number;
  /** USD the wallet lost and cannot get back that backs the score; null for verification categories */
  backingUsd: number | null;
  /** decayed confidence at read time */
  confidence: number;
  tier: string;
  calculatedAt: Date;
  modelVersion: string;
  factors?: Factor[];
  /** how much on-chain history the evidence covers (ingestion area) */
  coverage?: Coverage;
}

/** Coverage's reason where the wallet used known lending or trading protocols that are not read:
 *  `UNREAD_PROTOCOL:<names, comma-separated>` (ingestion writes it; the scores' factors name them too). */
export const UNREAD_PROTOCOL = 'UNREAD_PROTOCOL';

/** Coverage of a wallet's on-chain history by ingestion, per configured chain (see docs/ingestion.md). */
export interface Coverage {
  status: 'complete' | 'partial' | 'none';
  asOf: Date;
  /** NO_CHAIN_SOURCE when no chain has a source (status none); otherwise null */
  reason: string | null;
  /** per configured chain; `protocols`: the lending and trading protocols whose events are read there (registry names) */
  chains: {
    chainId: number;
    syncedToBlock: number | null;
    finalizedBlock: number | null;
    complete: boolean;
    source: string;
    protocols: string[];
  }[];
}

/** One stored score change (history row and the `score.updated` event payload). Addresses lowercase. */
export interface ScoreChange {
  address: string;
  category: Category;
  oldScore: number | null;
  newScore: number;
  confidence: number;
  tier: string;
  calculatedAt: Date;
  modelVersion: string;
  /** what caused it: ingestion, debt_claim, dispute_revision, kyc, sanctions, ... */
  cause: string;
  /** the wallet's coverage when the change was computed (webhook payloads carry it) */
  coverage?: Coverage;
}

/** Topic on ctx.bus, published after commit once per change. */
export const SCORE_UPDATED = 'score.updated' as const;

/** Normalized on-chain evidence for one wallet across all supported chains (from the ingestion module). Only
 *  events from the registry's pinned contracts count; values are USD (stablecoins at 1), dust excluded. */
export interface WalletFeatures {
  address: string;
  /** 'contract' for a known protocol contract (router, pool, registry entry): labelled, never scored as a user */
  accountType?: 'wallet' | 'contract';
  /** the registry's label for a protocol contract */
  contractLabel?: string | null;
  chains: number[];
  firstActivityAt: Date | null;
  lastActivityAt: Date | null;
  /** days from the first to the latest activity: the wallet's age as of its latest evidence (no clock in the model) */
  ageDays?: number;
  /** outgoing transactions (sum of nonces) */
  txCount: number;
  activeDays: number;
  activeMonths: number;
  /** distinct addresses the wallet sent to (not its own contracts) */
  distinctCounterparties: number;
  tokenTransfers: number;
  distinctTokens: number;
  lending: {
    supplies: number;
    borrows: number;
    repays: number;
    liquidations: number;
    protocols: number;
    suppliedUsd?: number;
    borrowedUsd?: number;
    repaidUsd?: number;
    liquidatedUsd?: number;
    /** events with no known price (counted at the documented lower weight) */
    unvaluedBorrows?: number;
    unvaluedRepays?: number;
    unvaluedSupplies?: number;
    /** mean days from a borrow to the repayment that followed it; null without repayments */
    avgDaysToRepay?: number | null;
    /** positions over time rebuilt from the events (the only source of lending credit) */
    positions?: LendingPositions;
  };
  /** swaps the wallet sent, round trips netted out per pair and day; feesUsd: pool fees paid to others'
   *  liquidity (volume x fee tier), capped per day; activeDays: days whose fees reached the floor */
  trading: {
    swaps: number;
    distinctPools: number;
    protocols: number;
    activeDays: number;
    volumeUsd?: number;
    unvaluedSwaps?: number;
    feesUsd?: number;
    /** the part of feesUsd paid in pools on the reviewed list of established pools (data/scoring/established-pools.json):
     *  the only fees that back the category */
    backedFeesUsd?: number;
    /** swaps found but not credited, by reason (the factors say so) */
    discounted?: { ownLiquidity: number; clusterLiquidity: number; sameBlockLiquidity: number; roundTrips: number };
  };
  /** votes at or above the floor (data/scoring/costs.json); votePower: sum over proposals of each vote's weight 0-1;
   *  delegationsReceived: those that moved votes to the wallet, delegatedPower their summed weight */
  governance: {
    votes: number;
    proposalsVotedOn: number;
    delegationsMade: number;
    delegationsReceived: number;
    governors: number;
    votePower?: number;
    delegatedPower?: number;
    /** delegations of its own votes to itself: found, not counted */
    selfDelegations?: number;
  };
  /** only in transactions the wallet sent or paid in, only collections on the maintained list or with independent holders */
  nft: {
    mints: number;
    received: number;
    sent: number;
    collections: number;
    /** NFT records of its own transactions in collections neither listed nor held by enough others: not counted */
    unlisted?: number;
    /** NFTs minted to it or moved in someone else's transaction (an airdrop, an operator's transfer): not counted */
    notTheirs?: number;
  };
  /** usedContracts / thirdPartyUsers: deployed contracts called by others the deployer did not fund (bulk import) */
  developer: { contractsDeployed: number; contractsWithCode: number; usedContracts?: number; thirdPartyUsers?: number };
  identity: {
    ensNames: number;
    attestationsReceived: number;
    attestationsMade: number;
    /** attestations about it, and by it, from attesters not on the trusted list or about itself: not counted */
    untrustedReceived?: number;
    untrustedMade?: number;
  };
  /** gas the wallet paid (USD at reference prices, tips capped: data/scoring/backing.json), for the transactions that
   *  made each category's evidence, and for all of them (each transaction once) */
  gasUsd?: { lending: number; trading: number; governance: number; total: number };
  /** number of activity records behind these features */
  evidenceCount: number;
  /** per category, the time of its latest own evidence (the decay anchor); null: none, nothing decays */
  evidenceAt?: Partial<Record<'lending' | 'trading' | 'governance' | 'nft' | 'identity' | 'social' | 'developer', Date | null>>;
}
export interface DebtClaimSignal {
  id: string;
  creditorAddress: string;
  status: 'Pending' | 'Disputed' | 'Resolved' | 'Withdrawn';
  /** for Resolved claims */
  inFavorOf: 'creditor' | 'debtor' | null;
  amount: string;
  currency: string;
  createdAt: Date;
  /** last status change */
  updatedAt?: Date;
  /** when it was Resolved or Withdrawn */
  resolvedAt?: Date | null;
  /** creditor signed in, evidence transaction found between the parties, creditor has history of its own (debt-claims) */
  verified?: boolean;
  /** 0-1: the creditor's own costly history (debt-claims); absent: 1 */
  creditorWeight?: number;
  /** still in the debtor's notice period (a Pending claim counts only after it) */
  inNotice?: boolean;
}

export interface ComplianceSignal {
  /** null when no sanctions list is loaded */
  sanctioned: boolean | null;
  kycStatus: 'none' | 'pending' | 'approved' | 'rejected';
  kycLevel: 'none' | 'basic' | 'full';
}

export interface IdentitySignal {
  /** the wallet's DID (did:credence:<chainId>:<address>), null when none is registered */
  did: string | null;
  hasDid: boolean;
  didCreatedAt: Date | null;
  activeCredentials: number;
  /** the wallet proved control of its key (SIWE sign-in or a signed DID update): only then does a DID earn credit */
  controlProved?: boolean;
}

export interface ScoringService {
  /** All nine entries; computes and stores them first if the wallet was never scored. */
  getScores(address: string, opts?: { explain?: boolean }): Promise<ScoreEntry[]>;
  getScore(address: string, category: Category, opts?: { explain?: boolean }): Promise<ScoreEntry>;
  /** Many wallets, one category, one database round trip; request order. `explain` adds factors. */
  getBatch(addresses: string[], category: Category, opts?: { explain?: boolean }): Promise<ScoreEntry[]>;
  /** Recomputes every category from current evidence; stores changes, history and outbox rows in one transaction. */
  recompute(address: string, cause: string): Promise<ScoreChange[]>;
  /** A chain of the wallet finished syncing (ingestion's onSynced): rescore it, unless a first read is waiting for
   *  that sync (it scores the wallet once the wait ends). */
  walletSynced(address: string): Promise<void>;
  /** An admin's dispute resolution replaces one category's score (audited), then OVERALL follows. */
  applyRevisedScore(address: string, category: Category, score: number, actor: string, disputeId: string): Promise<ScoreChange[]>;
  /** Of these addresses (lowercase), those that already have stored scores. Lets list-wide changes (a new sanctions
   *  list) recompute only wallets integrators know. */
  knownAddresses(addresses: string[]): Promise<string[]>;
  /** The in-memory cached entry (with factors) of an address/category, if any: a synchronous read, no database. */
  peekScore(address: string, category: Category): ScoreEntry | undefined;
}

// Providers the scoring module reads from, each set by its own module (ModuleServices in platform/context.ts).
export interface IngestionService {
  /** Starts background ingestion for a wallet not seen before, waiting at most maxWaitMs for it. */
  ensureFresh(address: string, maxWaitMs: number): Promise<void>;
  /** Coverage of each wallet's history (lowercase addresses in, keys lowercase). */
  coverageFor(addresses: string[]): Promise<Map<string, Coverage>>;
  /** What a protocol named by coverage's UNREAD_PROTOCOL reason is: lending or trading (undefined: not known). */
  unreadKind?(protocol: string): 'lending' | 'trading' | undefined;
  /** A protocol contract (the registry's reviewed entry, else a pool seen in stored swaps) with its label, or undefined. */
  contractOf(address: string): Promise<{ label: string } | undefined>;
  /** Calls the listener (awaited) each time a chain of a wallet finishes syncing: scoring rescores it then. */
  onSynced(listener: (wallet: string) => Promise<void>): void;
}
export interface DebtClaimsSignals {
  signalsFor(debtorAddress: string): Promise<DebtClaimSignal[]>;
  /** The same for many debtors in one query (bulk scoring), in the order asked. */
  signalsForMany(debtorAddresses: string[]): Promise<DebtClaimSignal[][]>;
}
export interface ComplianceSignals {
  signalFor(address: string): Promise<ComplianceSignal>;
  /** The same for many wallets in one query (bulk scoring), in the order asked. */
  signalsForMany(addresses: string[]): Promise<ComplianceSignal[]>;
}
export interface IdentitySignals {
  signalFor(address: string): Promise<IdentitySignal>;
  /** The same for many wallets in a few queries (bulk scoring), in the order asked. */
  signalsForMany(addresses: string[]): Promise<IdentitySignal[]>;
  /** A registered DID in canonical form (any accepted spelling in), or null; used by compliance (KYC ownership). */
  resolveDid(did: string): Promise<{ did: string; walletAddress: string; chainId: number; isActive: boolean } | null>;
  /** Records that a wallet proved control of its key (auth calls it after a successful SIWE sign-in). */
  recordControl(address: string, method: 'siwe' | 'did_update'): Promise<void>;
}
/** The sanctions module's in-memory screening (O(1)); `sanctioned` is null when no list is loaded. */
export interface SanctionsService {
  status(address: string): { sanctioned: boolean | null; entityName: string | null; listPublishedAt: Date | null };
}
/** The webhooks module writes outbox rows inside the scoring transaction (durable delivery). */
export interface ScoreChangeOutbox {
  enqueue(q: Queryable, changes: ScoreChange[]): Promise<void>;
  /** Another event about a wallet (e.g. `debt_claim.filed`) to the webhooks matching it, in the caller's transaction. */
  enqueueEvent(q: Queryable, e: WalletEvent): Promise<void>;
}

/** A webhook event that is not a score change: delivered as `{event, timestamp, data}`. */
export interface WalletEvent {
  event: string;
  /** lowercase; webhooks filtered to another wallet do not get it */
  address: string;
  /** the category it concerns (deliveries list it) */
  category: Category;
  timestamp: Date;
  data: Record<string, unknown>;
}

export type { ChangeRow, ScoreChangeLog } from './changes-repo.js';

// The model with its parameters (data/scoring/, read once) and the debt claims' constants, for other modules.
export {
  model,
  MODEL_PARAMS,
  PENDING_PER_CREDITOR,
  PENDING_CAP,
  UNVERIFIED_PER_CREDITOR,
  UNVERIFIED_CAP,
  CREDITOR_MIN_WEIGHT,
  UNVERIFIED_WEIGHT,
} from './params.js';
