// The scoring service: reads a wallet's features (its own SQL over the activity table) and the other modules'
// signals, runs the pure model, stores scores, history and webhook outbox rows in one transaction, then announces
// changes and evicts cached reads.
import type { Db } from '../../platform/db/types.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { CacheFactory } from '../../platform/cache/index.js';
import type { ModuleServices } from '../../platform/context.js';
import { writeAudit } from '../../platform/audit.js';
import {
  CATEGORIES,
  SCORE_UPDATED,
  type Category,
  type Coverage,
  type Factor,
  type ScoreChange,
  type ScoreEntry,
  type ScoringService,
  UNREAD_PROTOCOL,
} from './contracts.js';
import { decayConfidence, MAX_FACTORS, MODEL_VERSION, NO_COMPLIANCE, NO_IDENTITY, tierFor, type ModelInput } from './model/index.js';
import { planWallet, type Override } from './plan.js';
import { model } from './params.js';
import { createScoresRepo, type ReadRow, type ScoreRow, type StoredRow } from './repo.js';
import type { FeatureReader } from './features/index.js';

export const CACHE_TTL_MS = 60_000;
/** How long a first read waits for the wallet's first ingestion. */
export const FIRST_READ_WAIT_MS = 2_000;

export interface ScoringDeps {
  db: Db;
  bus: Pick<EventBus, 'publish'>;
  caches: CacheFactory;
  /** The wallets' on-chain features (features/reader.ts; benchmarks time it) */
  features: FeatureReader;
  /** Where evidence comes from and where score changes go: the providers' signals and the webhook outbox. */
  services: ScoringInputs;
  now?: () => Date;
}

/** What scoring reads from (and writes to) other modules; read when a wallet is scored, so a swapped provider counts. */
export type ScoringInputs = Pick<ModuleServices, 'ingestion' | 'debtClaims' | 'compliance' | 'identity' | 'webhooks'>;

/** Inputs for a scoring service run without the other modules (benchmarks): do-nothing
 *  providers: no chain read (coverage none), no claims, no KYC or sanctions list, no DID; `webhooks` writes nothing
 *  unless given. */
export function standaloneInputs(
  webhooks: ScoringInputs['webhooks'] = { enqueue: async () => undefined, enqueueEvent: async () => undefined },
): ScoringInputs {
  const none = (at: Date): Coverage => ({ status: 'none', asOf: at, reason: NO_CHAIN_SOURCE, chains: [] });
  return {
    ingestion: {
      ensureFresh: async () => undefined,
      coverageFor: async (addresses) => new Map(addresses.map((a) => [a, none(new Date())])),
      contractOf: async () => undefined,
      onSynced: () => undefined,
    },
    debtClaims: { signalsFor: async () => [], signalsForMany: async (a) => a.map(() => []) },
    compliance: { signalFor: async () => NO_COMPLIANCE, signalsForMany: async (a) => a.map(() => NO_COMPLIANCE) },
    identity: {
      signalFor: async () => NO_IDENTITY,
      signalsForMany: async (a) => a.map(() => NO_IDENTITY),
      resolveDid: async () => null,
      recordControl: async () => undefined,
    },
    webhooks,
  };
}

type WalletEntries = Record<Category, ScoreEntry>;

/** A stored row as an entry: the read paths below give it its factors (explain) or its coverage (the bare batch). */
function entryOf(r: ReadRow, now: Date, factors: ScoreEntry['factors'], coverage: Coverage | undefined): ScoreEntry {
  return {
    category: r.category,
    score: r.score,
    conduct: r.conduct ?? r.score,
    backingUsd: r.backing_usd === null || r.backing_usd === undefined ? null : Number(r.backing_usd),
    confidence: decayConfidence(r.confidence, r.decay_anchor, now),
    tier: tierFor(r.score),
    calculatedAt: r.calculated_at,
    modelVersion: r.model_version,
    factors,
    coverage,
  };
}

