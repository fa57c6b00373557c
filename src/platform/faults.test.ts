// Fault tests: the app's Redis or PostgreSQL connection goes through a killable TCP proxy to the real
// local service, and the proxy is killed while requests keep coming. Redis down: every route still answers
// (in-process limits, quota counters and caches), never 5xx, readiness says degraded, and Redis is used again once
// it is back, counts taken meanwhile included. PostgreSQL down (refused or unresponsive): 503 `unavailable` with
// Retry-After, never 500, cached score reads still answered; back to 200 when it returns. No restart anywhere.
// They need the real services: the PostgreSQL + Redis run of `npm test` (skipped on the PGlite-only run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createKey, createTestApp, eventually, randomAddress, redisUrl, signIn, type TestKey } from '../../test/helpers/app.js';
import { databaseUrlOf, secondConnection, testDatabase, usingPostgres } from '../../test/helpers/db.js';
import { deploymentSettings } from '../../test/helpers/deployment.js';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';
import { openPostgres } from './db/index.js';
import type { App } from './http/types.js';
import { monthOf } from './rate-limit/quota.js';

const enabled = usingPostgres() && !!redisUrl();

const target = (url: string, defaultPort: number) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) || defaultPort };
};

type Res = Awaited<ReturnType<App['inject']>>;
const no5xx = (label: string, r: Res) => expect(r.statusCode, `${label}: ${r.statusCode} ${r.body.slice(0, 300)}`).toBeLessThan(500);

