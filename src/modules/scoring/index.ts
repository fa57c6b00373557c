// Wires the scoring module: the ScoringService (pure model v1 + storage) registered as ctx.services.scoring.
// It has no routes of its own; the reputation module serves scores over HTTP.
import type { Module } from '../../platform/http/types.js';
import { createScoringService } from './service.js';
import { createChangeLog } from './changes-repo.js';

export const scoringModule: Module = {
  name: 'scoring',
  register(_app, ctx) {
    ctx.services.scoreChanges = createChangeLog(ctx.db);
    ctx.services.scoring = createScoringService({ db: ctx.db, bus: ctx.bus, caches: ctx.caches, services: ctx.services });
  },
};
