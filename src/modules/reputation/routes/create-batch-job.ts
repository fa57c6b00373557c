// POST /reputation/batch-jobs: queues a job scoring up to 100,000 wallets, answered at once.
import { thousands } from '../../../platform/openapi.js';
import { BatchJob, BatchJobBody, MAX_JOB_ADDRESSES } from '../feed-schemas.js';
import { jobView, tags, type FeedRouteDeps, type FeedScope } from './feed-shared.js';

export function createBatchJob(s: FeedScope, { jobs, wakeJobs, publicUrl }: FeedRouteDeps): void {
  s.post(
    '/reputation/batch-jobs',
    {
      bodyLimit: 8 * 1024 * 1024,
      config: { auth: 'apiKey', cost: (req) => (req.body as { addresses: string[] }).addresses.length, idempotent: true },
      schema: {
        operationId: 'reputation.createBatchJob',
        tags,
        summary: 'Score up to 100,000 wallets asynchronously',
        description:
          `Queues a job that scores up to ${thousands(MAX_JOB_ADDRESSES)} addresses in one category, off the request thread, and answers 202 at once. ` +
          'Follow `statusUrl` for progress; when `status` is `completed`, download `resultUrl` (JSON lines, or CSV with `?format=csv`), one line ' +
          'per address in request order, each with its `coverage` as in POST /reputation/batch. Counts 1 query per address, reserved when the job is accepted; a job larger than the remaining ' +
          'monthly quota is refused whole (429 quota_exceeded). Only the key that created a job can read it; jobs are kept 7 days. Body up to 8 MB.',
        body: BatchJobBody,
        response: { 202: BatchJob },
      },
    },
    async (req, reply) => {
      const { addresses, category } = req.body as { addresses: string[]; category: string };
      const job = await jobs.create(
        req.apiKey!.keyId,
        category,
        addresses.map((a) => a.toLowerCase()),
      );
      wakeJobs();
      reply.code(202);
      return jobView(job, publicUrl());
    },
  );
}
