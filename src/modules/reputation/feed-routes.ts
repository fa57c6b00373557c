// Score history, the change feed for pollers, and asynchronous bulk scoring (jobs of up to 100,000 addresses
// whose result is downloaded as JSON lines or CSV). One file each under routes/; this registers them in the
// OpenAPI document's order.
import type { App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import { unavailable } from '../../platform/errors.js';
import type { ScoreChangeLog } from '../scoring/contracts.js';
import type { BatchJobRepo } from './batch-jobs/repo.js';
import type { FeedRouteDeps } from './routes/feed-shared.js';
import { getScoreHistory } from './routes/get-score-history.js';
import { listScoreChanges } from './routes/list-score-changes.js';
import { createBatchJob } from './routes/create-batch-job.js';
import { getBatchJob } from './routes/get-batch-job.js';
import { getBatchJobResults } from './routes/get-batch-job-results.js';

const ROUTES = [getScoreHistory, listScoreChanges, createBatchJob, getBatchJob, getBatchJobResults];

export function registerFeedRoutes(app: App, ctx: AppContext, jobs: BatchJobRepo, wakeJobs: () => void) {
  const log = (): ScoreChangeLog => {
    const l = ctx.services.scoreChanges;
    if (!l) throw unavailable('The scoring service is not running.');
    return l;
  };
  const deps: FeedRouteDeps = { jobs, wakeJobs, log, publicUrl: () => ctx.publicUrl() };
  app.register(
    async (s) => {
      for (const route of ROUTES) route(s, deps);
    },
    { prefix: '/api/v1' },
  );
}
