// A database that cannot be reached is a dependency outage, not a bug: its errors become 503 `unavailable`
// with Retry-After (decisions.md), so clients back off and retry, and the pool reconnects by itself when the
// server is back (no restart). Errors of the statement itself (constraint, syntax) pass through unchanged.
import { AppError } from '../errors.js';

export const DB_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ECONNABORTED',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
// SQLSTATE: class 08 connection exception; 57P01-03 shutting down / cannot connect now; 53300 too many connections.
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|Connection ended|not queryable|connect ECONNREFUSED|read ECONNRESET/i;

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_CODES.test(e.code))) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}

/** 503 `unavailable` because the database did not answer (not another dependency's 503). */
export class DatabaseUnavailable extends AppError {
  constructor(cause?: unknown) {
    super('unavailable', `The database is unreachable; retry in ${DB_RETRY_AFTER_SECONDS} s.`, {
      headers: { 'Retry-After': DB_RETRY_AFTER_SECONDS },
    });
    (this as { cause?: unknown }).cause = cause;
  }
}

export function databaseUnavailable(cause?: unknown): AppError {
  return new DatabaseUnavailable(cause);
}

/** Rethrows a connection failure as 503 `unavailable`; anything else unchanged. */
export function mapConnectionError(err: unknown): never {
  throw isConnectionError(err) ? databaseUnavailable(err) : err;
}

/** The database was unreachable (mapped 503, or a raw connection error): the work is fine, the time was not. */
export function isUnavailable(err: unknown): boolean {
  return err instanceof DatabaseUnavailable || isConnectionError(err);
}

/**
 * Runs fn until it is done, waiting out database outages: an unavailable error is tried again (backing off to
 * `maxWaitMs` between tries) for as long as `active()` says the caller still runs. Any other error, or the caller
 * stopping, throws. For bookkeeping that must land once the database is back (a job handed back, an outcome
 * recorded), where giving up would leave the work to a lease that lapses minutes later, or lose it.
 */
export async function retryWhileUnavailable<T>(
  fn: () => Promise<T>,
  opts: { active: () => boolean; onRetry?: (err: unknown, waitMs: number) => void; maxWaitMs?: number },
): Promise<T> {
  const maxWaitMs = opts.maxWaitMs ?? 2_000;
  for (let wait = 100; ; wait = Math.min(wait * 2, maxWaitMs)) {
    try {
      return await fn();
    } catch (err) {
      if (!isUnavailable(err) || !opts.active()) throw err;
      opts.onRetry?.(err, wait);
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
