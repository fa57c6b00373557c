// The ingestion service (ModuleServices.ingestion): coverage from stored activity, and a bounded
// queue that syncs wallets on every configured chain. Per chain an explorer API backfills the history and JSON-RPC
// follows the head (either alone does everything). Chains are synced side by side; as each chain finishes, the
// wallet's listeners hear of it (scoring rescores it), so `score.updated` follows every chain instead of waiting for
// the slowest. Ingestion knows nothing of scoring: scoring subscribes (`onSynced`) when it is wired. A failed sync
// backs the wallet off exponentially (stored, shared by every instance): neither the refresh worker nor a read
// starts another sync of it before its retry_at.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db/types.js';
import type { Coverage, IngestionService } from '../scoring/contracts.js';
import { lazy } from '../../platform/lazy.js';
import { coverageOf } from './coverage.js';
import { protocolContract, unreadContracts, unreadKind } from './registry/index.js';
import { createCoverageRepo } from './coverage-repo.js';
import type { ExplorerSource } from './explorer/source.js';
import type { Pinned } from './log-plan.js';
import { verifiedPool, type IngestionRepo } from './repo.js';
import type { ChainSource } from './rpc-source.js';
import { priceReaderFor, type PriceReader } from './pricing/reader.js';
import type { SyncOptions, SyncResult } from './sync.js';

// the sync paths (decoders, event ABIs, viem) load with the first sync, not at every start; the promise is kept
const loadSync = lazy(() => Promise.all([import('./explorer/sync.js'), import('./sync.js')]));

export interface IngestionDeps {
  db: Db;
  repo: IngestionRepo;
  /** JSON-RPC sources, one per chain */
  sources: ChainSource[];
  /** explorer sources, one per chain */
  explorers?: ExplorerSource[];
  log: Pick<FastifyBaseLogger, 'warn' | 'error' | 'debug'>;
  /** wallets synced at once by this instance */
  concurrency: number;
  /** false: requests only mark wallets for the refresh worker (CREDENCE_INGEST_ON_READ). */
  ingestOnRead: boolean;
  sync?: Partial<Omit<SyncOptions, 'signal' | 'pinned'>>;
  /** per-chain sync options (finality, confirmations) over `sync` */
  chainSync?: Record<number, Partial<Omit<SyncOptions, 'signal' | 'pinned'>>>;
  /** the registry's contracts of a chain (null: no registry for it) */
  pinned?: (chainId: number) => Pinned[] | null;
  /** failed syncs: retried after base * 2^(failures-1) s, at most max s */
  backoff?: { baseSeconds: number; maxSeconds: number };
}

export interface IngestionEngine extends IngestionService {
  /** Syncs a wallet on every chain now (deduplicated with a sync already running for it). */
  syncWallet(address: string): Promise<SyncResult[]>;
  /** Queues a wallet; resolves when its sync finishes (errors are logged, not thrown). */
  enqueue(address: string): Promise<void>;
  /** Stops taking work and waits for running syncs to stop at their next chunk boundary. */
  stop(): Promise<void>;
  coverageFor(addresses: string[]): Promise<Map<string, Coverage>>;
  /** chains with a configured source */
  readonly chains: number[];
  /** oracle prices over the chain's JSON-RPC source (bulk imports value with it); undefined without one */
  priceReader(chainId: number): PriceReader | undefined;
  readonly queued: number;
  readonly running: number;
}

