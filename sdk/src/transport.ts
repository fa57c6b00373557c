// The fetch under the client: a time-out per request (with the caller's AbortSignal), an Idempotency-Key on every
// POST the service deduplicates, and retries with exponential backoff that honour Retry-After on 429 and 503 (and
// retry connection failures) for idempotent requests only: GET, HEAD, PUT, DELETE, and POSTs carrying an
// Idempotency-Key. A Retry-After longer than `maxRetryDelayMs` (a monthly quota) is answered at once, not waited.
import { ConnectionError, TimeoutError } from './errors.js';
import { IDEMPOTENT_POSTS } from './operations.js';

export interface RequestPolicy {
  /** retries after the first attempt (default 2; 0 turns retries off) */
  maxRetries?: number;
  /** time-out of each attempt in milliseconds (default 30,000; 0: none) */
  timeoutMs?: number;
  /** first backoff delay when no Retry-After is given (default 500 ms; doubled per retry, with jitter) */
  retryBaseMs?: number;
  /** longest wait before a retry; a longer Retry-After is not waited for (default 60,000 ms) */
  maxRetryDelayMs?: number;
  /** add an Idempotency-Key to POSTs the service deduplicates (default true) */
  idempotencyKeys?: boolean;
}

const SAFE = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const templates = IDEMPOTENT_POSTS.map((t) => new RegExp(`^${t.replace(/\{[^}]+\}/g, '[^/]+')}$`));
const sleep = (ms: number, signal: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });

export function policyFetch(base: typeof fetch, policy: () => Required<RequestPolicy>): typeof fetch {
  return async (input, init) => {
    const p = policy();
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    const path = new URL(request.url).pathname;
    if (request.method === 'POST' && p.idempotencyKeys && !headers.has('idempotency-key') && templates.some((t) => t.test(path))) {
      headers.set('idempotency-key', crypto.randomUUID());
    }
    const retryable = SAFE.has(request.method) || headers.has('idempotency-key');
    const body = request.body ? await request.arrayBuffer() : undefined;
    for (let attempt = 0; ; attempt++) {
      const signals = [request.signal, ...(p.timeoutMs > 0 ? [AbortSignal.timeout(p.timeoutMs)] : [])];
      const signal = AbortSignal.any(signals);
      const last = !retryable || attempt >= p.maxRetries;
      let response: Response;
      try {
        response = await base(
          new Request(request.url, { method: request.method, headers, body: body ?? null, signal, redirect: request.redirect }),
        );
      } catch (e) {
        if (request.signal.aborted) throw request.signal.reason ?? e; // the caller's own abort
        const timedOut = signal.aborted;
        if (last) {
          const details = timedOut
            ? `no answer within ${p.timeoutMs} ms from ${request.method} ${path}`
            : `${request.method} ${path} failed: ${(e as Error).message}`;
          throw new (timedOut ? TimeoutError : ConnectionError)({
            code: timedOut ? 'timeout' : 'connection_failed',
            details,
            status: 0,
            cause: e,
          });
        }
        await sleep(backoff(p, attempt), request.signal);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const after = Number(response.headers.get('retry-after'));
      const wait = response.headers.has('retry-after') && Number.isFinite(after) ? after * 1000 : backoff(p, attempt);
      if (wait > p.maxRetryDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}

function backoff(p: Required<RequestPolicy>, attempt: number): number {
  const d = p.retryBaseMs * 2 ** attempt;
  return Math.min(p.maxRetryDelayMs, d / 2 + Math.random() * (d / 2));
}
