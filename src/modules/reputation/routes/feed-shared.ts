// What the score history, change feed and bulk job route files share: their deps, the change feed's cursor and
// rows, the session check of the feed and the body of a job.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toChecksum } from '../../../platform/http/address.js';
import { fieldError, forbidden } from '../../../platform/errors.js';
import { BIGINT_ID, CURSOR_MESSAGE, decodeCursor, encodeCursor, fitsBigint } from '../../../platform/http/pagination.js';
import type { ChangeRow, ScoreChangeLog } from '../../scoring/contracts.js';
import type { BatchJobRepo, JobRow } from '../batch-jobs/repo.js';

/** The scope these routes register on: requests typed by their casts, as before the split (no TypeBox provider). */
export type FeedScope = FastifyInstance;

export interface FeedRouteDeps {
  jobs: BatchJobRepo;
  wakeJobs: () => void;
  /** the scoring service's change log (503 while it is not running) */
  log: () => ScoreChangeLog;
  publicUrl: () => string;
}

export const tags = ['Reputation'];

export const KIND = 'score_change';
export const change = ({ id, ...c }: ChangeRow) => ({ cursor: encodeCursor(KIND, [id]), ...c, address: toChecksum(c.address) });

/** The change number a `cursor` (or the older `before` / `after`: opaque, or a plain change number) points at. */
export function position(q: { cursor?: string; before?: string; after?: string }, legacy: 'before' | 'after'): string | null {
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

/** A session follows its own wallet's changes only: `address` is required with one. */
export function changesOwner(req: FastifyRequest): string {
  const address = (req.query as { address?: string }).address;
  if (!address)
    throw forbidden(
      "A session follows only its own wallet's changes: add address=<your wallet>. The feed of every wallet needs an API key.",
    );
  return address;
}

export const jobView = (j: Omit<JobRow, 'addresses'>, publicUrl: string) => ({
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
  statusUrl: `${publicUrl}/api/v1/reputation/batch-jobs/${j.id}`,
  resultUrl: `${publicUrl}/api/v1/reputation/batch-jobs/${j.id}/results`,
});
