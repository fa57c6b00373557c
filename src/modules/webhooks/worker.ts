// The delivery worker: claims due outbox rows, signs and POSTs them, records each attempt, schedules retries
// (schedule with jitter, honouring Retry-After) and counts failures. While an endpoint fails, the claim hands
// out one probe at a time along its retry schedule (outbox-repo.ts), so a burst during an outage counts as
// one failure per probe, not one per queued event. It is woken at once by `score.updated`
// on the event bus (published after commit, on any instance), and also polls, so rows written while no event
// arrived (another instance without Redis, retries coming due) are found within a second.
import type { FastifyBaseLogger } from 'fastify';
import type { Cipher } from '../../platform/secrets.js';
import type { Worker } from '../../platform/context.js';
import type { ClaimedDelivery, OutboxRepo } from './outbox-repo.js';
import type { Sender } from './sender.js';
import { signedHeaders } from './signing.js';
import { isUnavailable, retryWhileUnavailable } from '../../platform/db/unavailable.js';

export const MAX_CONSECUTIVE_FAILURES = 10;
/** Bus topic: deliveries were made due outside a score change (enable, replay, test). */
export const WEBHOOKS_DUE = 'webhooks.due';

export interface DeliveryWorkerOptions {
  repo: OutboxRepo;
  sender: Sender;
  cipher: Cipher;
  log: FastifyBaseLogger;
  /** seconds before retry 1, 2, ...; past its end the delivery is given up */
  retrySchedule: number[];
  /** subscribe to wake-up hints; returns an unsubscribe function */
  onHint(wake: () => void): () => void;
  concurrency?: number;
  pollMs?: number;
  /** how long a claimed row stays invisible to other workers (well above the 10 s send timeout) */
  leaseSeconds?: number;
  random?: () => number;
}

/** Delay before the next try after `failedAttempts` failures: the schedule, +-10 % jitter, at least Retry-After. */
export function retryDelay(schedule: number[], failedAttempts: number, retryAfter: number | null, random = Math.random): number | null {
  const base = schedule[failedAttempts - 1];
  if (base === undefined) return null;
  const jittered = base * (0.9 + 0.2 * random());
  // A receiver asking for more time gets it, within a day.
  return retryAfter !== null ? Math.max(jittered, Math.min(retryAfter, 86_400)) : jittered;
}

