// Score history, the change feed for pollers, and asynchronous bulk scoring (jobs of up to 100,000 addresses
// whose result is downloaded as JSON lines or CSV).
import { Readable } from 'node:stream';
import type { App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import { toChecksum } from '../../platform/http/address.js';
import { ensNameOf } from '../../platform/ens.js';
import { errorResponses } from '../../platform/openapi.js';
import { fieldError, forbidden, invalidState, notFound, unavailable } from '../../platform/errors.js';
import { BIGINT_ID, CURSOR_MESSAGE, decodeCursor, encodeCursor, fitsBigint } from '../../platform/http/pagination.js';
import type { ChangeRow, ScoreChangeLog } from '../scoring/changes-repo.js';
import {
  BatchJob,
  BatchJobBody,
  FeedQuery,
  FeedResponse,
  HistoryQuery,
  HistoryResponse,
  JobParams,
  MAX_JOB_ADDRESSES,
  ResultQuery,
} from './feed-schemas.js';
import { CategoryParams } from './schemas.js';
import { OWNER_READS, ownWallet } from './routes.js';
import type { FastifyRequest } from 'fastify';

/** A session follows its own wallet's changes only: `address` is required with one. */
function changesOwner(req: FastifyRequest): string {
  const address = (req.query as { address?: string }).address;
  if (!address)
    throw forbidden(
      "A session follows only its own wallet's changes: add address=<your wallet>. The feed of every wallet needs an API key.",
    );
  return address;
}
import type { BatchJobRepo, JobRow } from './batch-jobs/repo.js';

const tags = ['Reputation'];
/** `coverage` is the entry's coverage status (complete, partial or none; empty for jobs stored before it existed). */
const CSV_HEADER = 'address,category,score,confidence,tier,calculatedAt,modelVersion,coverage,conduct,backingUsd';

const KIND = 'score_change';
const change = ({ id, ...c }: ChangeRow) => ({ cursor: encodeCursor(KIND, [id]), ...c, address: toChecksum(c.address) });

/** The change number a `cursor` (or the older `before` / `after`: opaque, or a plain change number) points at. */
function position(q: { cursor?: string; before?: string; after?: string }, legacy: 'before' | 'after'): string | null {
  const old = q[legacy];
  if (q.cursor !== undefined && old !== undefined && q.cursor !== old)
    throw fieldError(legacy, 'give `cursor` or `' + legacy + '`, not both');
  if (q.cursor !== undefined) return decodeCursor(KIND, q.cursor, [BIGINT_ID])[0];
  if (old === undefined) return null;
  if (/^[0-9]+$/.test(old)) {
    if (!fitsBigint(old)) throw fieldError(legacy, CURSOR_MESSAGE);
    return old;
  }
  return decodeCursor(KIND, old, [BIGINT_ID], legacy)[0];
}

export function registerFeedRoutes(app: App, ctx: AppContext, jobs: BatchJobRepo, wakeJobs: () => void) {
  const log = (): ScoreChangeLog => {
    const l = ctx.services.scoreChanges;
    if (!l) throw unavailable('The scoring service is not running.');
    return l;
  };
  const view = (j: Omit<JobRow, 'addresses'>) => ({
    id: j.id,
    status: j.status,
    category: j.category,
    total: j.total,
    processed: j.processed,
    error: j.error,
    createdAt: j.created_at,
    startedAt: j.started_at,
    completedAt: j.completed_at,
    expiresAt: j.expires_at,
    statusUrl: `${ctx.publicUrl()}/api/v1/reputation/batch-jobs/${j.id}`,
    resultUrl: `${ctx.publicUrl()}/api/v1/reputation/batch-jobs/${j.id}/results`,
  });

  app.register(
    async (s) => {
      s.get(
        '/reputation/:address/:category/history',
        {
          config: { auth: 'apiKey', cost: 1, owner: ownWallet },
          schema: {
            operationId: 'reputation.getScoreHistory',
            tags,
            summary: "A wallet's score changes in one category, with their causes",
            description:
              'Every stored change of the category score, newest first, with what caused it (ingestion, debt_claim, dispute_revision, kyc, sanctions, ...). ' +
              `Paged with \`limit\` and \`cursor\` (see Pagination; \`before\` is the older name of \`cursor\` here). Counts 1 query.${OWNER_READS}`,
            params: CategoryParams,
            querystring: HistoryQuery,
            response: { 200: HistoryResponse },
          },
        },
        async (req) => {
          const { address, category } = req.params as { address: string; category: ChangeRow['category'] };
          const q = req.query as { limit: number; cursor?: string; before?: string };
          const page = await log().history(address, category, { limit: q.limit, before: position(q, 'before') });
          const changes = page.changes.map(change);
          const ensName = ensNameOf(req, 'address');
          const nextCursor = page.more ? (changes.at(-1)?.cursor ?? null) : null;
          return {
            address: toChecksum(address),
            ...(ensName ? { ensName } : {}),
            category,
            count: changes.length,
            changes,
            nextCursor,
            hasMore: nextCursor !== null,
          };
        },
      );

      s.get(
        '/reputation/changes',
        {
          config: { auth: 'apiKey', cost: 1, owner: changesOwner },
          schema: {
            operationId: 'reputation.listScoreChanges',
            tags,
            summary: 'Feed of score changes, for polling',
            description:
              'Score changes oldest first after `cursor` (the `nextCursor` of your previous call; omit it to start from the beginning; `after` is its older name). ' +
              'Poll with the last `nextCursor`: no change is skipped, even one whose transaction commits late (changes are numbered in commit order). ' +
              '`hasMore: true` means call again at once. Filter by `category` and/or `address`. Without `address` the feed covers every wallet, ' +
              'like an unfiltered webhook, and needs a Starter or higher key (403 for Free keys). Counts 1 query per call. ' +
              'A signed-in wallet follows its own changes with its session alone (Authorization: Bearer, `address` = its wallet, no API key, no quota); ' +
              "another wallet's address, or no address, gets 403 with a session.",
            querystring: FeedQuery,
            response: { 200: FeedResponse, ...errorResponses(403) },
          },
        },
        async (req) => {
          const q = req.query as { cursor?: string; after?: string; limit: number; category?: ChangeRow['category']; address?: string };
          const after = position(q, 'after');
          if (!q.address && req.apiKey?.tier === 'Free') {
            throw forbidden(
              'The feed of every wallet needs a Starter or higher key (as webhooks do); Free keys can follow one wallet with `address`.',
            );
          }
          const page = await log().feed({ after, limit: q.limit, category: q.category, address: q.address });
          const changes = page.changes.map(change);
          // a poller resumes from here even when nothing is new
          const nextCursor = changes.at(-1)?.cursor ?? (after !== null ? encodeCursor(KIND, [after]) : null);
          return { count: changes.length, changes, nextCursor, hasMore: page.more };
        },
      );

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
              `Queues a job that scores up to ${MAX_JOB_ADDRESSES.toLocaleString('en-US')} addresses in one category, off the request thread, and answers 202 at once. ` +
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
          return view(job);
        },
      );

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
          return view(job);
        },
      );

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
            throw invalidState(
              `The job is ${job.status} (${job.processed} of ${job.total} scored); results are ready when it is completed.`,
            );
          const csv = (req.query as { format: string }).format === 'csv';
          reply.type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
          reply.header('content-disposition', `attachment; filename="credence-batch-${id}.${csv ? 'csv' : 'jsonl'}"`);
          return reply.send(Readable.from(results(id, csv)));
        },
      );
    },
    { prefix: '/api/v1' },
  );

  async function* results(id: string, csv: boolean): AsyncGenerator<string> {
    if (csv) yield `${CSV_HEADER}\n`;
    for (let next = 0; ;) {
      const rows = await jobs.chunks(id, next, 20);
      if (rows.length === 0) return;
      for (const r of rows) {
        yield `${csv ? toCsv(r.lines) : r.lines}\n`;
        next = r.chunk + 1;
      }
    }
  }
}

function toCsv(lines: string): string {
  return lines
    .split('\n')
    .map((l) => {
      const r = JSON.parse(l) as Record<string, string | number | null> & { coverage?: { status?: string } };
      // conduct and backingUsd: empty for results stored before the model measured conduct and backing (and backingUsd for verification categories)
      return [
        r.address,
        r.category,
        r.score,
        r.confidence,
        r.tier,
        r.calculatedAt,
        r.modelVersion,
        r.coverage?.status ?? '',
        r.conduct ?? '',
        r.backingUsd ?? '',
      ].join(',');
    })
    .join('\n');
}
