// Wires the reputation module: the score endpoints over ctx.services.scoring, score history and the change feed,
// and bulk scoring jobs with their worker.
import type { Module } from '../../platform/http/types.js';
import { registerReputationRoutes } from './routes.js';
import { registerFeedRoutes } from './feed-routes.js';
import { createBatchJobRepo } from './batch-jobs/repo.js';
import { createBatchJobWorker } from './batch-jobs/worker.js';

export const reputationModule: Module = {
  name: 'reputation',
  register(app, ctx) {
    registerReputationRoutes(app, ctx);
    const jobs = createBatchJobRepo(ctx.db);
    const worker = createBatchJobWorker({ db: ctx.db, repo: jobs, scoring: () => ctx.services.scoring, log: ctx.log });
    ctx.workers.push(worker);
    registerFeedRoutes(app, ctx, jobs, worker.wake);
  },
};
