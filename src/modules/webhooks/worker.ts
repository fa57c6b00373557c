// The delivery worker: claims due outbox rows and hands each to its steps (delivery-steps.ts: sign, send,
// record the outcome, schedule the retry). While an endpoint fails, the claim hands out one probe at a time
// along its retry schedule (outbox-repo.ts), so a burst during an outage counts as one failure per probe, not one
// per queued event. It is woken at once by `score.updated` on the event bus (published after commit, on any
// instance), and also polls, so rows written while no event arrived (another instance without Redis, retries
// coming due) are found within a second. Every step works on one context (worker-context.ts).
import type { Worker } from '../../platform/context.js';
import { isUnavailable } from '../../platform/db/unavailable.js';
import { deliver } from './delivery-steps.js';
import type { ClaimedDelivery } from './outbox-repo.js';
import { createDeliveryContext, type DeliveryContext, type DeliveryWorkerOptions } from './worker-context.js';

export { MAX_CONSECUTIVE_FAILURES, retryDelay } from './retry-schedule.js';
export type { DeliveryWorkerOptions } from './worker-context.js';

/** Bus topic: deliveries were made due outside a score change (enable, replay, test). */
export const WEBHOOKS_DUE = 'webhooks.due';

/** Delivered rows are kept this many days, then purged (at most once an hour). */
const RETENTION_DAYS = 30;
const PURGE_EVERY_MS = 3_600_000;

export function createDeliveryWorker(o: DeliveryWorkerOptions): Worker & { wake(): void; idle(): Promise<void> } {
  const ctx = createDeliveryContext(o);
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unsubscribe: (() => void) | null = null;
  let lastPurge = 0;

  /** One cycle: claim until the slots are full or nothing is due, then purge old rows and wait for the next. */
  async function pump() {
    if (!ctx.running) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    let nextIn: number = ctx.pollMs;
    try {
      do {
        again = false;
        await claimDueDeliveries(ctx);
      } while (again && ctx.running);
      nextIn = await nextPollIn(ctx);
      if (ctx.running && Date.now() - lastPurge > PURGE_EVERY_MS) {
        lastPurge = Date.now();
        await ctx.repo.purge(RETENTION_DAYS);
      }
    } catch (err) {
      if (ctx.running && isUnavailable(err))
        ctx.log.warn({ err: (err as Error).message }, 'webhook worker: the database is unreachable; deliveries wait for it');
      else if (ctx.running) ctx.log.error({ err }, 'webhook worker cycle failed');
    } finally {
      pumping = false;
    }
    if (ctx.running) schedule(again ? 0 : nextIn);
  }

  function schedule(ms: number) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void pump();
    }, ms);
  }

  function wake() {
    if (!ctx.running) return;
    if (pumping) {
      again = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    void pump();
  }
  ctx.wake = wake;

  return {
    name: 'webhook-delivery',
    wake,
    start() {
      ctx.running = true;
      unsubscribe = o.onHint(wake);
      schedule(0);
    },
    async stop() {
      ctx.running = false;
      unsubscribe?.();
      if (timer) clearTimeout(timer);
      timer = null;
      // In-flight sends are cut short and their rows handed back, so the next instance sends them at once.
      for (const f of ctx.inflight.values()) f.abort.abort();
      while (pumping || ctx.inflight.size > 0) {
        await Promise.all([...ctx.inflight.values()].map((f) => f.done));
        if (pumping) await new Promise((r) => setTimeout(r, 5));
      }
      ctx.sender.close();
    },
    /** Resolves when nothing is in flight (tests and benchmarks). */
    async idle() {
      while (ctx.inflight.size > 0) await Promise.all([...ctx.inflight.values()].map((f) => f.done));
    },
  };
}

/** Claims due rows into the free slots until they are full or nothing more is due; each starts its delivery. */
async function claimDueDeliveries(ctx: DeliveryContext): Promise<void> {
  while (ctx.running && ctx.inflight.size < ctx.concurrency) {
    const rows = await ctx.repo.claim(ctx.concurrency - ctx.inflight.size, ctx.lease);
    if (!ctx.running) {
      // stopped while claiming: the rows go back rather than wait out their lease
      await Promise.all(rows.map((d) => ctx.repo.release(d)));
      break;
    }
    for (const d of rows) startDelivery(ctx, d);
    if (rows.length === 0) break;
  }
}

/** Starts one delivery in a slot; the slot frees when its outcome is recorded. */
function startDelivery(ctx: DeliveryContext, d: ClaimedDelivery): void {
  const abort = new AbortController();
  const done = deliver(ctx, d, abort)
    .catch((err) => ctx.log.error({ err, deliveryId: d.id }, 'webhook delivery bookkeeping failed'))
    .finally(() => {
      ctx.inflight.delete(d.id);
      // Claim more once half the slots are free (or all work is done), not after every single delivery.
      if (ctx.inflight.size <= ctx.concurrency / 2) ctx.wake();
    });
  ctx.inflight.set(d.id, { abort, done });
}

/** Milliseconds until the next cycle: the poll interval, or sooner when a retry comes due before it. */
async function nextPollIn(ctx: DeliveryContext): Promise<number> {
  if (!ctx.running || ctx.inflight.size >= ctx.concurrency) return ctx.pollMs;
  const s = await ctx.repo.secondsUntilNextDue();
  return s !== null ? Math.min(ctx.pollMs, Math.max(5, s * 1000 + 5)) : ctx.pollMs;
}
