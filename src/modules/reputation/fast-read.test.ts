// The cached category read answered before Fastify's router (fast-read.ts) must be indistinguishable from the
// Fastify route: same status, headers and body, the same limits counted once, and every case it cannot answer
// exactly (unknown or expired key, test key, refusals, query strings, names, browsers) left to the Fastify route.
// Real HTTP throughout: app.inject() never reaches the server's request listener.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { buildApp } from '../../app.js';
import { createKey, createTestApp, testConfig, type TestKey } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';

const ORIGIN = 'http://127.0.0.1:5702';
let app: App;
let base: string;
beforeAll(async () => {
  app = await createTestApp({ config: { corsOrigins: [ORIGIN] } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());

const served = () => app.ctx.fastPaths!.served;
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
const headerNames = (r: Response) => [...r.headers.keys()].sort();

/** A live key whose principal is cached, and a wallet whose scores are cached (the first read fills both). */
async function warm(tier: 'Free' | 'Enterprise' = 'Enterprise'): Promise<{ key: TestKey; wallet: string; path: string }> {
  const key = await createKey(app, tier);
  const wallet = Wallet.createRandom().address;
  const path = `/api/v1/reputation/${wallet}/DEFI_LENDING`;
  const first = await get(path, key.headers);
  expect(first.status).toBe(200);
  return { key, wallet, path };
}

describe('cached category read before the router', () => {
  it('answers a cached read exactly as the Fastify route does', async () => {
    const { key, path } = await warm();
    const before = served();
    const fast = await get(path, key.headers);
    expect(served()).toBe(before + 1);
    // ?explain=true is the default: the same answer, through the Fastify route (a query string never takes the fast path)
    const slow = await get(`${path}?explain=true`, key.headers);
    expect(served()).toBe(before + 1);
    expect(fast.status).toBe(200);
    expect(slow.status).toBe(200);
    expect(await fast.text()).toBe(await slow.text());
    expect(headerNames(fast)).toEqual(headerNames(slow));
    for (const h of ['content-type', 'x-ratelimit-limit']) expect(fast.headers.get(h)).toBe(slow.headers.get(h));
    // one request counted per call: the second answer has one slot fewer
    expect(Number(slow.headers.get('x-ratelimit-remaining'))).toBe(Number(fast.headers.get('x-ratelimit-remaining')) - 1);
    expect(Number(fast.headers.get('x-response-time'))).toBeGreaterThanOrEqual(0);
    expect(fast.headers.get('x-request-id')).toBeTruthy();
    // a sane caller id is echoed, as by the Fastify route
    const traced = await get(path, { ...key.headers, 'x-request-id': 'trace-42.abc' });
    expect(traced.headers.get('x-request-id')).toBe('trace-42.abc');
    expect(served()).toBe(before + 2);
  });

  it('counts fast answers in the monthly quota and in /metrics under the route', async () => {
    const { key, path } = await warm();
    const usage = async () =>
      (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json().queriesThisMonth as number;
    const used = await usage();
    const before = served();
    for (let i = 0; i < 5; i++) expect((await get(path, key.headers)).status).toBe(200);
    expect(served()).toBe(before + 5);
    expect(await usage()).toBe(used + 5);
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text
      .split('\n')
      .find(
        (l) =>
          l.startsWith('credence_http_requests_total{') &&
          l.includes('route="/api/v1/reputation/:address/:category"') &&
          l.includes('status="200"'),
      );
    expect(Number(line?.split(' ').pop())).toBeGreaterThanOrEqual(5);
  });

  it('a refused request is answered by the Fastify route, counted once', async () => {
    const { key, path } = await warm('Free'); // 10 requests per second
    const answers: Response[] = [];
    for (let i = 0; i < 12; i++) answers.push(await get(path, key.headers));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    const r = limited[0];
    expect(((await r.json()) as { error: string }).error).toBe('rate_limited');
    expect(r.headers.get('retry-after')).toBeTruthy();
    expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
    // never more than the limit admitted, and once refused, refused for the rest of the burst
    expect(answers.filter((x) => x.status === 200).length).toBeLessThanOrEqual(10);
    expect(answers.slice(answers.indexOf(r)).every((x) => x.status === 429)).toBe(true);
  });

  it('the monthly quota refuses through the Fastify route, without counting the request twice against the rate limit', async () => {
    const { key, path } = await warm('Free'); // 100 queries a month
    const keyId = key.id;
    // use up the month but one query through the real quota store
    const used = (await app.ctx.quota.consume(keyId, 100, 0)).used;
    expect((await app.ctx.quota.consume(keyId, 100, 99 - used)).allowed).toBe(true);
    const last = await get(path, key.headers);
    expect(last.status).toBe(200);
    const over = await get(path, key.headers);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: string }).error).toBe('quota_exceeded');
    // the limiter saw two requests in this second, not three
    expect(Number(over.headers.get('x-ratelimit-remaining'))).toBe(Number(last.headers.get('x-ratelimit-remaining')) - 1);
  });

  it('leaves to the Fastify route what it cannot answer exactly', async () => {
    const { key, wallet, path } = await warm();
    const before = served();
    // unknown key
    expect((await get(path, { 'x-api-key': `cred_live_${'0'.repeat(40)}` })).status).toBe(401);
    // no key
    expect((await get(path)).status).toBe(401);
    // a bad checksum: 400 from the route's validation
    const bad = `0x${wallet.slice(2, 41)}${wallet[41] === wallet[41].toUpperCase() ? wallet[41].toLowerCase() : wallet[41].toUpperCase()}`;
    if (bad !== wallet)
      expect((await get(`/api/v1/reputation/${bad.replace(/[a-f]/, (c) => c.toUpperCase())}/DEFI_LENDING`, key.headers)).status).toBe(400);
    // an unknown or lower-case category
    expect((await get(`/api/v1/reputation/${wallet}/defi_lending`, key.headers)).status).toBe(400);
    // explain=false: the bare entry, by the route
    const bare = await get(`${path}?explain=false`, key.headers);
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as { factors?: unknown }).factors).toBeUndefined();
    // a browser on an allowed origin gets its CORS headers from the route
    const cors = await get(path, { ...key.headers, origin: ORIGIN });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    // HEAD
    expect((await fetch(`${base}${path}`, { method: 'HEAD', headers: key.headers })).status).toBe(200);
    // a wallet not in the cache yet
    expect((await get(`/api/v1/reputation/${Wallet.createRandom().address}/NFT`, key.headers)).status).toBe(200);
    expect(served()).toBe(before);
  });

  it('a test key reads sandbox scores through the route', async () => {
    const owner = await createKey(app, 'Free');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: owner.owner.auth,
      payload: { organizationName: 'Sandbox', contactEmail: 'dev@example.com', environment: 'test' },
    });
    expect(res.statusCode).toBe(201);
    const testKey = { 'x-api-key': res.json().apiKey as string };
    const path = `/api/v1/reputation/${Wallet.createRandom().address}/OVERALL`;
    const a = await get(path, testKey);
    const before = served();
    const b = await get(path, testKey);
    expect(a.status).toBe(200);
    expect(await b.text()).toBe(await a.text());
    expect(served()).toBe(before);
  });

  it('a revoked key stops at once, an expired one too', async () => {
    const { key, path } = await warm();
    expect((await get(path, key.headers)).status).toBe(200);
    const del = await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${key.id}`, headers: key.owner.auth });
    expect(del.statusCode).toBe(204);
    expect((await get(path, key.headers)).status).toBe(401);

    const second = await warm();
    expect((await get(second.path, second.key.headers)).status).toBe(200);
    // the cached principal passes its expiry: not served from the cache any more
    const principal = app.ctx.apiKeys.cached!(second.key.apiKey)!;
    principal.expiresAt = Date.now() - 1;
    const before = served();
    const expired = await get(second.path, second.key.headers);
    expect(expired.status).toBe(401);
    expect(served()).toBe(before);
  });
});

describe('with CORS open to any origin', () => {
  it('leaves every read to the route, which adds the CORS headers', async () => {
    const open = await createTestApp({ config: { corsOrigins: ['*'] } });
    try {
      await open.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(open.server.address() as { port: number }).port}`;
      const key = await createKey(open, 'Enterprise');
      const path = `/api/v1/reputation/${Wallet.createRandom().address}/SOCIAL`;
      expect((await fetch(`${url}${path}`, { headers: key.headers })).status).toBe(200);
      const again = await fetch(`${url}${path}`, { headers: { ...key.headers, origin: 'http://127.0.0.1:5703' } });
      expect(again.status).toBe(200);
      expect(again.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5703');
      expect(open.ctx.fastPaths!.served).toBe(0);
    } finally {
      await open.close();
    }
  });
});

