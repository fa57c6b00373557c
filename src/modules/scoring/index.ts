// Wires the scoring module: the ScoringService (pure model + storage) set as ctx.services.scoring, and the change
// log behind the feed. It has no routes of its own; the reputation module serves scores over HTTP.
// With contracts.ts, this is what other modules may import from scoring.
import type { Module } from '../../platform/http/types.js';
import { createScoringService } from './service.js';
import { createChangeLog } from './changes-repo.js';
import { createFeatureReader } from './features/index.js';

export * from './contracts.js';
export { withoutFactors } from './service.js';
export { sandboxScores, sandboxScoring } from './sandbox.js';
export { backgroundRecompute } from './background.js';
export { tierFor } from './model/index.js';
export { chunkSizer, FEATURES_CHUNK, featuresFor, featuresForMany, poolLabel, type ChunkSizer } from './features/index.js';

export const scoringModule: Module = {
  name: 'scoring',
  register(_app, ctx) {
    ctx.services.scoreChanges = createChangeLog(ctx.db);
    const features = createFeatureReader(ctx.db);
    ctx.services.scoring = createScoringService({ db: ctx.db, bus: ctx.bus, caches: ctx.caches, features, services: ctx.services });
    // each chain a sync finishes rescores the wallet (ingestion is registered first and knows nothing of scoring);
    // the scoring service is read when called, like every member of ModuleServices (the demo swaps in one on its chain's clock)
    ctx.services.ingestion.onSynced((wallet) => ctx.services.scoring.walletSynced(wallet));
  },
};
