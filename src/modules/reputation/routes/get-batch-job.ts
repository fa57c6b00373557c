// GET /reputation/batch-jobs/{id}: the status and progress of a bulk scoring job.
import { notFound } from '../../../platform/errors.js';
import { BatchJob, JobParams } from '../feed-schemas.js';
import { jobView, tags, type FeedRouteDeps, type FeedScope } from './feed-shared.js';

export function getBatchJob(s: FeedScope, { jobs, publicUrl }: FeedRouteDeps): void {
  s.get(
    '/reputation/batch-jobs/:id',
    {
      config: { auth: 'apiKey', cost: 0 },
      schema: {
        operationId: 'reputation.getBatchJob',
        tags,
        summary: 'Progress of a bulk scoring job',
        description: 'Status and progress of a job this key created (404 for any other). Counts 0 queries.',
        params: JobParams,
        response: { 200: BatchJob },
      },
    },
    async (req) => {
      const job = await jobs.status((req.params as { id: string }).id, req.apiKey!.keyId);
      if (!job) throw notFound('No batch job with this id belongs to this API key.');
      return jobView(job, publicUrl());
    },
  );
}
