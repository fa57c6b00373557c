import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, redisUrl } from '../../../test/helpers/app.js';
import { secondConnection, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import type { App } from '../http/types.js';
import { createMemoryLimiter } from './index.js';

/**
 * Runs a burst that must fit in the limiter's one-second window. On a loaded machine a burst can take longer (then
 * its first requests have left the window and the limit is rightly not reached): such an attempt is run again with
 * fresh identities (a new key or client address), never judged.
 */
async function inOneSecond<T>(attempt: (n: number) => Promise<T>): Promise<T> {
  for (let n = 0; n < 6; n++) {
    const started = performance.now();
    const result = await attempt(n);
    if (performance.now() - started < 900) return result;
  }
  throw new Error('no burst fitted in one second in six attempts: the machine is too loaded to test the window');
}

describe('sliding-window limiter (in-process)', () => {
  it('admits exactly `limit` requests in any rolling window', () => {
    let t = 10_000;
    const l = createMemoryLimiter(() => t);
    for (let i = 0; i < 10; i++) {
      const r = l.hit('k', 10) as ReturnType<typeof l.hit> & { allowed: boolean; remaining: number };
      expect(r.allowed).toBe(true);
      expect(r.remaining).toBe(9 - i);
      t += 50; // ten requests over 450 ms
    }
    const refused = l.hit('k', 10) as { allowed: boolean; retryAfter: number };
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(1);
    t = 10_000 + 999; // the first request is still inside the window
    expect((l.hit('k', 10) as { allowed: boolean }).allowed).toBe(false);
    t = 10_000 + 1001; // it has left: one slot frees
    expect((l.hit('k', 10) as { allowed: boolean }).allowed).toBe(true);
    expect((l.hit('k', 10) as { allowed: boolean }).allowed).toBe(false);
    // a fixed window would reset at a boundary; the sliding one does not
    t = 10_000 + 1049;
    expect((l.hit('k', 10) as { allowed: boolean }).allowed).toBe(false);
    expect((l.hit('other', 10) as { allowed: boolean }).allowed).toBe(true);
  });

  it('agrees with a plain sliding log over a long random run', () => {
    let t = 0;
    const l = createMemoryLimiter(() => t);
    const log: number[] = []; // admitted request times, the obvious way
    for (let i = 0; i < 20_000; i++) {
      t += Math.floor(Math.random() * (i % 5000 < 2500 ? 40 : 400)); // bursts and lulls, with sweeps every 60 s
      const inWindow = log.filter((x) => x > t - 1000);
      const r = l.hit('k', 25) as { allowed: boolean; remaining: number; resetAt: number };
      expect(r.allowed).toBe(inWindow.length < 25);
      if (r.allowed) {
        log.push(t);
        expect(r.remaining).toBe(25 - inWindow.length - 1);
      } else expect(r.resetAt).toBe(Math.ceil((inWindow[0] + 1000) / 1000));
      if (log.length > 100) log.splice(0, log.length - 100);
    }
  });
});

describe('per-key limit over HTTP', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app.close());

  it('the eleventh request within a second on a Free key gets 429 with Retry-After', async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, () => createKey(app, 'Free')));
    const { codes, last } = await inOneSecond(async (n) => {
      const codes: number[] = [];
      let last;
      for (let i = 0; i < 11; i++) {
        last = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: keys[n].headers });
        codes.push(last.statusCode);
        if (i < 10) {
          expect(last.headers['x-ratelimit-limit']).toBe('10');
          expect(Number(last.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 1);
          if (last.statusCode === 200) expect(last.headers['x-ratelimit-remaining']).toBe(String(9 - i));
        }
      }
      return { codes, last };
    });
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
    expect(last!.statusCode).toBe(429);
    expect(last!.json()).toEqual({ error: 'rate_limited', details: expect.stringContaining('10 requests per second') });
    expect(Number(last!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last!.headers['x-ratelimit-retry-after']).toBe(last!.headers['retry-after']);
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    expect(last!.headers['x-response-time']).toMatch(/^\d+\.\d+$/);
  });

  it('limits keys independently, and a Starter key gets 100 per second', async () => {
    const a = await createKey(app, 'Free');
    const b = await createKey(app, 'Starter');
    for (let i = 0; i < 10; i++) await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: a.headers });
    const r = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: b.headers });
    expect(r.statusCode).toBe(200);
    expect(r.headers['x-ratelimit-limit']).toBe('100');
  });
});

describe('per-IP limit on unauthenticated routes', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { ipRateLimit: 3 } });
  });
  afterAll(() => app.close());

  it('refuses the fourth public request in a second from one address, not from another', async () => {
    const codes = await inOneSecond(async (n) => {
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await app.inject({ method: 'GET', url: '/api/v1/auth/nonce', remoteAddress: `127.0.9.${n + 1}` })).statusCode);
      return codes;
    });
    expect(codes).toEqual([200, 200, 200, 429]);
    const other = await app.inject({ method: 'GET', url: '/api/v1/auth/nonce', remoteAddress: '127.1.2.3' });
    expect(other.statusCode).toBe(200);
    // health is never limited (load balancers poll it)
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});

describe.skipIf(!redisUrl() || !usingPostgres())('two instances on one Redis share one limit', () => {
  it('a Free key gets ten requests per second in total across both instances', async () => {
    const prefix = `credence-test:shared-${Date.now()}:`;
    const secrets = {};
    const db = await testDatabase();
    const a = await createTestApp({ db, secrets, config: { redisPrefix: prefix } });
    const b = await createTestApp({ db: await secondConnection(db), secrets, config: { redisPrefix: prefix } });
    try {
      const keys = await Promise.all(Array.from({ length: 6 }, () => createKey(a, 'Free')));
      const codes = await inOneSecond(async (n) => {
        const codes: number[] = [];
        for (let i = 0; i < 12; i++) {
          const inst = i % 2 === 0 ? a : b;
          codes.push((await inst.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: keys[n].headers })).statusCode);
        }
        return codes;
      });
      expect(codes.filter((c) => c === 200)).toHaveLength(10);
      expect(codes.filter((c) => c === 429)).toHaveLength(2);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
