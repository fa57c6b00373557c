// The ingestion service (ctx.services.ingestion): features from stored activity, and a bounded queue that syncs
// wallets from every configured chain. First-seen wallets are queued at once; the refresh worker queues stale
// ones. After a sync that stored something new, the scoring service recomputes the wallet.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/types.js';
import type { IngestionService, ScoringService, WalletFeatures } from '../scoring/contracts.js';
import type { IngestionRepo } from './repo.js';
import type { ChainSource } from './rpc-source.js';
import { syncWalletOnChain, type SyncOptions, type SyncResult } from './sync.js';

export interface IngestionDeps {
  db: Db;
  repo: IngestionRepo;
  sources: ChainSource[];
  scoring: () => ScoringService | undefined;
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>;
  concurrency: number;
  /** false: requests only mark wallets for the refresh worker (CREDENCE_INGEST_ON_READ). */
  ingestOnRead: boolean;
  sync?: Partial<Omit<SyncOptions, 'signal'>>;
}

export interface IngestionEngine extends IngestionService {
  /** Syncs a wallet on every chain now (deduplicated with a sync already running for it). */
  syncWallet(address: string): Promise<SyncResult[]>;
  /** Queues a wallet; resolves when its sync finishes (errors are logged, not thrown). */
  enqueue(address: string): Promise<void>;
  /** Stops taking work and waits for running syncs to stop at their next chunk boundary. */
  stop(): Promise<void>;
  readonly queued: number;
  readonly running: number;
}

export function createIngestionService(deps: IngestionDeps): IngestionEngine {
  const { db, repo, sources, log } = deps;
  const opts = { maxBlockRange: 1_000_000_000, maxNoncesPerRun: 2_000, confirmations: 0, ...deps.sync };
  const abort = new AbortController();
  const inflight = new Map<string, Promise<SyncResult[]>>();
  const waiting: string[] = [];
  const waiters = new Map<string, Promise<void>>();
  const resolvers = new Map<string, () => void>();
  let running = 0;
  let stopped = false;

  async function doSync(wallet: string): Promise<SyncResult[]> {
    const results: SyncResult[] = [];
    const errors: unknown[] = [];
    await Promise.all(
      sources.map(async (s) => {
        try {
          results.push(await syncWalletOnChain(db, repo, s, wallet, { ...opts, signal: abort.signal }));
        } catch (err) {
          errors.push(err);
          log.warn({ err, wallet, chainId: s.chainId }, 'ingestion failed; cursor kept');
          await repo.recordError(wallet, s.chainId, String((err as Error)?.message ?? err)).catch(() => undefined);
        }
      }),
    );
    if (!errors.length && !abort.signal.aborted) await repo.markSynced(wallet);
    if (results.some((r) => r.newRecords > 0 || r.nonceChanged)) {
      // the activity is stored either way; a failed rescoring is retried by the next change or read
      await deps.scoring()?.recompute(wallet, 'ingestion').catch((err) => log.error({ err, wallet }, 'rescoring after ingestion failed'));
    }
    if (errors.length && !results.length) throw errors[0];
    return results;
  }

  function syncWallet(address: string): Promise<SyncResult[]> {
    const wallet = address.toLowerCase();
    let p = inflight.get(wallet);
    if (!p) {
      p = doSync(wallet).finally(() => inflight.delete(wallet));
      inflight.set(wallet, p);
    }
    return p;
  }

  function pump() {
    while (!stopped && running < deps.concurrency && waiting.length) {
      const wallet = waiting.shift()!;
      running++;
      syncWallet(wallet)
        .catch(() => undefined)
        .finally(() => {
          running--;
          resolvers.get(wallet)?.();
          resolvers.delete(wallet);
          waiters.delete(wallet);
          pump();
        });
    }
  }

  function enqueue(address: string): Promise<void> {
    const wallet = address.toLowerCase();
    const existing = waiters.get(wallet);
    if (existing) return existing;
    if (stopped || !sources.length) return Promise.resolve();
    const p = new Promise<void>((resolve) => resolvers.set(wallet, resolve));
    waiters.set(wallet, p);
    waiting.push(wallet);
    pump();
    return p;
  }

  return {
    async featuresFor(address: string): Promise<WalletFeatures> {
      return repo.features(address.toLowerCase());
    },
    async ensureFresh(address: string, maxWaitMs: number): Promise<void> {
      const wallet = address.toLowerCase();
      if (!sources.length) return;
      const isNew = await repo.track(wallet);
      if (!deps.ingestOnRead) return;
      // a wallet already synced once is served from the store; the refresh worker keeps it current
      if (!isNew && !waiters.has(wallet) && (await repo.isSynced(wallet))) return;
      const done = enqueue(wallet);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, maxWaitMs))))]);
      clearTimeout(timer);
    },
    syncWallet,
    enqueue,
    async stop() {
      stopped = true;
      abort.abort();
      waiting.length = 0;
      for (const r of resolvers.values()) r();
      await Promise.allSettled([...inflight.values()]);
      await Promise.allSettled(sources.map((s) => s.close()));
    },
    get queued() {
      return waiting.length;
    },
    get running() {
      return running;
    },
  };
}
