// Wires the ingestion module: one JSON-RPC source per configured chain, the ingestion service
// (ctx.services.ingestion) and the refresh worker.
import type { Module } from '../../platform/http/types.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { createIngestionService } from './service.js';
import { createRefreshWorker } from './worker.js';

/** Wallets synced at once by one instance. */
const CONCURRENCY = 4;

export const ingestionModule: Module = {
  name: 'ingestion',
  register(_app, ctx) {
    const repo = createIngestionRepo(ctx.db);
    const sources = Object.entries(ctx.config.rpcUrls).map(([chainId, url]) => createRpcSource(Number(chainId), url));
    const engine = createIngestionService({
      db: ctx.db,
      repo,
      sources,
      scoring: () => ctx.services.scoring,
      log: ctx.log,
      concurrency: CONCURRENCY,
      ingestOnRead: ctx.config.ingestOnRead,
      sync: { confirmations: ctx.config.ingestConfirmations },
    });
    ctx.services.ingestion = engine;
    ctx.onClose(() => engine.stop());
    if (sources.length) {
      ctx.workers.push(
        createRefreshWorker(engine, repo, {
          refreshIntervalSeconds: ctx.config.refreshIntervalSeconds,
          tickMs: Math.min(30_000, ctx.config.refreshIntervalSeconds * 1000),
          batch: 100,
          leaseSeconds: 600,
          onError: (err) => ctx.log.error({ err }, 'ingestion refresh tick failed'),
        }),
      );
    }
  },
};