export function createDeliveryWorker(o: DeliveryWorkerOptions): Worker & { wake(): void; idle(): Promise<void> } {
  const concurrency = o.concurrency ?? 32;
  const pollMs = o.pollMs ?? 1000;
  const lease = o.leaseSeconds ?? 60;
  const inflight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  const secrets = new Map<string, string>();
  let running = false;
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let lastPurge = 0;
  // Successes finishing together are recorded in one statement: the database round trip, not the HTTP
  // POST, is what limits deliveries per second on an embedded database.
  let successes: {
    d: ClaimedDelivery;
    o: { statusCode: number | null; durationMs: number; error: string | null };
    done: () => void;
    fail: (e: unknown) => void;
  }[] = [];
  let flushing: Promise<void> | null = null;

  function flushSuccesses(): Promise<void> {
    if (flushing) return flushing;
    flushing = (async () => {
      while (successes.length > 0) {
        const batch = successes;
        successes = [];
        try {
          await o.repo.recordSuccesses(batch);
          for (const b of batch) b.done();
        } catch (e) {
          for (const b of batch) b.fail(e);
        }
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  const recordSuccess = (d: ClaimedDelivery, outcome: { statusCode: number | null; durationMs: number; error: string | null }) =>
    new Promise<void>((done, fail) => {
      successes.push({ d, o: outcome, done, fail });
      setImmediate(() => void flushSuccesses());
    });

  const secretOf = (d: ClaimedDelivery) => {
    let s = secrets.get(d.secret_encrypted);
    if (s === undefined) {
      s = o.cipher.decrypt(d.secret_encrypted);
      if (secrets.size > 10_000) secrets.clear();
      secrets.set(d.secret_encrypted, s);
    }
    return s;
  };

  // The outcome of a send that happened must be recorded: a failed write (database busy or briefly away) is
  // tried again rather than left to the lease, which would re-send the row only after `lease` seconds (the
  // cause of the two-instance test's lateness under load: sent rows sat claimed past its deadline). A database
  // outage is waited out for as long as the worker runs (issue 33): the receiver got the message, and recording
  // it once the database is back (within the lease) is what keeps it from being sent again.
  async function persist<T>(fn: () => Promise<T>): Promise<T> {
    for (let wait = 100; ; wait *= 2) {
      try {
        return await retryWhileUnavailable(fn, {
          active: () => running,
          onRetry: (err, ms) =>
            o.log.warn({ err: (err as Error).message }, `webhook outcome not recorded: the database is unreachable; retrying in ${ms} ms`),
        });
      } catch (err) {
        if (!running || wait > 6_400) throw err;
        o.log.warn({ err }, `webhook outcome not recorded; retrying in ${wait} ms`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  async function deliver(d: ClaimedDelivery, abort: AbortController) {
    const headers = signedHeaders(secretOf(d), d.id, d.body);
    const r = await o.sender.send(d.url, headers, d.body, abort.signal);
    if (abort.signal.aborted && !r.ok) {
      await o.repo.release(d);
      return;
    }
    const outcome = { statusCode: r.statusCode, durationMs: r.durationMs, error: r.error };
    if (r.ok) {
      await persist(() => recordSuccess(d, outcome));
      return;
    }
    const delay = retryDelay(o.retrySchedule, d.attempts, r.retryAfter, o.random);
    // The endpoint's next probe follows the schedule by its failures in a row (the last step repeats).
    const probeDelay = (failures: number) =>
      retryDelay(o.retrySchedule, Math.min(failures, o.retrySchedule.length), r.retryAfter, o.random) ?? r.retryAfter ?? 60;
    const sub = await persist(() => o.repo.recordFailure(d, outcome, delay, MAX_CONSECUTIVE_FAILURES, probeDelay));
    if (sub?.counted && !sub.is_active)
      o.log.warn({ subscriptionId: d.subscription_id }, `webhook deactivated after ${sub.consecutive_failures} consecutive failures`);
  }

  function start(d: ClaimedDelivery) {
    const abort = new AbortController();
    const done = deliver(d, abort)
      .catch((err) => o.log.error({ err, deliveryId: d.id }, 'webhook delivery bookkeeping failed'))
      .finally(() => {
        inflight.delete(d.id);
        // Claim more once half the slots are free (or all work is done), not after every single delivery.
        if (inflight.size <= concurrency / 2) wake();
      });
    inflight.set(d.id, { abort, done });
  }

  async function pump() {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    let nextIn: number = pollMs;
    try {
      do {
        again = false;
        while (running && inflight.size < concurrency) {
          const rows = await o.repo.claim(concurrency - inflight.size, lease);
          if (!running) {
            await Promise.all(rows.map((d) => o.repo.release(d)));
            break;
          }
          for (const d of rows) start(d);
          if (rows.length === 0) break;
        }
      } while (again && running);
      if (running && inflight.size < concurrency) {
        const s = await o.repo.secondsUntilNextDue();
        if (s !== null) nextIn = Math.min(pollMs, Math.max(5, s * 1000 + 5));
      }
      if (running && Date.now() - lastPurge > 3_600_000) {
        lastPurge = Date.now();
        await o.repo.purge(30);
      }
    } catch (err) {
      if (running && isUnavailable(err))
        o.log.warn({ err: (err as Error).message }, 'webhook worker: the database is unreachable; deliveries wait for it');
      else if (running) o.log.error({ err }, 'webhook worker cycle failed');
    } finally {
      pumping = false;
    }
    if (running) schedule(again ? 0 : nextIn);
  }

  function schedule(ms: number) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void pump();
    }, ms);
  }

  function wake() {
    if (!running) return;
    if (pumping) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    void pump();
  }

  return {
    name: 'webhook-delivery',
    wake,
    start() {
      running = true;
      unsubscribe = o.onHint(wake);
      schedule(0);
    },
    async stop() {
      running = false;
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      timer = null;
      // In-flight sends are cut short and their rows handed back, so the next instance sends them at once.
      for (const f of inflight.values()) f.abort.abort();
      while (pumping || inflight.size > 0) {
        await Promise.all([...inflight.values()].map((f) => f.done));
        if (pumping) await new Promise((r) => setTimeout(r, 5));
      }
      o.sender.close();
    },
    /** Resolves when nothing is in flight (tests and benchmarks). */
    async idle() {
      while (inflight.size > 0) await Promise.all([...inflight.values()].map((f) => f.done));
    },
  };
}
