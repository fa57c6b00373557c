// The refresh worker: every tick it claims (for a lease) and queues tracked wallets whose last sync is older than
// the refresh interval (never-synced first, including those first seen by an API-only instance). Instances claim
// disjoint wallets; a wallet whose sync failed is retried when its lease ends. Stopping waits for running syncs.
import type { Worker } from '../../platform/context.js';
import type { IngestionRepo } from './repo.js';
import type { IngestionEngine } from './service.js';

export interface RefreshWorkerOptions {
  refreshIntervalSeconds: number;
  tickMs: number;
  /** wallets queued per tick at most */
  batch: number;
  /** how long a claimed wallet is left to this worker; a failed sync is retried once the lease ends */
  leaseSeconds: number;
  onError(err: unknown): void;
}

export function createRefreshWorker(engine: IngestionEngine, repo: IngestionRepo, opts: RefreshWorkerOptions): Worker {
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  async function tick() {
    // keep the queue short: only top it up once it has drained
    if (engine.queued > 0) return;
    const due = await repo.claimDue(opts.refreshIntervalSeconds, opts.batch, opts.leaseSeconds);
    for (const w of due) void engine.enqueue(w);
  }

  return {
    name: 'ingestion-refresh',
    start() {
      const run = () => {
        ticking = tick()
          .catch(opts.onError)
          .finally(() => {
            ticking = null;
          });
      };
      timer = setInterval(run, opts.tickMs);
      timer.unref();
      run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await ticking;
      await engine.stop();
    },
  };
}
