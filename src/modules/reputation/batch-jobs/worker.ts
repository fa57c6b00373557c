// Runs bulk scoring jobs in the background without taking the instance from its requests:
// - bounded steps: one chunk of CHUNK addresses at a time, its results stored with the job's progress in one
//   transaction (a restart resumes at the first chunk not stored);
// - every query of a step runs in the database's background lane (platform/db/background.ts): after a turn of the
//   event loop and behind request queries. On PGlite (in this process) that is what keeps /health and the API
//   answering; on PostgreSQL the work is in the server and the lane only leaves most of the pool to requests;
// - a rest between steps (REST_RATIO of the step's time): bulk work takes at most a fair share of the process;
// - turns: a job works for SLICE_MS, then gives its turn back to the next job in line (repo.claim);
// - cancellable: a job deleted, expired or failed meanwhile stops at the next step; stop() (SIGTERM) stops at the
//   end of the step under way and releases the job, which the next start resumes;
// - a database outage mid-step is not the job's fault: the job is handed back (its attempt not counted) as soon
//   as the database answers again, and the next claim resumes it at the first chunk not stored (a chunk whose
//   commit was cut is computed again and overwrites itself: each address's result is stored once).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../platform/db/types.js';
import { inBackground } from '../../../platform/db/background.js';
import { isUnavailable, retryWhileUnavailable } from '../../../platform/db/unavailable.js';
import type { Worker } from '../../../platform/context.js';
import { toChecksum } from '../../../platform/http/address.js';
import type { ModuleServices } from '../../../platform/context.js';
import type { Category, ScoringService } from '../../scoring/contracts.js';
import { withoutFactors } from '../../scoring/index.js';
import type { BatchJobRepo, JobRow } from './repo.js';

export const CHUNK = 100;
const LEASE_SECONDS = 120;
const SLICE_MS = 1_000;
/** After a step of t ms, rest t * REST_RATIO ms (bulk work gets about 1 / (1 + REST_RATIO) of the time). */
const REST_RATIO = 0.25;

export function createBatchJobWorker(o: {
  db: Db;
  repo: BatchJobRepo;
  services: Pick<ModuleServices, 'scoring'>;
  log: FastifyBaseLogger;
  pollMs?: number;
}): Worker & { wake(): void } {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let busy: Promise<void> | null = null;
  let lastPurge = 0;
  let restTimer: { t: NodeJS.Timeout; done: () => void } | null = null;

  /** A rest that stop() cuts short. */
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        restTimer = null;
        resolve();
      };
      restTimer = { t: setTimeout(done, ms), done };
    });

  async function step(job: Omit<JobRow, 'addresses'>, start: number, scoring: ScoringService) {
    const slice = await o.repo.slice(job.id, start, CHUNK);
    const entries = await scoring.getBatch(slice, job.category as Category);
    const lines = entries
      .map((e, i) =>
        // the address first, then the entry's fields in their order (withoutFactors)
        JSON.stringify({ address: toChecksum(slice[i]), ...withoutFactors(e) }),
      )
      .join('\n');
    await o.db.tx((q) => o.repo.saveChunk(q, job.id, start / CHUNK, lines, Math.min(job.total, start + CHUNK), LEASE_SECONDS));
  }

  /** Works on the job for one slice. Returns why it stopped. */
  async function runSlice(job: Omit<JobRow, 'addresses'>, scoring: ScoringService): Promise<'done' | 'turn' | 'stopped' | 'cancelled'> {
    const sliceEnd = Date.now() + SLICE_MS;
    // chunks are stored whole: resume at the first one not stored
    for (let start = job.processed - (job.processed % CHUNK); start < job.total; start += CHUNK) {
      if (!running) return 'stopped';
      if (start !== job.processed && !(await inBackground(() => o.repo.stillRunning(job.id)))) return 'cancelled';
      const t = performance.now();
      await inBackground(() => step(job, start, scoring));
      if (start + CHUNK >= job.total) return 'done';
      await rest((performance.now() - t) * REST_RATIO);
      if (Date.now() > sliceEnd) return 'turn';
    }
    return 'done';
  }

  async function pump() {
    while (running) {
      const scoring = o.services.scoring;
      if (Date.now() - lastPurge > 3_600_000) {
        lastPurge = Date.now();
        await inBackground(() => o.repo.purgeExpired());
      }
      const job = await inBackground(() => o.repo.claim(LEASE_SECONDS));
      if (!job) return;
      try {
        const why = await runSlice(job, scoring);
        if (why === 'stopped') await o.repo.release(job.id);
        else if (why === 'turn') await inBackground(() => o.repo.yieldTurn(job.id));
      } catch (err) {
        if (isUnavailable(err)) {
          o.log.warn(
            { job: job.id, err: (err as Error).message },
            'batch job interrupted: the database is unreachable; it resumes once it is back',
          );
          await retryWhileUnavailable(() => o.repo.handBack(job.id), { active: () => running });
          return;
        }
        o.log.error({ err, job: job.id }, 'batch job step failed');
        if (job.attempts >= 3) await o.repo.fail(job.id, 'scoring failed repeatedly; submit the job again');
        else await o.repo.release(job.id);
        return;
      }
    }
  }

  function wake() {
    if (!running || busy) return;
    busy = pump()
      .catch((err) =>
        isUnavailable(err)
          ? o.log.warn({ err: (err as Error).message }, 'batch job worker: the database is unreachable')
          : o.log.error({ err }, 'batch job worker failed'),
      )
      .finally(() => {
        busy = null;
      });
  }

  return {
    name: 'reputation-batch-jobs',
    start() {
      running = true;
      timer = setInterval(wake, o.pollMs ?? 1000);
      timer.unref();
      wake();
    },
    async stop() {
      running = false;
      if (timer) clearInterval(timer);
      if (restTimer) {
        clearTimeout(restTimer.t);
        restTimer.done();
      }
      await busy;
    },
    wake,
  };
}
