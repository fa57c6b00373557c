// JSON-RPC over HTTP with what every hosted provider needs: batches (one round trip, each item billed and
// answered on its own), a per-endpoint request rate and concurrency, waiting out rate limits (HTTP 429 with
// Retry-After, -32005/-32007 "rate exceeded") for the whole endpoint, and retries of transient failures.
// Range refusals (and timeouts of eth_getLogs) are returned to the caller, which shrinks the range (see rpc-limits.ts).
import type { PublicClient } from 'viem';
import { classify, RpcError } from './rpc-errors.js';
import { malformedAnswer } from './rpc-answers.js';

export interface TransportOptions {
  /** calls per second to this endpoint (0: unlimited); a batch of n items counts n */
  rps: number;
  /** HTTP requests in flight to this endpoint at once */
  concurrency: number;
  /** items per JSON-RPC batch */
  batchSize: number;
  attempts: number;
  baseDelayMs: number;
  timeoutMs: number;
}

export const DEFAULT_TRANSPORT: TransportOptions = {
  rps: 0,
  concurrency: 4,
  batchSize: 50,
  attempts: 6,
  baseDelayMs: 250,
  timeoutMs: 30_000,
};

export type Call = { method: string; params: unknown[] };
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: RpcError };

export interface Transport {
  request<T>(method: string, params: unknown[]): Promise<T>;
  /** Each call's own result or refusal; rate limits and transient failures are retried here. */
  batch<T>(calls: Call[]): Promise<Outcome<T>[]>;
  /** calls made (batch items counted one by one), per method */
  readonly calls: Map<string, number>;
  close(): Promise<void>;
}

/** Methods that read state at a block: a node without that block's state refuses them for good. */
const STATE_READS = new Set(['eth_call', 'eth_getCode', 'eth_getBalance', 'eth_getTransactionCount', 'eth_getStorageAt', 'eth_getProof']);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryAfter(h: string | null): number | null {
  if (!h) return null;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(h);
  return Number.isFinite(t) ? Math.max(0, t - Date.now()) : null;
}

