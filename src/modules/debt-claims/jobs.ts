// The background work each claim change needs, off the request thread: the evidence check (once per claim) and
// the debtor's score recompute. The claim row is the job (job_due_at, set in the transaction that stored the change),
// so nothing is lost if the process dies after commit: the request's instance runs it at once ("kick"), and the
// claims worker of any instance sweeps rows whose job is still due (lease expired or never taken).
import type { Worker } from '../../platform/context.js';
import type { Db } from '../../platform/db/types.js';
import type { ModuleServices } from '../../platform/context.js';
import { runInEnvironment } from '../../platform/auth/environment.js';
import { filedEvent } from './events.js';
import type { EvidenceChecker } from './evidence.js';
import type { ClaimsRepo, JobRow } from './repo.js';
import { isUnavailable, retryWhileUnavailable } from '../../platform/db/unavailable.js';

/** Evidence checks that keep failing (RPC down) give up as "unverifiable" after this many attempts. */
export const MAX_EVIDENCE_ATTEMPTS = 5;
const LEASE_MS = 60_000;
/** Sweeps leave a fresh job this long to the instance that stored it. */
const SWEEP_GRACE_MS = 2_000;

export interface ClaimJobsDeps {
  repo: Pick<ClaimsRepo, 'leaseJobs' | 'saveVerification' | 'finishJob' | 'retryJob' | 'get'>;
  db: Pick<Db, 'tx'>;
  checker: EvidenceChecker;
  /** The creditor's weight from its own costly history (null: no scoring to tell). */
  weigh: (creditor: string) => Promise<number | null>;
  noticeHours: () => number;
  /** best-effort push of a filed claim to hub clients */
  announce: (e: ReturnType<typeof filedEvent>) => void;
  /** the debtor's recompute once a claim's job is done; the webhooks outbox, for `debt_claim.filed` */
  services: Pick<ModuleServices, 'scoring' | 'webhooks'>;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
  sweepIntervalMs: number;
}

export function createClaimJobs(deps: ClaimJobsDeps) {
  const { repo } = deps;
  const inFlight = new Set<Promise<unknown>>();

  /** A claim's job runs in its claim's environment: a test claim's notice goes to test webhooks and hub connections only. */
  const run = (job: JobRow): Promise<void> => runInEnvironment(job.environment, () => runJob(job));

  /** A database outage cut the job: due again at once, handed back as soon as the database answers (not after the lease). */
  async function handBack(job: JobRow, err: unknown) {
    deps.log.warn(
      { claim: job.id, err: (err as Error).message },
      'debt claim job interrupted: the database is unreachable; it runs again once it is back',
    );
    await retryWhileUnavailable(() => repo.retryJob(job.id, 0), { active: () => !stopping });
  }

  async function runJob(job: JobRow): Promise<void> {
    const backoff = Math.min(300_000, 1_000 * 2 ** job.job_attempts);
    if (job.evidence_status === 'pending') {
      try {
        const r = await deps.checker.check({
          chainId: job.chain_id,
          hash: job.evidence_transaction_hash,
          creditor: job.creditor_address,
          debtor: job.debtor_address,
          claimedAt: job.created_at,
        });
        // Only a claim that could be verified needs the creditor's weight (scoring an invented creditor costs work).
        // (a test claim's creditor is not scored live for it: sandbox claims read and write no live data)
        const weight =
          r.evidence === 'found' && job.creditor_signed_in && job.environment === 'live' ? await deps.weigh(job.creditor_address) : null;
        await save(job, {
          evidenceStatus: r.evidence,
          creditorHasHistory: r.creditorHasHistory,
          valueUsd: r.valueUsd,
          evidenceAt: r.at,
          problem: r.problem,
          creditorWeight: weight,
        });
      } catch (err) {
        if (isUnavailable(err)) return handBack(job, err);
        if (job.job_attempts < MAX_EVIDENCE_ATTEMPTS) {
          deps.log.warn({ err, claim: job.id }, 'debt claim evidence check failed; retrying later');
          await repo.retryJob(job.id, backoff);
          return;
        }
        await save(job, {
          evidenceStatus: 'unverifiable',
          creditorHasHistory: null,
          valueUsd: null,
          evidenceAt: null,
          problem: null,
          creditorWeight: null,
        });
      }
    }
    const scoring = job.environment === 'live' ? deps.services.scoring : null;
    if (scoring) {
      try {
        await scoring.recompute(job.debtor_address, 'debt_claim');
      } catch (err) {
        if (isUnavailable(err)) return handBack(job, err);
        deps.log.error({ err, claim: job.id }, 'score recompute after a debt claim change failed; retrying later');
        await repo.retryJob(job.id, backoff);
        return;
      }
    }
    await retryWhileUnavailable(() => repo.finishJob(job.id, job.job_due_key), { active: () => !stopping });
  }

  /** Stores the check; a claim filed before notices existed gets its notice now, and its debtor is told then. */
  async function save(job: JobRow, v: Parameters<ClaimsRepo['saveVerification']>[1]) {
    const row = await deps.db.tx(async (q) => {
      const { firstNotice } = await repo.saveVerification(job.id, v, deps.noticeHours(), q);
      if (!firstNotice) return null;
      const r = (await repo.get(job.id, q))!;
      await deps.services.webhooks.enqueueEvent(q, filedEvent(r));
      return r;
    });
    if (row) deps.announce(filedEvent(row));
  }

  function track<T>(p: Promise<T>): Promise<T> {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p)).catch(() => undefined);
    return p;
  }

  async function runOne(id: string): Promise<void> {
    const [job] = await repo.leaseJobs({ id, limit: 1, leaseMs: LEASE_MS, graceMs: 0 });
    if (job) await run(job);
  }

  /** One pass over due jobs; how many it ran. */
  async function sweep(limit = 50): Promise<number> {
    const jobs = await repo.leaseJobs({ limit, leaseMs: LEASE_MS, graceMs: SWEEP_GRACE_MS });
    for (const j of jobs) await run(j);
    return jobs.length;
  }

  let timer: NodeJS.Timeout | null = null;
  let stopping = false;
  const worker: Worker = {
    name: 'debt-claims.jobs',
    start() {
      stopping = false;
      const tick = async () => {
        try {
          while (!stopping && (await track(sweep())) > 0) {
            /* drain */
          }
        } catch (err) {
          deps.log.error({ err }, 'debt claims job sweep failed');
        }
        if (!stopping) timer = setTimeout(tick, deps.sweepIntervalMs);
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
  };

  return {
    /** Runs a claim's job now, in the background (the request does not wait). */
    kick(id: string): void {
      track(runOne(id).catch((err) => deps.log.error({ err, claim: id }, 'debt claim job failed; the claims worker retries it')));
    },
    /** Runs a claim's job and waits for it (status changes answer with the score already updated). */
    runNow: (id: string) => track(runOne(id)),
    sweep,
    worker,
    async drain() {
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type ClaimJobs = ReturnType<typeof createClaimJobs>;
