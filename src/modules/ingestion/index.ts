// Wires the ingestion module: one JSON-RPC source per configured chain (with its per-chain range, rate and
// finality settings), the explorer source on every supported chain when an explorer key is set, the ingestion
// service (ctx.services.ingestion) and the refresh worker.
import type { Module } from '../../platform/http/types.js';
import { SUPPORTED_CHAINS } from '../../platform/config.js';
import { createExplorerClient } from './explorer/source.js';
import { pinnedContracts } from './registry/index.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { createIngestionService } from './service.js';
import { createRefreshWorker } from './worker.js';

// what other modules may use: chain reads (debt-claims checks a claim's evidence transaction), the activity store
export { createTransport, type Transport } from './rpc-transport.js';
export { createPriceReader, type PriceReader } from './pricing/reader.js';
export { priceable } from './pricing/oracle.js';
export { tokenInfo } from './registry/index.js';
export { createIngestionRepo } from './repo.js';

export const ingestionModule: Module = {
  name: 'ingestion',
  register(_app, ctx) {
    const repo = createIngestionRepo(ctx.db);
    const s = ctx.config.ingest;
    const sources = Object.entries(ctx.config.rpcUrls).map(([id, url]) =>
      createRpcSource(Number(id), url, {
        maxRange: s.rpcMaxRange[Number(id)],
        rps: s.rpcRps[Number(id)] ?? 0,
        concurrency: s.rpcConcurrency,
      }),
    );
    const explorer =
      s.explorerApiUrl && s.explorerApiKey
        ? createExplorerClient({ url: s.explorerApiUrl, apiKey: s.explorerApiKey, rps: s.explorerRps })
        : null;
    const explorers = explorer ? SUPPORTED_CHAINS.map((id) => explorer.source(id)) : [];
    // finality per chain: the `finalized` tag unless CREDENCE_FINALITY_<id> gives a confirmation count
    const chainSync = Object.fromEntries(
      sources.map(({ chainId: id }) => {
        const f = s.finality[id] ?? 'finalized';
        return [id, f === 'finalized' ? { useFinalized: true } : { useFinalized: false, confirmations: f }];
      }),
    );
    const engine = createIngestionService({
      db: ctx.db,
      repo,
      sources,
      explorers,
      log: ctx.log,
      concurrency: s.ingestConcurrency,
      ingestOnRead: ctx.config.ingestOnRead,
      sync: { confirmations: ctx.config.ingestConfirmations, maxNonceScan: s.nonceScanMax },
      chainSync,
      // a chain with no registry entries is read for every known event (decode still drops unpinned emitters)
      pinned: (id) => {
        const p = pinnedContracts(id);
        return p.length ? p : null;
      },
      backoff: { baseSeconds: s.ingestBackoffSeconds, maxSeconds: s.ingestBackoffMaxSeconds },
    });
    ctx.services.ingestion = engine;
    ctx.onClose(() => engine.stop());
    if (engine.chains.length) {
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
