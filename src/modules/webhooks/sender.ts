// One HTTP POST of a signed webhook body. Fails on a non-2xx answer, a connection error or no answer
// within the timeout. With the SSRF rule on, the target's name is resolved and checked by `guardedLookup`
// and the socket connects to the checked address; IP literals are checked directly.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { ForbiddenTargetError, guardedLookup, isForbiddenIp, urlHost } from './ssrf.js';

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** seconds asked for by a Retry-After answer header */
  retryAfter: number | null;
}

export interface Sender {
  send(url: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<SendResult>;
  close(): void;
}

/** A result-maker for one attempt begun now: a failure (or what `r` says) timed from the start. */
export function attemptResult(started = performance.now()) {
  return (r: Partial<SendResult>): SendResult => ({
    ok: false,
    statusCode: null,
    error: null,
    retryAfter: null,
    ...r,
    durationMs: Math.round(performance.now() - started),
  });
}

/** Parses Retry-After (delta seconds or an HTTP date) into seconds from now. */
export function parseRetryAfter(v: string | string[] | undefined, now = Date.now()): number | null {
  const s = Array.isArray(v) ? v[0] : v;
  if (!s) return null;
  if (/^\d+$/.test(s.trim())) return Number(s.trim());
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : Math.max(0, Math.ceil((t - now) / 1000));
}

export function createSender(opts: { allowPrivate: boolean; timeoutMs?: number }): Sender {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  // Keep-alive pools per protocol: bursts to one receiver reuse connections.
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, timeout: 30_000 }),
  };
  return {
    send(url, headers, body, signal) {
      const done = attemptResult();
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return Promise.resolve(done({ error: 'invalid URL' }));
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') return Promise.resolve(done({ error: 'URL must use http or https' }));
      if (!opts.allowPrivate && isIP(urlHost(u)) && isForbiddenIp(urlHost(u))) {
        return Promise.resolve(done({ error: `refused: ${urlHost(u)} is a private, loopback, link-local or reserved address` }));
      }
      return new Promise<SendResult>((resolve) => {
        let settled = false;
        const finish = (r: Partial<SendResult>) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(done(r));
        };
        const mod = u.protocol === 'https:' ? https : http;
        const req = mod.request(u, {
          method: 'POST',
          agent: agents[u.protocol as 'http:' | 'https:'],
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          ...(opts.allowPrivate ? {} : { lookup: guardedLookup }),
        });
        const timer = setTimeout(() => {
          finish({ error: `no answer within ${timeoutMs / 1000} s` });
          req.destroy();
        }, timeoutMs);
        const onAbort = () => {
          finish({ error: 'aborted: shutting down' });
          req.destroy();
        };
        signal?.addEventListener('abort', onAbort);
        req.on('response', (res) => {
          const code = res.statusCode ?? 0;
          // The body is not needed; drain it so the connection can be reused.
          res.resume();
          const ok = code >= 200 && code < 300;
          finish({
            ok,
            statusCode: code,
            error: ok ? null : `HTTP ${code}`,
            retryAfter: ok ? null : parseRetryAfter(res.headers['retry-after']),
          });
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          const msg = err instanceof ForbiddenTargetError ? `refused: ${err.message}` : `${err.code ?? 'error'}: ${err.message}`;
          finish({ error: msg.slice(0, 500) });
        });
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
