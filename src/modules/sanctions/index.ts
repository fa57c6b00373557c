// Wires the sanctions module: OFAC SDN screening as ctx.services.sanctions, its routes, the score follow-up of list
// changes, and the scheduled refresh when CREDENCE_SANCTIONS_URL is set.
import type { Module } from '../../platform/http/types.js';
import { createRecomputeWorker } from './recompute.js';
import { createRefreshWorker } from './refresh.js';
import { registerSanctionsRoutes } from './routes.js';
import { createSanctionsScreening, stalenessOf } from './service.js';
import { loadSnapshotIfEmpty } from './snapshot.js';

/** How often every instance checks for a list imported elsewhere (the CLI, or an instance without Redis). */
const POLL_MS = 30_000;

export { stalenessOf } from './staleness.js';

export const sanctionsModule: Module = {
  name: 'sanctions',
  async register(app, ctx) {
    const screening = createSanctionsScreening({ db: ctx.db, bus: ctx.bus, log: ctx.log });
    ctx.services.sanctions = screening.service;
    if (ctx.config.sanctionsSnapshot) {
      const loaded = await loadSnapshotIfEmpty(ctx.db, screening.repo);
      if (loaded)
        ctx.log.info(
          { version: loaded.version, entries: loaded.entryCount, publishedAt: loaded.publishedAt },
          'no sanctions list yet: loaded the shipped OFAC SDN snapshot',
        );
    }
    await screening.reload();
    // said at start: a list older than CREDENCE_SANCTIONS_MAX_AGE_DAYS screens against yesterday's sanctions
    const inForce = screening.current();
    const age = stalenessOf(inForce?.publishedAt ?? null, ctx.config.sanctionsMaxAgeDays);
    if (age.stale) ctx.log.warn({ publishedAt: inForce!.publishedAt, ageDays: age.ageDays, maxAgeDays: age.maxAgeDays }, age.warning!);
    ctx.onClose(screening.startSync(POLL_MS));

    const recompute = createRecomputeWorker({ repo: screening.repo, screening, services: ctx.services, log: ctx.log });
    screening.onLoaded(() => void recompute.kick());
    ctx.workers.push(recompute.worker);
    if (ctx.config.sanctionsUrl) {
      ctx.workers.push(
        createRefreshWorker({ url: ctx.config.sanctionsUrl, intervalHours: ctx.config.sanctionsRefreshHours, screening, log: ctx.log }),
      );
    }
    registerSanctionsRoutes(app, screening, ctx.config.sanctionsMaxAgeDays);
  },
};