export const toEntry = (r: ReadRow, now: Date): ScoreEntry => entryOf(r, now, r.factors, undefined);

export const withoutFactors = (e: ScoreEntry): ScoreEntry => ({
  category: e.category,
  score: e.score,
  conduct: e.conduct,
  backingUsd: e.backingUsd,
  confidence: e.confidence,
  tier: e.tier,
  calculatedAt: e.calculatedAt,
  modelVersion: e.modelVersion,
  coverage: e.coverage,
});

/** withoutFactors(withCoverage(toEntry(r, now), coverage)), made in one step (the batch read without factors). */
const bareEntry = (r: ReadRow, now: Date, coverage: Coverage): ScoreEntry => entryOf(r, now, undefined, coverage);

// --- coverage: how much of a wallet's history the sources read ---
export const NO_CHAIN_SOURCE = 'NO_CHAIN_SOURCE';
const NO_SOURCE_FACTOR = {
  code: NO_CHAIN_SOURCE,
  description:
    'no chain source is configured: on-chain activity was not read, so no activity found here is not a finding. To read it, start the ' +
    'service with CREDENCE_RPC_URL_<chainId> (e.g. CREDENCE_RPC_URL_1=https://...) or CREDENCE_EXPLORER_API_URL + CREDENCE_EXPLORER_API_KEY; ' +
    'for data at once, run `npm run demo` (a local chain with scored wallets) or use a cred_test_ key (deterministic sandbox scores)',
  impact: 0,
};

/** An entry with its wallet's coverage. With no chain source, "no ... activity found" factors would state as fact
 *  something nobody looked at: they give way to NO_CHAIN_SOURCE. Where the wallet used a known lending or trading
 *  protocol that is not read (reason UNREAD_PROTOCOL), the categories it belongs to say so in a factor (withUnread). */
export function withCoverage(e: ScoreEntry, coverage: Coverage, kindOf: UnreadKindOf = () => undefined): ScoreEntry {
  if (coverage.status !== 'none' || !e.factors)
    return e.factors && coverage.reason ? withUnread({ ...e, factors: e.factors, coverage }, coverage.reason, kindOf) : { ...e, coverage };
  // evidence was found (an import) and discounted: the factors say why, and that is a finding
  if (e.factors.some((f) => DISCOUNTED_EVIDENCE.has(f.code))) return { ...e, coverage };
  // Off-chain evidence (DIDs, KYC, sanctions) was looked at: its "none found" factors stay true.
  const rest = e.factors.filter((f) => !ON_CHAIN_ABSENCE.has(f.code));
  // what the model found stays first (an admin's revision, a protocol contract's label); then what was not read
  return { ...e, coverage, factors: [...rest, NO_SOURCE_FACTOR] };
}

type UnreadKindOf = (protocol: string) => 'lending' | 'trading' | undefined;
/** the protocols of each kind a category reads (OVERALL: both), its factor saying it found none on those read, and
 *  whether its signals that lowered the score must stay listed (a category's conduct signals, such as a liquidation;
 *  OVERALL's factors are its categories' pulls, and one left out is still counted in its "other categories" line) */
const UNREAD_SCOPE: Partial<Record<Category, { kinds: ('lending' | 'trading')[]; absence?: string; keepLowering: boolean }>> = {
  DEFI_LENDING: { kinds: ['lending'], absence: 'NO_LENDING_HISTORY', keepLowering: true },
  DEFI_TRADING: { kinds: ['trading'], absence: 'NO_TRADING_HISTORY', keepLowering: true },
  OVERALL: { kinds: ['lending', 'trading'], keepLowering: false },
};

/**
 * A lender reads "no lending history" as "never borrowed": where tokens moved between the wallet and an unread lending
 * protocol, that is not known (a stranger can send it tokens from one too: the factor says what was seen, no more).
 * The category's factors then name the protocols (UNREAD_PROTOCOL, impact 0) in place of its "none found" factor, or
 * after its own signals (when there are already MAX_FACTORS, see the end).
 */