describe.skipIf(!enabled)('Redis down and back (through a killable proxy)', () => {
  let proxy: TcpProxy;
  let app: App;
  // a second instance of the same deployment, reaching Redis directly (it never loses it)
  let other: App;
  let direct: Redis;
  let key: TestKey;
  const wallet = randomAddress();
  const counterOf = (k: TestKey) => `${app.ctx.config.redisPrefix}quota:${k.id}:${monthOf(new Date())}`;
  const read = (k: TestKey, address = wallet) =>
    app.inject({ method: 'GET', url: `/api/v1/reputation/${address}/OVERALL`, headers: k.headers });
  const usage = async (k: TestKey) => {
    const r = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: k.headers });
    no5xx('GET /billing/usage', r);
    expect(r.statusCode).toBe(200);
    return r.json().queriesThisMonth as number;
  };
  const ready = () => app.inject({ method: 'GET', url: '/health/ready' });
  const redisStatus = async () => (await ready()).json().checks.redis.status as string;

  beforeAll(async () => {
    const t = target(redisUrl()!, 6379);
    proxy = await startTcpProxy(t.host, t.port);
    direct = new Redis(redisUrl()!);
    const db = await testDatabase();
    const { config } = deploymentSettings();
    app = await createTestApp({ db, config: { ...config, redisUrl: proxy.url(redisUrl()!) } });
    other = await createTestApp({ db: await secondConnection(db), config });
    key = await createKey(app, 'Starter');
  });
  afterAll(async () => {
    await other?.close();
    await app?.close();
    await proxy?.close();
    direct?.disconnect();
  });

  it('serves every route without a 5xx while Redis is down, readiness degraded; uses Redis again once it is back', async () => {
    expect(await redisStatus()).toBe('up');
    // Before the outage: counted in Redis.
    expect((await read(key)).statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(key)))).toBe(1);

    await proxy.down();
    await eventually(async () => (await redisStatus()) === 'down', { timeoutMs: 15_000 });
    const r = await ready();
    expect(r.statusCode).toBe(200);
    expect(r.json().status).toBe('degraded');

    const checks: [string, () => Promise<Res>, number][] = [
      ['GET /health', () => app.inject({ method: 'GET', url: '/health' }), 200],
      ['GET /api/v1/auth/nonce', () => app.inject({ method: 'GET', url: '/api/v1/auth/nonce' }), 200],
      ['GET /api/v1/reputation/{address}/{category}', () => read(key), 200],
      ['GET /api/v1/reputation/{address}/{category} (first read of a wallet)', () => read(key, randomAddress()), 200],
      [
        'GET /api/v1/reputation/{address}',
        () => app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}`, headers: key.headers }),
        200,
      ],
      ['GET /api/v1/billing/usage', () => app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers }), 200],
      ['GET /api/v1/billing/api-keys', () => app.inject({ method: 'GET', url: '/api/v1/billing/api-keys', headers: key.owner.auth }), 200],
      [
        'POST /api/v1/webhooks',
        () => app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url: 'http://127.0.0.1:9/hook' } }),
        201,
      ],
      ['GET /api/v1/webhooks', () => app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: key.headers }), 200],
      ['GET /api/v1/unknown', () => app.inject({ method: 'GET', url: '/api/v1/unknown' }), 404],
    ];
    for (const [label, call, status] of checks) {
      const res = await call();
      no5xx(label, res);
      expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(status);
    }
    // Sign-in (nonce, verify) and a key created by the new user: the POSTs that write.
    const user = await signIn(app);
    const created = await createKey(app, 'Free', user);
    expect((await read(created)).statusCode).toBe(200);
    // The calls of the outage were counted (in-process meanwhile): 1 before + 3 reputation reads on `key`.
    expect(await usage(key)).toBe(4);
    expect(await redisStatus()).toBe('down');

    await proxy.up();
    // Back without a restart: readiness sees Redis, and the counts taken meanwhile reached its counter.
    await eventually(async () => (await redisStatus()) === 'up', { timeoutMs: 15_000 });
    await eventually(async () => Number(await direct.get(counterOf(key))) === 4, { timeoutMs: 10_000 });
    // New calls are counted by Redis again (the shared counter, not the in-process one).
    expect((await read(key)).statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(key)))).toBe(5);
    expect(await usage(key)).toBe(5);
    // A counter changed in Redis by another instance shows here: usage is read from Redis.
    await direct.incrby(counterOf(key), 10);
    expect(await usage(key)).toBe(15);
  });

  const stored = async (k: TestKey, n: number) =>
    eventually(async () => {
      const [row] = await app.ctx.db.query<{ n: number }>(
        'SELECT query_count::int AS n FROM api_key_usage WHERE api_key_id = $1 AND month = $2',
        [k.id, monthOf(new Date())],
      );
      return row?.n === n;
    });

  it('a counter Redis lost during the outage (restarted empty) is seeded from PostgreSQL, not restarted from the missed counts', async () => {
    const k = await createKey(app, 'Starter');
    for (let i = 0; i < 3; i++) expect((await read(k)).statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(k)))).toBe(3);
    // Written behind to PostgreSQL.
    await stored(k, 3);

    await proxy.down();
    await eventually(async () => (await redisStatus()) === 'down', { timeoutMs: 15_000 });
    for (let i = 0; i < 2; i++) expect((await read(k)).statusCode).toBe(200);
    expect(await usage(k)).toBe(5);
    // Redis restarted without its data: this key's counter is gone.
    await direct.del(counterOf(k));

    await proxy.up();
    await eventually(async () => (await redisStatus()) === 'up', { timeoutMs: 15_000 });
    // 3 before + 2 during the outage: the month's count is not reset to the 2 missed ones (nor counted twice).
    expect(await usage(k)).toBe(5);
    expect((await read(k)).statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(k)))).toBe(6);
    await stored(k, 6);
  });

  it('a Redis that goes silent on the connections the app holds does not hold requests: they are answered meanwhile', async () => {
    const k = await createKey(app, 'Starter');
    expect((await read(k)).statusCode).toBe(200);
    proxy.freeze();
    // without a command timeout these would wait for ever (the test's own timeout would fail it)
    for (const [label, call] of [
      ['GET /api/v1/reputation/{address}/{category}', () => read(k)],
      ['GET /api/v1/billing/usage', () => app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: k.headers })],
      ['GET /api/v1/auth/nonce', () => app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })],
    ] as const) {
      const r = await call();
      no5xx(label, r);
      expect(r.statusCode, label).toBe(200);
    }
    await eventually(async () => (await redisStatus()) === 'down', { timeoutMs: 15_000 });
    await proxy.up();
    await eventually(async () => (await redisStatus()) === 'up', { timeoutMs: 15_000 });
    expect((await read(k)).statusCode).toBe(200);
  }, 60_000);

  it('a counter seeded again by another instance during the outage is not given the missed counts twice', async () => {
    const k = await createKey(app, 'Starter');
    for (let i = 0; i < 3; i++) expect((await read(k)).statusCode).toBe(200);
    await stored(k, 3);

    await proxy.down();
    await eventually(async () => (await redisStatus()) === 'down', { timeoutMs: 15_000 });
    for (let i = 0; i < 2; i++) expect((await read(k)).statusCode).toBe(200);
    await stored(k, 5);
    // Redis restarted empty; the other instance (which reaches it) seeds the counter from PostgreSQL: 5, then its call.
    await direct.del(counterOf(k));
    const r = await other.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}/OVERALL`, headers: k.headers });
    expect(r.statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(k)))).toBe(6);

    await proxy.up();
    await eventually(async () => (await redisStatus()) === 'up', { timeoutMs: 15_000 });
    // The seed already held this instance's 2 outage calls: not added again.
    expect(await usage(k)).toBe(6);
    expect((await read(k)).statusCode).toBe(200);
    expect(Number(await direct.get(counterOf(k)))).toBe(7);
    await stored(k, 7);
  });
});

