// The SDK's transport against a local HTTP server that answers what each test scripts: retries honour
// Retry-After on 429/503 for idempotent calls only, an Idempotency-Key is added to the POSTs the service
// deduplicates (and kept across retries), time-outs and the caller's AbortSignal end a call, lists are walked
// with `for await`, and errors arrive as classes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCredenceClient,
  ConnectionError,
  RateLimitError,
  TimeoutError,
  UnavailableError,
  unwrap,
  ValidationError,
} from '../../sdk/src/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer = { status: number; body?: unknown; headers?: Record<string, string>; hang?: boolean };
let script: (r: Seen, i: number) => Answer = () => ({ status: 200, body: {} });
const seen: Seen[] = [];
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() };
      const a = script(r, seen.push(r) - 1);
      if (a.hang) return; // never answers
      res.writeHead(a.status, { 'content-type': 'application/json', 'x-request-id': `req-${seen.length}`, ...a.headers });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
const fresh = (s: typeof script) => {
  seen.length = 0;
  script = s;
};
const busy = { error: 'unavailable', details: 'busy' };

describe('SDK transport', () => {
  it('retries a GET after 503 and 429, waiting Retry-After', async () => {
    fresh((_r, i) =>
      i === 0
        ? { status: 503, body: busy, headers: { 'retry-after': '0' } }
        : i === 1
          ? { status: 429, body: { error: 'rate_limited', details: 'slow down' }, headers: { 'retry-after': '0' } }
          : { status: 200, body: { queriesThisMonth: 1 } },
    );
    const credence = createCredenceClient({ baseUrl, apiKey: 'cred_live_x', retryBaseMs: 1 });
    const usage = await unwrap(credence.GET('/api/v1/billing/usage'));
    expect(usage).toMatchObject({ queriesThisMonth: 1 });
    expect(seen).toHaveLength(3);
    expect(seen.every((s) => s.headers['x-api-key'] === 'cred_live_x')).toBe(true);
  });

  it('gives up after maxRetries, and does not wait a Retry-After longer than maxRetryDelayMs (a monthly quota)', async () => {
    fresh(() => ({ status: 503, body: busy, headers: { 'retry-after': '0' } }));
    const e = await unwrap(createCredenceClient({ baseUrl, maxRetries: 1 }).GET('/api/v1/billing/usage')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UnavailableError);
    expect(seen).toHaveLength(2);
    fresh(() => ({ status: 429, body: { error: 'quota_exceeded', details: 'month used' }, headers: { 'retry-after': '86400' } }));
    const q = await unwrap(createCredenceClient({ baseUrl }).GET('/api/v1/billing/usage')).catch((x: unknown) => x);
    expect(q).toBeInstanceOf(RateLimitError);
    expect(q).toMatchObject({ code: 'quota_exceeded', retryAfter: 86400, status: 429, requestId: 'req-1' });
    expect(seen).toHaveLength(1);
  });

  it('never retries a POST the service does not deduplicate; adds an Idempotency-Key to those it does and retries them with the same key', async () => {
    fresh(() => ({ status: 503, body: busy, headers: { 'retry-after': '0' } }));
    const credence = createCredenceClient({ baseUrl, retryBaseMs: 1 });
    await credence.POST('/api/v1/reputation/verify', { body: { proof: '0x00' } });
    expect(seen).toHaveLength(1);
    expect(seen[0].headers['idempotency-key']).toBeUndefined();

    fresh((_r, i) => (i < 2 ? { status: 503, body: busy, headers: { 'retry-after': '0' } } : { status: 201, body: { id: 'x' } }));
    const created = await credence.POST('/api/v1/dispute', {
      body: {
        walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        category: 'OVERALL',
        reason: 'Other',
        description: 'a description here',
      },
    });
    expect(created.response.status).toBe(201);
    expect(seen).toHaveLength(3);
    const keys = new Set(seen.map((s) => s.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.every((s) => JSON.parse(s.body).reason === 'Other')).toBe(true);

    // a key the caller sets is kept; idempotencyKeys: false adds none (and so does not retry)
    fresh(() => ({ status: 201, body: {} }));
    await credence.POST('/api/v1/dispute', {
      body: {
        walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        category: 'OVERALL',
        reason: 'Other',
        description: 'a description here',
      },
      headers: { 'Idempotency-Key': 'mine-1' },
    });
    await credence.with({ idempotencyKeys: false }).POST('/api/v1/dispute', {
      body: {
        walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
        category: 'OVERALL',
        reason: 'Other',
        description: 'a description here',
      },
    });
    expect(seen.map((s) => s.headers['idempotency-key'])).toEqual(['mine-1', undefined]);
  });

  it("ends a call at its time-out (TimeoutError) or at the caller's AbortSignal", async () => {
    fresh(() => ({ status: 200, hang: true }));
    const slow = createCredenceClient({ baseUrl, timeoutMs: 150, maxRetries: 0 });
    const e = await slow.GET('/api/v1/billing/usage').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e).toMatchObject({ code: 'timeout', status: 0 });
    const abort = new AbortController();
    const call = createCredenceClient({ baseUrl, timeoutMs: 0 })
      .GET('/api/v1/billing/usage', { signal: abort.signal })
      .catch((x: unknown) => x);
    abort.abort(new Error('user gave up'));
    expect(((await call) as Error).message).toBe('user gave up');
    // per request: with() changes the policy of one call only
    expect(
      await slow
        .with({ timeoutMs: 50 })
        .GET('/api/v1/billing/usage')
        .catch((x: unknown) => x),
    ).toBeInstanceOf(TimeoutError);
  });

  it('a refused connection is a ConnectionError; a 400 a ValidationError with its fields', async () => {
    const closed = createCredenceClient({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
    expect(await closed.GET('/api/v1/billing/usage').catch((x: unknown) => x)).toBeInstanceOf(ConnectionError);
    fresh(() => ({
      status: 400,
      body: { error: 'validation_failed', details: 'bad', fields: [{ field: 'limit', message: 'must be >= 1' }] },
    }));
    const e = await unwrap(createCredenceClient({ baseUrl }).GET('/api/v1/webhooks')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({ fields: [{ field: 'limit' }] });
  });

  it('walks a list with for await: nextCursor pages and Link pages', async () => {
    fresh((r) => {
      const cursor = new URL(r.url, 'http://x').searchParams.get('cursor');
      if (r.url.startsWith('/api/v1/webhooks')) {
        return cursor === null
          ? { status: 200, body: { count: 2, webhooks: [{ id: 'a' }, { id: 'b' }], nextCursor: 'c1', hasMore: true } }
          : { status: 200, body: { count: 1, webhooks: [{ id: cursor }], nextCursor: null, hasMore: false } };
      }
      return cursor === null
        ? { status: 200, body: [{ id: 'x' }], headers: { link: '</api/v1/compliance/age-checks?limit=1&cursor=k2>; rel="next"' } }
        : { status: 200, body: [{ id: cursor }] };
    });
    const credence = createCredenceClient({ baseUrl });
    const ids: string[] = [];
    for await (const w of credence.paginate('/api/v1/webhooks', { params: { query: { limit: 2 } } })) ids.push(w.id);
    expect(ids).toEqual(['a', 'b', 'c1']);
    expect(new URL(seen[1].url, 'http://x').searchParams.get('limit')).toBe('2');
    const checks: string[] = [];
    for await (const c of credence.paginate('/api/v1/compliance/age-checks')) checks.push(c.id);
    expect(checks).toEqual(['x', 'k2']);
  });
});