export function createIngestionService(deps: IngestionDeps): IngestionEngine {
  const { db, repo, sources, log } = deps;
  const explorers = deps.explorers ?? [];
  const coverageRepo = createCoverageRepo(db);
  const chains = [...new Set([...sources.map((s) => s.chainId), ...explorers.map((e) => e.chainId)])].sort((a, b) => a - b);
  // the unread contracts of the configured chains (coverage), listed once
  const unreadHere = unreadContracts().filter((u) => chains.includes(u.chainId));
  const backoff = deps.backoff ?? { baseSeconds: 60, maxSeconds: 6 * 3600 };
  const abort = new AbortController();
  const inflight = new Map<string, Promise<SyncResult[]>>();
  const waiting: string[] = [];
  const waiters = new Map<string, Promise<void>>();
  const resolvers = new Map<string, () => void>();
  let running = 0;
  let stopped = false;

  const optsFor = (chainId: number) => ({
    ...deps.sync,
    ...deps.chainSync?.[chainId],
    pinned: deps.pinned?.(chainId) ?? null,
    signal: abort.signal,
  });

  /** One chain: the explorer backfills what JSON-RPC has not read; JSON-RPC follows the head. */
  async function syncChain(wallet: string, chainId: number): Promise<SyncResult> {
    const explorer = explorers.find((e) => e.chainId === chainId);
    const rpc = sources.find((s) => s.chainId === chainId);
    let result: SyncResult | null = null;
    const [{ syncWalletFromExplorer }, { syncWalletOnChain }] = await loadSync();
    if (explorer) {
      const state = (await repo.syncStates(wallet)).find((s) => s.chainId === chainId);
      // with a JSON-RPC source as well, the explorer only backfills (first sync, or a cursor far behind)
      if (!rpc || state?.lastBlock == null)
        result = await syncWalletFromExplorer(
          db,
          repo,
          explorer,
          wallet,
          { ...optsFor(chainId), prices: rpc ? priceReaderFor(rpc) : undefined },
          rpc ? (h) => rpc.receiptLogs(h) : undefined,
        );
    }
    if (rpc) {
      const r = await syncWalletOnChain(db, repo, rpc, wallet, optsFor(chainId));
      result = result ? { ...r, newRecords: r.newRecords + result.newRecords, nonceChanged: r.nonceChanged || result.nonceChanged } : r;
      if (explorer)
        await coverageRepo.recordChainState(wallet, chainId, { source: 'explorer+rpc', finalizedBlock: r.head, complete: r.complete });
    }
    return result!;
  }

  const listeners: ((wallet: string) => Promise<void>)[] = [];
  async function synced(wallet: string) {
    // the activity is stored either way; a listener that fails (a rescoring) is retried by the next change or read
    for (const l of listeners) await l(wallet).catch((err) => log.error({ err, wallet }, 'a listener of a finished sync failed'));
  }

  async function doSync(wallet: string): Promise<SyncResult[]> {
    const results: SyncResult[] = [];
    const errors: unknown[] = [];
    await Promise.all(
      chains.map(async (chainId) => {
        try {
          const r = await syncChain(wallet, chainId);
          results.push(r);
          if (r.nonceScanCapped)
            log.debug({ wallet, chainId }, 'nonce past CREDENCE_NONCE_SCAN_MAX: later CREATE deployments not looked for');
          // each chain that finishes is announced (coverage changes even when no record is new)
          if (!abort.signal.aborted) await synced(wallet);
        } catch (err) {
          errors.push(err);
          log.warn({ err, wallet, chainId }, 'ingestion failed; cursor kept');
          await repo.recordError(wallet, chainId, String((err as Error)?.message ?? err)).catch(() => undefined);
        }
      }),
    );
    if (!errors.length && !abort.signal.aborted) {
      await repo.markSynced(wallet);
      await coverageRepo.clearFailures(wallet);
    } else if (errors.length) {
      await coverageRepo.recordFailure(wallet, backoff.baseSeconds, backoff.maxSeconds).catch(() => undefined);
    }
    if (errors.length && !results.length) throw errors[0];
    return results.sort((a, b) => a.chainId - b.chainId);
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
    if (stopped || !chains.length) return Promise.resolve();
    const p = new Promise<void>((resolve) => resolvers.set(wallet, resolve));
    waiters.set(wallet, p);
    waiting.push(wallet);
    pump();
    return p;
  }

  return {
    chains,
    priceReader(chainId: number) {
      const rpc = sources.find((s) => s.chainId === chainId);
      return rpc ? priceReaderFor(rpc) : undefined;
    },
    async contractOf(address: string) {
      // the evidence registry (reviewed data) labels protocol contracts, which the model does not score as users
      return protocolContract(address) ?? (await verifiedPool(db, address));
    },
    unreadKind,
    async coverageFor(addresses: string[]): Promise<Map<string, Coverage>> {
      const wallets = [...new Set(addresses.map((a) => a.toLowerCase()))];
      const rows = chains.length ? await coverageRepo.chains(wallets) : new Map();
      const unread = chains.length ? await coverageRepo.unreadTouched(wallets, unreadHere) : new Map<string, string[]>();
      const at = new Date();
      return new Map(
        wallets.map((w) => [
          w,
          coverageOf(
            chains,
            rows.get(w) ?? [],
            at,
            explorers.length > 0,
            sources.map((s) => s.chainId),
            unread.get(w),
          ),
        ]),
      );
    },
    async ensureFresh(address: string, maxWaitMs: number): Promise<void> {
      const wallet = address.toLowerCase();
      if (!chains.length) return;
      const isNew = await repo.track(wallet);
      if (!deps.ingestOnRead) return;
      if (!isNew && !waiters.has(wallet)) {
        const { synced, backingOff } = await coverageRepo.readiness(wallet);
        // a wallet already synced once is served from the store; the refresh worker keeps it current
        if (synced) return;
        // a wallet whose syncs keep failing is served from the store (coverage `partial`) until its retry_at: the
        // refresh worker tries it again then, so reads never turn a failing provider into a sync per request
        if (backingOff) return;
      }
      const done = enqueue(wallet);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, maxWaitMs))))]);
      clearTimeout(timer);
    },
    onSynced(listener) {
      listeners.push(listener);
    },
    syncWallet,
    enqueue,
    async stop() {
      stopped = true;
      abort.abort();
      waiting.length = 0;
      for (const r of resolvers.values()) r();
      await Promise.allSettled([...inflight.values()]);
      await Promise.allSettled([...sources.map((s) => s.close()), ...explorers.map((e) => e.close())]);
    },
    get queued() {
      return waiting.length;
    },
    get running() {
      return running;
    },
  };
}
