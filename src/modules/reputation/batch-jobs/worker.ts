// Works through bulk scoring jobs off the request thread: claims one job at a time, scores it 100 addresses per
// step through the scoring service (the same path as POST /reputation/batch), and stores each step's results with
// the job's progress in one transaction, so a crash or restart resumes where the last step ended.
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../platform/db/types.js';
import type { Worker } from '../../../platform/context.js';
import { toChecksum } from '../../../platform/http/address.js';
import type { Category, ScoringService } from '../../scoring/contracts.js';
import type { BatchJobRepo, JobRow } from './repo.js';

export const CHUNK = 100;
const LEASE_SECONDS = 120;

export function createBatchJobWorker(o: { db: Db; repo: BatchJobRepo; scoring: () => ScoringService | undefined; log: FastifyBaseLogger; pollMs?: number }): Worker & { wake(): void } {
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let busy: Promise<void> | null = null;
  let lastPurge = 0;

  async function runJob(job: JobRow, scoring: ScoringService) {
    for (let start = job.processed; start < job.total && running; start += CHUNK) {
      const slice = job.addresses.slice(start, start + CHUNK);
      const entries = await scoring.getBatch(slice, job.category as Category);
      const lines = entries
        // coverage as the synchronous batch gives it: how much of the wallet's on-chain history this score read
        .map((e, i) =>
          JSON.stringify({ address: toChecksum(slice[i]), category: e.category, score: e.score, confidence: e.confidence, tier: e.tier, calculatedAt: e.calculatedAt, modelVersion: e.modelVersion, coverage: e.coverage }),
        )
        .join('\n');
      await o.db.tx((q) => o.repo.saveChunk(q, job.id, start / CHUNK, lines, Math.min(job.total, start + CHUNK), LEASE_SECONDS));
    }
  }

  async function pump() {
    while (running) {
      const scoring = o.scoring();
      if (!scoring) return;
      if (Date.now() - lastPurge > 3_600_000) {
        lastPurge = Date.now();
        await o.repo.purgeExpired();
      }
      const job = await o.repo.claim(LEASE_SECONDS);
      if (!job) return;
      try {
        await runJob(job, scoring);
        if (!running) await o.repo.release(job.id);
      } catch (err) {
        o.log.error({ err, job: job.id }, 'batch job step failed');
        // a step that keeps failing fails the job instead of blocking the queue
        if (job.attempts >= 3) await o.repo.fail(job.id, 'scoring failed repeatedly; submit the job again');
        else await o.repo.release(job.id);
        return;
      }
    }
  }

  function wake() {
    if (!running || busy) return;
    busy = pump()
      .catch((err) => o.log.error({ err }, 'batch job worker failed'))
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
      await busy;
    },
    wake,
  };
}
