// One claimed delivery, step by step over the worker's context: load its subscription's signing secret, sign,
// send, then record the outcome. A success is recorded in a batch; a failure is recorded with its retry
// scheduled (and its endpoint's next probe, or its deactivation after too many failures in a row); a send cut
// short by shutdown hands its row back untouched.
import { retryWhileUnavailable } from '../../platform/db/unavailable.js';
import type { AttemptOutcome, ClaimedDelivery } from './outbox-repo.js';
import { MAX_CONSECUTIVE_FAILURES, probeDelay, retryDelay } from './retry-schedule.js';
import type { SendResult } from './sender.js';
import { signedHeaders } from './signing.js';
import type { DeliveryContext } from './worker-context.js';

export async function deliver(ctx: DeliveryContext, d: ClaimedDelivery, abort: AbortController): Promise<void> {
  const headers = sign(ctx, d);
  const r = await send(ctx, d, headers, abort);
  if (abort.signal.aborted && !r.ok) return handBack(ctx, d);
  const outcome: AttemptOutcome = { statusCode: r.statusCode, durationMs: r.durationMs, error: r.error };
  if (r.ok) return persist(ctx, () => recordSuccess(ctx, d, outcome));
  return recordFailure(ctx, d, outcome, r.retryAfter);
}

/** The subscription's signing secret, decrypted once and kept (the cache is emptied past 10,000 secrets). */
export function loadSecret(ctx: DeliveryContext, d: ClaimedDelivery): string {
  let s = ctx.secrets.get(d.secret_encrypted);
  if (s === undefined) {
    s = ctx.cipher.decrypt(d.secret_encrypted);
    if (ctx.secrets.size > 10_000) ctx.secrets.clear();
    ctx.secrets.set(d.secret_encrypted, s);
  }
  return s;
}

export function sign(ctx: DeliveryContext, d: ClaimedDelivery): Record<string, string> {
  return signedHeaders(loadSecret(ctx, d), d.id, d.body);
}

export function send(
  ctx: DeliveryContext,
  d: ClaimedDelivery,
  headers: Record<string, string>,
  abort: AbortController,
): Promise<SendResult> {
  return ctx.sender.send(d.url, headers, d.body, abort.signal);
}

/** A row whose send was cut short goes back due at once, its attempt not counted, for the next instance. */
export function handBack(ctx: DeliveryContext, d: ClaimedDelivery): Promise<void> {
  return ctx.repo.release(d);
}

/**
 * Successes finishing together are recorded in one statement: the database round trip, not the HTTP POST, is
 * what limits deliveries per second on an embedded database.
 */
export function recordSuccess(ctx: DeliveryContext, d: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
  return new Promise<void>((done, fail) => {
    ctx.successes.push({ d, o: outcome, done, fail });
    setImmediate(() => void flushSuccesses(ctx));
  });
}

function flushSuccesses(ctx: DeliveryContext): Promise<void> {
  if (ctx.flushing) return ctx.flushing;
  ctx.flushing = (async () => {
    while (ctx.successes.length > 0) {
      const batch = ctx.successes;
      ctx.successes = [];
      try {
        await ctx.repo.recordSuccesses(batch);
        for (const b of batch) b.done();
      } catch (e) {
        for (const b of batch) b.fail(e);
      }
    }
  })().finally(() => {
    ctx.flushing = null;
  });
  return ctx.flushing;
}

/** Records a failed attempt with its retry scheduled; the endpoint's failures in a row may deactivate it. */
export async function recordFailure(
  ctx: DeliveryContext,
  d: ClaimedDelivery,
  outcome: AttemptOutcome,
  retryAfter: number | null,
): Promise<void> {
  const delay = retryDelay(ctx.retrySchedule, d.attempts, retryAfter, ctx.random);
  const nextProbe = (failures: number) => probeDelay(ctx.retrySchedule, failures, retryAfter, ctx.random);
  const sub = await persist(ctx, () => ctx.repo.recordFailure(d, outcome, delay, MAX_CONSECUTIVE_FAILURES, nextProbe));
  if (sub?.counted && !sub.is_active)
    ctx.log.warn({ subscriptionId: d.subscription_id }, `webhook deactivated after ${sub.consecutive_failures} consecutive failures`);
}

/**
 * The outcome of a send that happened must be recorded: a failed write (database busy or briefly away) is tried
 * again rather than left to the lease, which would re-send the row only after `lease` seconds (sent rows would
 * sit claimed past a waiting client's deadline under load). A database outage is waited out for as long as the
 * worker runs: the receiver got the message, and recording it once the database is back (within the lease) is
 * what keeps it from being sent again.
 */
async function persist<T>(ctx: DeliveryContext, fn: () => Promise<T>): Promise<T> {
  for (let wait = 100; ; wait *= 2) {
    try {
      return await retryWhileUnavailable(fn, {
        active: () => ctx.running,
        onRetry: (err, ms) =>
          ctx.log.warn({ err: (err as Error).message }, `webhook outcome not recorded: the database is unreachable; retrying in ${ms} ms`),
      });
    } catch (err) {
      if (!ctx.running || wait > 6_400) throw err;
      ctx.log.warn({ err }, `webhook outcome not recorded; retrying in ${wait} ms`);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
