// A database that cannot be reached is a dependency outage, not a bug: its errors become 503 `unavailable`
// with Retry-After (decisions.md), so clients back off and retry, and the pool reconnects by itself when the
// server is back (no restart). Errors of the statement itself (constraint, syntax) pass through unchanged.
import { AppError } from '../errors.js';

export const DB_RETRY_AFTER_SECONDS = 5;

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNABORTED', 'ENETUNREACH', 'EAI_AGAIN']);
// SQLSTATE: class 08 connection exception; 57P01-03 shutting down / cannot connect now; 53300 too many connections.
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|timeout expired|Client has encountered a connection error|Connection ended|not queryable|connect ECONNREFUSED|read ECONNRESET/i;

export function isConnectionError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SERVER_CODES.test(e.code))) return true;
  return typeof e.message === 'string' && MESSAGES.test(e.message);
}

export function databaseUnavailable(cause?: unknown): AppError {
  const e = new AppError('unavailable', `The database is unreachable; retry in ${DB_RETRY_AFTER_SECONDS} s.`, { headers: { 'Retry-After': DB_RETRY_AFTER_SECONDS } });
  (e as { cause?: unknown }).cause = cause;
  return e;
}

/** Rethrows a connection failure as 503 `unavailable`; anything else unchanged. */
export function mapConnectionError(err: unknown): never {
  throw isConnectionError(err) ? databaseUnavailable(err) : err;
}