describe.skipIf(!enabled)('PostgreSQL down and back (through a killable proxy)', () => {
  let proxy: TcpProxy;
  let app: App;
  let key: TestKey;
  const cached = randomAddress();
  const read = (address: string) => app.inject({ method: 'GET', url: `/api/v1/reputation/${address}/OVERALL`, headers: key.headers });
  const listWebhooks = () => app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: key.headers });
  const expectUnavailable = (label: string, r: Res) => {
    expect(r.statusCode, `${label}: ${r.body.slice(0, 300)}`).toBe(503);
    const body = r.json();
    expect(body.error).toBe('unavailable');
    expect(typeof body.details).toBe('string');
    expect(r.headers['retry-after']).toBe('5');
  };

  beforeAll(async () => {
    // A fresh test database, reached by the app only through the proxy.
    const own = await testDatabase();
    const url = databaseUrlOf(own)!;
    await own.close();
    const t = target(url, 5432);
    proxy = await startTcpProxy(t.host, t.port);
    // A shorter connection timeout than the default (5 s) keeps the unresponsive-server case quick.
    const db = await openPostgres(proxy.url(url), 5, { connectTimeoutMs: 2_000 });
    app = await createTestApp({ db });
    key = await createKey(app, 'Starter');
  });
  afterAll(async () => {
    await proxy?.up();
    await app?.close();
    await proxy?.close();
  });

  async function outage(kind: 'down' | 'stall') {
    // A key whose quota counter Redis does not have yet (seeded from PostgreSQL at its first use).
    const unused = await createKey(app, 'Starter');
    // Cached before the outage: the wallet's scores are in memory.
    const before = await read(cached);
    expect(before.statusCode).toBe(200);
    expect((await listWebhooks()).statusCode).toBe(200);

    await (kind === 'down' ? proxy.down() : proxy.stall());
    const started = Date.now();
    // A route that needs the database: 503 unavailable, bounded in time (the connection timeout), never 500 or a hang.
    expectUnavailable('GET /api/v1/reputation/{uncached}', await read(randomAddress()));
    expect(Date.now() - started).toBeLessThan(15_000);
    expectUnavailable('GET /api/v1/webhooks', await listWebhooks());
    expectUnavailable(
      'POST /api/v1/webhooks',
      await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url: 'http://127.0.0.1:9/hook' } }),
    );
    // The cached score read is still answered, with the same score.
    const during = await read(cached);
    expect(during.statusCode, during.body).toBe(200);
    expect(during.json().score).toBe(before.json().score);
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().checks.database.status).toBe('down');
    expect(ready.headers['retry-after']).toBe('5');
    // liveness stays up (a restart would not bring the database back); readiness above says it is down
    const live = await app.inject({ method: 'GET', url: '/health' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ status: 'degraded', database: { reachable: false } });
    // Its counter cannot be seeded without the database: 503 (the database's outage), not a Redis outage.
    no5xxBut503(
      'GET /api/v1/reputation/{cached} with a first-used key',
      await app.inject({ method: 'GET', url: `/api/v1/reputation/${cached}/OVERALL`, headers: unused.headers }),
    );
    expect(app.ctx.redisState?.up()).toBe(true);
    no5xxBut503('GET /api/v1/auth/nonce', await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' }));

    await proxy.up();
    // The pool reconnects by itself: no restart.
    await eventually(async () => (await listWebhooks()).statusCode === 200, { timeoutMs: 30_000 });
    const after = await read(randomAddress());
    expect(after.statusCode, after.body).toBe(200);
    const checks = (await app.inject({ method: 'GET', url: '/health/ready' })).json().checks;
    expect(checks.database.status).toBe('up');
    expect(checks.redis.status).toBe('up');
    expect((await app.inject({ method: 'GET', url: `/api/v1/reputation/${cached}/OVERALL`, headers: unused.headers })).statusCode).toBe(
      200,
    );
  }

  const no5xxBut503 = (label: string, r: Res) => {
    expect(r.statusCode, `${label}: ${r.statusCode} ${r.body.slice(0, 300)}`).not.toBe(500);
    if (r.statusCode >= 500) expect(r.statusCode).toBe(503);
  };

  it('refused connections: 503 unavailable with Retry-After, cached reads answered, 200 again when it is back', async () => {
    await outage('down');
  });

  it('an unresponsive server (connections accepted, never answered): 503 within the connection timeout, not a hang', async () => {
    await outage('stall');
  }, 120_000);
});