function withUnread(e: ScoreEntry & { factors: Factor[] }, reason: string, kindOf: UnreadKindOf): ScoreEntry {
  const scope = UNREAD_SCOPE[e.category];
  if (!scope || !reason.startsWith(`${UNREAD_PROTOCOL}:`)) return e;
  const names = reason
    .slice(UNREAD_PROTOCOL.length + 1)
    .split(',')
    .filter((n) => {
      const kind = kindOf(n);
      return kind !== undefined && scope.kinds.includes(kind);
    });
  if (!names.length) return e;
  const what = scope.kinds.length === 1 ? `${scope.kinds[0]} protocol${names.length > 1 ? 's' : ''}` : 'protocols';
  const absent = !!scope.absence && e.factors.some((f) => f.code === scope.absence);
  const factor: Factor = {
    code: UNREAD_PROTOCOL,
    description: absent
      ? `none found on the ${scope.kinds[0]} protocols read, but tokens moved between this wallet and ${names.join(', ')} (${what} not read): its ${scope.kinds[0]} there, if any, is not in this score`
      : `tokens also moved between this wallet and ${names.join(', ')} (${what} not read): its activity there, if any, is not in this score`,
    impact: 0,
  };
  const rest = e.factors.filter((f) => f.code !== scope.absence);
  if (rest.length < MAX_FACTORS) return { ...e, factors: [...rest, factor] };
  // full: the smallest signal gives way, but in a category never one that lowered the score (a wallet cannot hide a
  // liquidation's reason code by touching an unread protocol): with six of those the coverage reason alone names it
  let i = rest.length - 1;
  while (scope.keepLowering && i >= 0 && rest[i].impact < 0) i--;
  return i < 0 ? e : { ...e, factors: [...rest.slice(0, i), ...rest.slice(i + 1), factor] };
}

const DISCOUNTED_EVIDENCE = new Set([
  'SWAPS_DISCOUNTED',
  'NFTS_DISCOUNTED',
  'DELEGATIONS_DISCOUNTED',
  'ATTESTATIONS_DISCOUNTED',
  'FEES_UNBACKED',
  'NO_CREDIT_RECORD',
]);
const ON_CHAIN_ABSENCE = new Set([
  'NO_LENDING_HISTORY',
  'NO_TRADING_HISTORY',
  'NO_GOVERNANCE_ACTIVITY',
  'NO_NFT_ACTIVITY',
  'NO_SOCIAL_GRAPH',
  'NO_CONTRACTS_DEPLOYED',
]);
// --- end coverage ---

export type ScoringServiceImpl = ScoringService & {
  /** The cached entry (with factors) when there is one: the synchronous hot path, no database. */
  peekScore(address: string, category: Category): ScoreEntry | undefined;
  knownAddresses(addresses: string[]): Promise<string[]>;
  history(address: string): Promise<ScoreChange[]>;
  /** Recomputes several wallets in one transaction. */
  recomputeMany(addresses: string[], cause: string): Promise<ScoreChange[]>;
};