describe('request logs of fast answers', () => {
  it('writes the same two lines as Fastify, with the request id, and no key', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // request lines are at debug (a terminal at the default level shows the banner, not every request)
    const logged = await buildApp(testConfig({ logLevel: 'debug' }), { db: await testDatabase(), secrets: {}, logStream: sink });
    try {
      await logged.ready();
      await logged.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(logged.server.address() as { port: number }).port}`;
      const key = await createKey(logged, 'Enterprise');
      const path = `/api/v1/reputation/${Wallet.createRandom().address}/GOVERNANCE`;
      expect((await fetch(`${url}${path}`, { headers: key.headers })).status).toBe(200);
      lines.length = 0;
      const before = logged.ctx.fastPaths!.served;
      const res = await fetch(`${url}${path}`, { headers: { ...key.headers, 'x-request-id': 'fast-log-1' } });
      expect(res.status).toBe(200);
      expect(logged.ctx.fastPaths!.served).toBe(before + 1);
      const entries = lines.map(
        (l) => JSON.parse(l) as { msg: string; reqId?: string; req?: { url: string; method: string }; res?: { statusCode: number } },
      );
      const incoming = entries.find((e) => e.msg === 'incoming request');
      const completed = entries.find((e) => e.msg === 'request completed');
      expect(incoming).toMatchObject({ reqId: 'fast-log-1', req: { method: 'GET', url: path } });
      expect(completed).toMatchObject({ reqId: 'fast-log-1', res: { statusCode: 200 } });
      expect(lines.join('')).not.toContain(key.apiKey);
    } finally {
      await logged.close();
    }
  });
});
