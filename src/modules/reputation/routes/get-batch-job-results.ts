// GET /reputation/batch-jobs/{id}/results: a completed job's result, streamed as JSON lines or CSV.
import { Readable } from 'node:stream';
import { errorResponses } from '../../../platform/openapi.js';
import { invalidState, notFound } from '../../../platform/errors.js';
import { CSV_HEADER, jobResults } from '../batch-jobs/results.js';
import { JobParams, ResultQuery } from '../feed-schemas.js';
import { tags, type FeedRouteDeps, type FeedScope } from './feed-shared.js';

export function getBatchJobResults(s: FeedScope, { jobs }: FeedRouteDeps): void {
  s.get(
    '/reputation/batch-jobs/:id/results',
    {
      config: { auth: 'apiKey', cost: 0 },
      schema: {
        operationId: 'reputation.getBatchJobResults',
        tags,
        summary: 'Result of a completed bulk scoring job (JSON lines or CSV)',
        description:
          'One line per address in request order: `{address, category, score, confidence, tier, calculatedAt, modelVersion, coverage}` as JSON lines ' +
          '(application/x-ndjson), where `coverage` is the `Coverage` object of the synchronous batch (`{status, asOf, reason, chains}`: how much of ' +
          "the wallet's on-chain history the score read when the job scored it; `status: none` with `NO_CHAIN_SOURCE` when no chain source is configured); " +
          `or CSV (text/csv, header \`${CSV_HEADER}\`, where \`coverage\` is the coverage status: complete, partial or none, and \`conduct\`/\`backingUsd\` are empty for results stored before model 4.0.0) with ?format=csv. ` +
          '409 while the job is not completed. Counts 0 queries.',
        params: JobParams,
        querystring: ResultQuery,
        response: {
          200: {
            description: 'the results, streamed',
            content: { 'application/x-ndjson': { schema: { type: 'string' } }, 'text/csv': { schema: { type: 'string' } } },
          },
          ...errorResponses(409),
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const job = await jobs.status(id, req.apiKey!.keyId);
      if (!job) throw notFound('No batch job with this id belongs to this API key.');
      if (job.status !== 'completed')
        throw invalidState(`The job is ${job.status} (${job.processed} of ${job.total} scored); results are ready when it is completed.`);
      const csv = (req.query as { format: string }).format === 'csv';
      reply.type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="credence-batch-${id}.${csv ? 'csv' : 'jsonl'}"`);
      return reply.send(Readable.from(jobResults(jobs, id, csv)));
    },
  );
}