export function createScoringService(deps: ScoringDeps): ScoringServiceImpl {
  const { db, bus, services } = deps;
  const now = deps.now ?? (() => new Date());
  const repo = createScoresRepo(db);
  // One entry per wallet holding its nine category entries: every address/category is served from memory for 60 s.
  const cache = deps.caches.create<WalletEntries>('scores', { ttlMs: CACHE_TTL_MS, maxEntries: 200_000 });
  const firstReads = new Map<string, Promise<void>>();
  // first reads still waiting for ingestion: what a sync brings meanwhile is in the score they compute after
  const awaitingSync = new Set<string>();

  /** Evidence of these wallets: features, debt claims, compliance and identity, a few statements per source. */
  async function evidenceOf(addresses: string[]): Promise<ModelInput[]> {
    const [features, claims, compliance, identity] = await Promise.all([
      deps.features.forMany(addresses),
      services.debtClaims.signalsForMany(addresses),
      services.compliance.signalsForMany(addresses),
      services.identity.signalsForMany(addresses),
    ]);
    return addresses.map((_, i) => ({ features: features[i], claims: claims[i], compliance: compliance[i], identity: identity[i] }));
  }
  const coverageFor = (addresses: string[]) => services.ingestion.coverageFor(addresses);
  const unreadKindOf: UnreadKindOf = (protocol) => services.ingestion.unreadKind?.(protocol);

  /** Scores these wallets from current evidence and writes everything in one transaction. */
  async function persist(addresses: string[], cause: string, override?: { address: string } & Override, actor?: string) {
    const [inputs, coverage] = await Promise.all([evidenceOf(addresses), coverageFor(addresses)]);
    const results = inputs.map((input) => model.scoreCategories(input));
    const at = now();
    const { rows, changes, hadRows } = await db.tx(async (q) => {
      const stored = await repo.lockRows(q, addresses);
      const byAddress = new Map<string, StoredRow[]>();
      for (const r of stored) {
        const list = byAddress.get(r.address);
        if (list) list.push(r);
        else byAddress.set(r.address, [r]);
      }
      const rows: ScoreRow[] = [];
      const changes: ScoreChange[] = [];
      addresses.forEach((address, i) => {
        const plan = planWallet(
          {
            address,
            results: results[i],
            sanctioned: inputs[i].compliance?.sanctioned ?? null,
            lastActivityAt: inputs[i].features.lastActivityAt,
            stored: byAddress.get(address) ?? [],
            override: override?.address === address ? override : undefined,
            claimPoints: model.claimPoints(inputs[i].claims ?? []),
            overallBackingUsd: inputs[i].features.accountType === 'contract' ? null : model.backingOf(inputs[i].features).total,
          },
          cause,
          at,
        );
        rows.push(...plan.rows);
        changes.push(...plan.changes);
      });
      for (const c of changes) c.coverage = coverage.get(c.address);
      await repo.upsert(q, rows);
      await repo.insertChanges(q, changes);
      if (override && actor) {
        const prev = stored.find((r) => r.address === override.address && r.category === override.category);
        await writeAudit(q, {
          actor,
          action: 'score.revised',
          target: `wallet:${override.address}`,
          details: { category: override.category, disputeId: override.disputeId, oldScore: prev?.score ?? null, newScore: override.score },
        });
      }
      if (changes.length > 0) await services.webhooks.enqueue(q, changes);
      return { rows, changes, hadRows: new Set(stored.map((r) => r.address)) };
    });
    for (const c of changes) bus.publish(SCORE_UPDATED, c);
    // Only wallets that had rows can have cached entries; evict those everywhere (new values, confidences, factors).
    for (const a of hadRows) cache.invalidate(a);
    return { rows, changes };
  }

  async function recomputeMany(addresses: string[], cause: string): Promise<ScoreChange[]> {
    const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
    if (unique.length === 0) return [];
    return (await persist(unique, cause)).changes;
  }

  /** First read of a never-scored wallet: give ingestion up to 2 s, then score it. Concurrent first reads share one. */
  function firstRead(addresses: string[]): Promise<void> {
    const todo = addresses.filter((a) => !firstReads.has(a));
    if (todo.length > 0) {
      const p = (async () => {
        for (const a of todo) awaitingSync.add(a);
        try {
          await Promise.all(todo.map((a) => services.ingestion.ensureFresh(a, FIRST_READ_WAIT_MS).catch(() => undefined)));
        } finally {
          for (const a of todo) awaitingSync.delete(a);
        }
        await persist(todo, 'first_read');
      })();
      const done = p.finally(() => {
        for (const a of todo) if (firstReads.get(a) === done) firstReads.delete(a);
      });
      for (const a of todo) firstReads.set(a, done);
    }
    return Promise.all(addresses.map((a) => firstReads.get(a))).then(() => undefined);
  }

  async function loadWallet(address: string): Promise<WalletEntries> {
    const hit = cache.get(address);
    if (hit) return hit;
    let rows = await repo.readWallet(address);
    if (rows.length < CATEGORIES.length) {
      await firstRead([address]);
      rows = await repo.readWallet(address);
    } else if (rows.some((r) => r.model_version !== MODEL_VERSION)) {
      await persist([address], 'model_upgrade');
      rows = await repo.readWallet(address);
    }
    const at = now();
    const entries = {} as WalletEntries;
    const coverage = (await coverageFor([address])).get(address)!;
    for (const r of rows) entries[r.category] = withCoverage(toEntry(r, at), coverage, unreadKindOf);
    cache.set(address, entries);
    return entries;
  }

  return {
    async getScores(address, opts = {}) {
      const e = await loadWallet(address.toLowerCase());
      return CATEGORIES.map((c) => (opts.explain ? e[c] : withoutFactors(e[c])));
    },

    peekScore(address, category) {
      return cache.get(address.toLowerCase())?.[category];
    },

    async getScore(address, category, opts = { explain: true }) {
      const e = await loadWallet(address.toLowerCase());
      return opts.explain === false ? withoutFactors(e[category]) : e[category];
    },

    async getBatch(addresses, category, opts = {}) {
      const lower = addresses.map((a) => a.toLowerCase());
      const found = new Map<string, ScoreEntry>();
      const toRead: string[] = [];
      for (const a of new Set(lower)) {
        const hit = cache.get(a);
        if (hit) found.set(a, opts.explain ? hit[category] : withoutFactors(hit[category]));
        else toRead.push(a);
      }
      if (toRead.length > 0) {
        const at = now();
        const [rows, coverage] = await Promise.all([repo.readCategory(toRead, category, !!opts.explain), coverageFor(toRead)]);
        // Without factors the entry is made directly: withCoverage's factor rewrite would be dropped at once.
        const entry = (r: ReadRow, t: Date): ScoreEntry =>
          opts.explain ? withCoverage(toEntry(r, t), coverage.get(r.address)!, unreadKindOf) : bareEntry(r, t, coverage.get(r.address)!);
        const stale: string[] = [];
        for (const r of rows) {
          if (r.model_version !== MODEL_VERSION) stale.push(r.address);
          else found.set(r.address, entry(r, at));
        }
        const missing = toRead.filter((a) => !found.has(a) && !stale.includes(a));
        if (missing.length > 0) await firstRead(missing);
        if (stale.length > 0) await persist(stale, 'model_upgrade');
        if (missing.length > 0 || stale.length > 0) {
          // first reads ingested meanwhile: their coverage is read again
          for (const [k, v] of await coverageFor(missing)) coverage.set(k, v);
          for (const r of await repo.readCategory([...missing, ...stale], category, !!opts.explain)) found.set(r.address, entry(r, now()));
        }
      }
      return lower.map((a) => found.get(a)!);
    },

    async recompute(address, cause) {
      return recomputeMany([address], cause);
    },

    async walletSynced(address) {
      if (!awaitingSync.has(address)) await recomputeMany([address], 'ingestion');
    },

    recomputeMany,

    async applyRevisedScore(address, category, score, actor, disputeId) {
      const a = address.toLowerCase();
      if (!Number.isInteger(score) || score < 0 || score > 1000) throw new RangeError('revised score must be an integer 0-1000');
      const known = await repo.known([a]);
      if (known.length === 0) await firstRead([a]);
      return (await persist([a], 'dispute_revision', { address: a, category, score, disputeId }, actor)).changes;
    },

    async knownAddresses(addresses) {
      if (addresses.length === 0) return [];
      return repo.known(addresses.map((a) => a.toLowerCase()));
    },

    async history(address) {
      return repo.history(address.toLowerCase());
    },
  };
}
