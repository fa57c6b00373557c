// Wires the reputation module: the score endpoints over the scoring service, score history and the change feed,
// and bulk scoring jobs with their worker.
import type { Module } from '../../platform/http/types.js';
import { registerReputationRoutes } from './routes.js';
import { createReputationService } from './service.js';
import { registerFeedRoutes } from './feed-routes.js';
import { createBatchJobRepo } from './batch-jobs/repo.js';
import { createBatchJobWorker } from './batch-jobs/worker.js';

export { CategorySchema, Coverage } from './schemas.js';

export const reputationModule: Module = {
  name: 'reputation',
  register(app, ctx) {
    registerReputationRoutes(app, ctx, createReputationService({ services: ctx.services }));
    const jobs = createBatchJobRepo(ctx.db);
    const worker = createBatchJobWorker({ db: ctx.db, repo: jobs, services: ctx.services, log: ctx.log });
    ctx.workers.push(worker);
    registerFeedRoutes(app, ctx, jobs, worker.wake);
  },
};
