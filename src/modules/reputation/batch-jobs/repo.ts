// SQL of bulk scoring jobs: creation, claiming (one worker at a time per job, across instances, with a lapsing
// claim so a crashed worker's job is picked up again), chunked results, and reads by the owning key.
import type { Queryable } from '../../../platform/db/types.js';

export interface JobRow {
  id: string;
  api_key_id: string;
  category: string;
  addresses: string[];
  total: number;
  processed: number;
  status: 'queued' | 'running' | 'completed' | 'failed';
  error: string | null;
  attempts: number;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  expires_at: Date;
}

/** Columns of a status read: everything but the (up to 100,000) addresses. */
const STATUS_COLUMNS =
  'id, api_key_id, category, total, processed, status, error, attempts, created_at, started_at, completed_at, expires_at';

export function createBatchJobRepo(db: Queryable) {
  return {
    async create(keyId: string, category: string, addresses: string[]): Promise<Omit<JobRow, 'addresses'>> {
      const rows = await db.query<JobRow>(
        `INSERT INTO batch_jobs (api_key_id, category, addresses, total) VALUES ($1, $2, $3, $4) RETURNING ${STATUS_COLUMNS}`,
        [keyId, category, addresses, addresses.length],
      );
      return rows[0];
    },
    /** A job of this key (null for others' jobs, unknown ids and expired jobs). */
    async status(id: string, keyId: string): Promise<Omit<JobRow, 'addresses'> | null> {
      const rows = await db.query<JobRow>(
        `SELECT ${STATUS_COLUMNS} FROM batch_jobs WHERE id = $1 AND api_key_id = $2 AND expires_at > now()`,
        [id, keyId],
      );
      return rows[0] ?? null;
    },
    /**
     * Claims the next job that is queued, or running with no live claim (its worker died, or gave its turn back).
     * Turns go round: jobs never started first, then the one that gave its turn back longest ago (claimed_until is
     * set to the moment it did), so one 100,000-address job does not hold back a 10-address one. The addresses are
     * not returned (up to 100,000 of them): each step reads its own slice.
     */
    async claim(leaseSeconds: number): Promise<Omit<JobRow, 'addresses'> | null> {
      const rows = await db.query<JobRow>(
        `UPDATE batch_jobs SET status = 'running', claimed_until = now() + make_interval(secs => $1), started_at = COALESCE(started_at, now()),
           attempts = attempts + 1
         WHERE id = (SELECT id FROM batch_jobs WHERE status IN ('queued', 'running') AND (claimed_until IS NULL OR claimed_until < now())
                     ORDER BY claimed_until NULLS FIRST, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
         RETURNING ${STATUS_COLUMNS}`,
        [leaseSeconds],
      );
      return rows[0] ?? null;
    },
    /** Addresses [from, from + count) of a job, in request order. */
    async slice(id: string, from: number, count: number): Promise<string[]> {
      const rows = await db.query<{ a: string[] | null }>(`SELECT addresses[$2:$3] AS a FROM batch_jobs WHERE id = $1`, [
        id,
        from + 1,
        from + count,
      ]);
      return rows[0]?.a ?? [];
    },
    /** Still ours to work on: running, not expired or deleted meanwhile. */
    async stillRunning(id: string): Promise<boolean> {
      const rows = await db.query(`SELECT 1 FROM batch_jobs WHERE id = $1 AND status = 'running' AND expires_at > now()`, [id]);
      return rows.length > 0;
    },
    /** Gives the job's turn back after a time slice (not a failed attempt): next in line after the others. */
    async yieldTurn(id: string) {
      await db.query(
        `UPDATE batch_jobs SET claimed_until = now(), attempts = greatest(attempts - 1, 0) WHERE id = $1 AND status = 'running'`,
        [id],
      );
    },
    /** Stores one chunk's results and moves the job forward in one transaction (a retried chunk overwrites). */
    async saveChunk(q: Queryable, id: string, chunk: number, lines: string, processed: number, leaseSeconds: number) {
      await q.query(
        `INSERT INTO batch_job_results (job_id, chunk, lines) VALUES ($1, $2, $3) ON CONFLICT (job_id, chunk) DO UPDATE SET lines = EXCLUDED.lines`,
        [id, chunk, lines],
      );
      await q.query(
        `UPDATE batch_jobs SET processed = $2, claimed_until = now() + make_interval(secs => $3),
           status = CASE WHEN $2 >= total THEN 'completed' ELSE status END,
           completed_at = CASE WHEN $2 >= total THEN now() ELSE completed_at END
         WHERE id = $1`,
        [id, processed, leaseSeconds],
      );
    },
    async fail(id: string, error: string) {
      await db.query(`UPDATE batch_jobs SET status = 'failed', error = $2, completed_at = now(), claimed_until = NULL WHERE id = $1`, [
        id,
        error,
      ]);
    },
    async release(id: string) {
      await db.query(`UPDATE batch_jobs SET claimed_until = NULL WHERE id = $1 AND status = 'running'`, [id]);
    },
    /** Hands the job back after an interruption that was not its fault (database outage): claimable at once, attempt not counted. */
    async handBack(id: string) {
      await db.query(
        `UPDATE batch_jobs SET claimed_until = NULL, attempts = greatest(attempts - 1, 0) WHERE id = $1 AND status = 'running'`,
        [id],
      );
    },
    /** Result chunks in order, a few at a time (a 100,000-line result is never held whole in memory). */
    async chunks(id: string, from: number, count: number): Promise<{ chunk: number; lines: string }[]> {
      return db.query(`SELECT chunk, lines FROM batch_job_results WHERE job_id = $1 AND chunk >= $2 ORDER BY chunk LIMIT $3`, [
        id,
        from,
        count,
      ]);
    },
    async purgeExpired() {
      await db.query(`DELETE FROM batch_jobs WHERE expires_at < now()`);
    },
  };
}

export type BatchJobRepo = ReturnType<typeof createBatchJobRepo>;