export function createTransport(url: string, options: Partial<TransportOptions> = {}): Transport {
  const opts = { ...DEFAULT_TRANSPORT, ...options };
  const calls = new Map<string, number>();
  const count = (c: Call[]) => c.forEach((x) => calls.set(x.method, (calls.get(x.method) ?? 0) + 1));
  let nextSlot = 0;
  let pausedUntil = 0;
  let inFlight = 0;
  const queue: (() => void)[] = [];
  let id = 0;

  /** Waits for a concurrency slot and this batch's share of the request rate. */
  async function admit(n: number): Promise<() => void> {
    if (inFlight >= opts.concurrency) await new Promise<void>((r) => queue.push(r));
    inFlight++;
    const now = Date.now();
    const start = Math.max(now, nextSlot, pausedUntil);
    if (opts.rps > 0) nextSlot = start + (n * 1000) / opts.rps;
    if (start > now) await sleep(start - now);
    return () => {
      inFlight--;
      queue.shift()?.();
    };
  }

  // a WebSocket endpoint is read through viem's client, made (and viem loaded) on the first call, then kept
  let wsClient: Promise<PublicClient> | null = null;
  const ws = /^wss?:/.test(url)
    ? () =>
        (wsClient ??= import('viem').then(({ createPublicClient, webSocket }) =>
          createPublicClient({ transport: webSocket(url, { retryCount: 0 }) }),
        ))
    : null;

  async function post(body: unknown): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
    const text = await res.text();
    if (res.status === 429 || res.status >= 500 || (!res.ok && !text.startsWith('{') && !text.startsWith('['))) {
      let parsed: { error?: { code?: number; message?: string } } | null = null;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* not JSON */
      }
      throw new RpcError(
        parsed?.error?.message ?? `HTTP ${res.status}: ${text.slice(0, 200)}`,
        parsed?.error?.code ?? null,
        undefined,
        res.status,
        retryAfter(res.headers.get('retry-after')),
      );
    }
    return JSON.parse(text);
  }

  type Wire = { id: number; result?: unknown; error?: { code: number; message: string; data?: unknown } };
  const toOutcome = (w: Wire | undefined): Outcome =>
    !w
      ? { ok: false, error: new RpcError('no answer for this batch item', null) }
      : w.error
        ? { ok: false, error: new RpcError(w.error.message, w.error.code, w.error.data) }
        : { ok: true, value: w.result };

  async function once(batch: Call[]): Promise<Outcome[]> {
    count(batch);
    if (ws) {
      const client = await ws();
      return Promise.all(
        batch.map((c) =>
          client.request({ method: c.method as 'eth_chainId', params: c.params as never }).then(
            (value) => ({ ok: true as const, value }),
            (e: { code?: number; details?: string; message?: string; data?: unknown }) => ({
              ok: false as const,
              error: new RpcError(e.details ?? e.message ?? String(e), e.code ?? null, e.data),
            }),
          ),
        ),
      );
    }
    const base = id;
    id += batch.length;
    if (batch.length === 1) {
      const w = (await post({ jsonrpc: '2.0', id: base, method: batch[0].method, params: batch[0].params })) as Wire;
      return [toOutcome(w)];
    }
    const answer = await post(batch.map((c, i) => ({ jsonrpc: '2.0', id: base + i, method: c.method, params: c.params })));
    // a provider that refuses batches answers one error object for the whole request
    if (!Array.isArray(answer)) return batch.map(() => toOutcome(answer as Wire));
    const byId = new Map((answer as Wire[]).map((w) => [Number(w.id), w]));
    return batch.map((_, i) => toOutcome(byId.get(base + i)));
  }

  async function batch<T>(all: Call[]): Promise<Outcome<T>[]> {
    const out: Outcome[] = new Array(all.length);
    const chunks: number[][] = [];
    for (let i = 0; i < all.length; i += opts.batchSize)
      chunks.push([...Array(Math.min(opts.batchSize, all.length - i)).keys()].map((k) => i + k));
    await Promise.all(
      chunks.map(async (idx) => {
        let pending = idx;
        for (let attempt = 0; pending.length; attempt++) {
          const release = await admit(pending.length);
          let results: Outcome[];
          try {
            results = await once(pending.map((i) => all[i]));
          } catch (e) {
            results = pending.map(() => ({
              ok: false,
              error: e instanceof RpcError ? e : new RpcError(String((e as Error)?.message ?? e), null),
            }));
          } finally {
            release();
          }
          // an answer that is not what the method returns is the provider's error (retried like a transient one)
          results = results.map((r, k) => {
            const bad = r.ok ? malformedAnswer(all[pending[k]].method, r.value) : null;
            return bad ? { ok: false, error: new RpcError(bad, null) } : r;
          });
          const retry: number[] = [];
          let wait = 0;
          results.forEach((r, k) => {
            const i = pending[k];
            out[i] = r;
            if (r.ok) return;
            const c = classify(r.error);
            // a timed-out eth_getLogs goes back to the sync, which asks a smaller span; any other call that timed
            // out (a block, a balance) cannot be made smaller, so it is tried again like a transient failure
            // "header not found" from eth_getLogs or a block read is a load-balanced node behind the others: tried
            // again; a state read (eth_call, eth_getCode...) of a block the node keeps no state for never succeeds
            const retriable =
              c.kind === 'rate' ||
              c.kind === 'transient' ||
              (c.kind === 'range' && c.cause === 'timeout' && all[i].method !== 'eth_getLogs') ||
              (c.kind === 'no-state' && !STATE_READS.has(all[i].method));
            if (retriable) {
              retry.push(i);
              if (c.kind === 'rate') wait = Math.max(wait, c.retryAfterMs ?? opts.baseDelayMs * 2 ** Math.min(attempt, 6));
            }
          });
          if (!retry.length || attempt + 1 >= opts.attempts) break;
          // a rate limit pauses every request to this endpoint, not only this batch
          if (wait > 0) pausedUntil = Math.max(pausedUntil, Date.now() + wait);
          else await sleep(opts.baseDelayMs * 2 ** attempt);
          pending = retry;
        }
      }),
    );
    return out as Outcome<T>[];
  }

  return {
    async request<T>(method: string, params: unknown[]): Promise<T> {
      const [r] = await batch<T>([{ method, params }]);
      if (!r.ok) throw r.error;
      return r.value;
    },
    batch,
    calls,
    async close() {
      const client = await wsClient?.catch(() => null);
      if (!client) return;
      const socket = await (client.transport as unknown as { getRpcClient(): Promise<{ close(): void }> }).getRpcClient().catch(() => null);
      socket?.close();
    },
  };
}
