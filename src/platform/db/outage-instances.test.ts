// Two instances of one deployment (`credence serve` processes, as compose runs them) reach PostgreSQL through a
// killable TCP proxy. Their connections are cut while they serve reads and writes, run a batch job and
// hold a webhook delivery in flight: at the network (the proxy closes every established connection with no word
// from the server, as a failover or a dropped network path does), by the server (pg_terminate_backend of every
// session of the database), idle, and for a while (connections refused). Neither process exits; every answer is
// the expected one or 503 `unavailable` with Retry-After; afterwards both answer as before, with no restart, and
// the work in flight is done exactly once. PostgreSQL only (the PostgreSQL run of `npm test`).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, redisUrl } from '../../../test/helpers/app.js';
import { databaseUrlOf, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import { deploymentSettings } from '../../../test/helpers/deployment.js';
import { createKeyOver, signInOver, startServer, type ServerProcess } from '../../../test/helpers/server-process.js';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.js';

const enabled = usingPostgres();
const address = () => '0x' + randomBytes(20).toString('hex');

/** A webhook receiver that holds each answer until the test lets it go (a delivery in flight, on demand). */
async function holdingReceiver() {
  const got: { id: string; release: () => void }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => got.push({ id: String(req.headers['webhook-id']), release: () => res.writeHead(200).end('ok') }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    got,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe.skipIf(!enabled)('two instances through a killable PostgreSQL proxy', () => {
  let proxy: TcpProxy;
  let admin: pg.Client;
  let dbName: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let key: string;
  const wallet = Wallet.createRandom();

  beforeAll(async () => {
    const own = await testDatabase();
    const url = databaseUrlOf(own)!;
    await own.close();
    dbName = new URL(url).pathname.slice(1);
    const u = new URL(url);
    proxy = await startTcpProxy(u.hostname, Number(u.port) || 5432);
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const { env } = deploymentSettings();
    const shared = {
      ...env,
      DATABASE_URL: proxy.url(url),
      ...(redisUrl() ? { REDIS_URL: redisUrl()! } : {}),
      CREDENCE_SANCTIONS_SNAPSHOT: 'false',
      CREDENCE_IP_RATE_LIMIT: '100000',
      CREDENCE_WEBHOOK_ALLOW_PRIVATE: 'true',
      CREDENCE_WEBHOOK_RETRY_SCHEDULE: '0.5,0.5,0.5',
    };
    [a, b] = await Promise.all([startServer({ env: shared, admin: wallet }), startServer({ env: shared, admin: wallet })]);
    key = await createKeyOver(a.url, await signInOver(a.url, wallet), 'Enterprise');
  });
  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await admin?.end();
    await proxy?.close();
  });

  const alive = () => {
    for (const s of [a, b]) expect(s.child.exitCode, s.output().slice(-3000)).toBeNull();
  };
  const terminateAll = async () =>
    (await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]))
      .rowCount ?? 0;
  const sessions = async () =>
    (
      await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [
        dbName,
      ])
    ).rows[0].n;

  async function call(base: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    const text = await res.text();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text, json: () => JSON.parse(text) };
  }
  type Res = Awaited<ReturnType<typeof call>>;

  /** The expected status, or 503 `unavailable` with Retry-After: nothing else (no 500, no hang: the fetch has a bound). */
  const outcomes = { ok: 0, unavailable: 0 };
  function expectOkOrUnavailable(label: string, r: Res, status: number) {
    if (r.status === 503) {
      expect(r.json().error, `${label}: ${r.text}`).toBe('unavailable');
      expect(r.retryAfter, label).toBe('5');
      outcomes.unavailable++;
      return false;
    }
    expect(r.status, `${label}: ${r.text.slice(0, 300)}`).toBe(status);
    outcomes.ok++;
    return true;
  }

  const cached = address();
  async function round(base: string) {
    expectOkOrUnavailable('GET /reputation/{new}', await call(base, 'GET', `/api/v1/reputation/${address()}/OVERALL`), 200);
    expectOkOrUnavailable('GET /reputation/{cached}', await call(base, 'GET', `/api/v1/reputation/${cached}`), 200);
    expectOkOrUnavailable('GET /webhooks', await call(base, 'GET', '/api/v1/webhooks'), 200);
    const created = await call(base, 'POST', '/api/v1/webhooks', { url: 'http://127.0.0.1:9/hook' });
    if (expectOkOrUnavailable('POST /webhooks', created, 201)) {
      const id = created.json().id as string;
      // The delete is retried until it lands (a 50-subscription cap must not fill with this test's leftovers). A
      // 503 may hide a delete that was done (the connection cut after the server committed, before it answered):
      // the retry then finds nothing to delete, as any client retrying a DELETE may.
      let unsure = false;
      await eventually(async () => {
        const r = await call(base, 'DELETE', `/api/v1/webhooks/${id}`);
        if (unsure && r.status === 404) return true;
        unsure = r.status === 503;
        return expectOkOrUnavailable('DELETE /webhooks/{id}', r, 204);
      });
    }
    expectOkOrUnavailable('GET /billing/usage', await call(base, 'GET', '/api/v1/billing/usage'), 200);
  }

  /** Both instances answer every call as usual again. */
  async function recovered() {
    for (const s of [a, b]) {
      await eventually(async () => (await fetch(`${s.url}/health/ready`)).status === 200, { timeoutMs: 20_000 });
      const before = outcomes.unavailable;
      await eventually(
        async () => {
          const n = outcomes.unavailable;
          await round(s.url);
          return outcomes.unavailable === n;
        },
        { timeoutMs: 20_000 },
      );
      expect(outcomes.unavailable).toBeGreaterThanOrEqual(before);
    }
    alive();
  }

  it('connections cut during reads and writes on both instances (proxy drop, pg_terminate_backend): the expected answer or 503, never a 500 or an exit; then all answers as usual', async () => {
    let stop = false;
    const lanes = Promise.all(
      [a, b].map(async (s) => {
        while (!stop) await round(s.url);
      }),
    );
    try {
      for (const cut of [() => proxy.drop(), terminateAll, () => proxy.drop(), terminateAll]) {
        const before = outcomes.ok;
        await eventually(() => outcomes.ok > before + 8, { timeoutMs: 20_000 });
        expect(await cut()).toBeGreaterThan(0);
      }
      const before = outcomes.ok;
      await eventually(() => outcomes.ok > before + 8, { timeoutMs: 20_000 });
    } finally {
      stop = true;
      await lanes;
    }
    await recovered();
    // What an operator sees: the cut connections counted, and said once in the log.
    const metrics = await (await fetch(`${a.url}/metrics`)).text();
    const lost = Number(/^credence_db_connections_lost_total (\d+)/m.exec(metrics)?.[1]);
    expect(lost).toBeGreaterThan(0);
    expect(metrics).toMatch(/^credence_db_pool_connections\{state="open"\} \d+/m);
    expect(a.output()).toMatch(/PostgreSQL connection lost/);
  });

  it('idle connections cut at the network or terminated by the server: the next calls on both instances are answered as usual', async () => {
    for (const cut of [() => proxy.drop(), terminateAll]) {
      await cut();
      // every session of the database is gone on the server's side (so the instances' sockets are closed too)
      await eventually(async () => (await sessions()) === 0 || null, { timeoutMs: 10_000, intervalMs: 10 });
      for (const s of [a, b]) {
        const r = await call(s.url, 'GET', `/api/v1/reputation/${address()}/OVERALL`);
        expect(r.status, r.text).toBe(200);
        expect((await call(s.url, 'GET', '/api/v1/webhooks')).status).toBe(200);
      }
    }
    alive();
  });

  it('a batch job and a webhook delivery in flight through cuts and a database away for a while: both done exactly once after it returns', async () => {
    const receiver = await holdingReceiver();
    try {
      const hook = await call(a.url, 'POST', '/api/v1/webhooks', { url: receiver.url });
      expect(hook.status, hook.text).toBe(201);
      const hookId = hook.json().id as string;
      const addresses = Array.from({ length: 1500 }, address);
      const job = await call(a.url, 'POST', '/api/v1/reputation/batch-jobs', { addresses, category: 'OVERALL' });
      expect(job.status, job.text).toBe(202);
      const jobId = job.json().id as string;
      const jobRow = async () =>
        (
          await admin.query<{ status: string; processed: number; attempts: number }>(
            'SELECT status, processed, attempts FROM batch_jobs WHERE id = $1',
            [jobId],
          )
        ).rows[0];

      // The job under way and a delivery in flight (the receiver has it and holds its answer)...
      await eventually(async () => (await jobRow()).processed > 0, { timeoutMs: 30_000 });
      const test = await call(b.url, 'POST', `/api/v1/webhooks/${hookId}/test`);
      expect(test.status, test.text).toBe(202);
      const deliveryId = test.json().deliveryId as string;
      await eventually(() => receiver.got.length === 1, { timeoutMs: 20_000 });
      // ...cut at the network, then by the server, then the database goes away while the answer comes back.
      expect(proxy.drop()).toBeGreaterThan(0);
      const cutAt = (await jobRow()).processed;
      await eventually(async () => (await jobRow()).processed > cutAt, { timeoutMs: 30_000 });
      expect(await terminateAll()).toBeGreaterThan(0);
      const during = (await jobRow()).processed;
      expect(during).toBeLessThan(addresses.length);
      await proxy.down();
      receiver.got[0].release();
      // Away: both instances answer 503 (readiness too), and stay up.
      for (const s of [a, b]) {
        const r = await call(s.url, 'GET', '/api/v1/webhooks');
        expect(r.status, r.text).toBe(503);
        expectOkOrUnavailable('GET /webhooks while down', r, 503);
        const ready = await fetch(`${s.url}/health/ready`);
        expect(ready.status).toBe(503);
        expect(ready.headers.get('retry-after')).toBe('5');
        expect((await fetch(`${s.url}/health`)).status).toBe(200);
      }
      alive();
      await proxy.up();

      // Back: the job completes with every address once, in order; the delivery is recorded once, sent once.
      await eventually(async () => (await jobRow()).status === 'completed', { timeoutMs: 40_000 });
      const row = await jobRow();
      expect(row.processed).toBe(addresses.length);
      const results = await fetch(`${a.url}/api/v1/reputation/batch-jobs/${jobId}/results`, { headers: { 'x-api-key': key } });
      expect(results.status).toBe(200);
      const lines = (await results.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { address: string });
      expect(lines.map((l) => l.address.toLowerCase())).toEqual(addresses);
      // the cuts were not the job's fault: no attempt counted for them (each claim counts one until handed back)
      expect(row.attempts).toBeLessThanOrEqual(2);

      const delivery = async () =>
        (
          await admin.query<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_deliveries WHERE id = $1', [
            deliveryId,
          ])
        ).rows[0];
      await eventually(async () => (await delivery()).status === 'delivered', { timeoutMs: 20_000 });
      const tries = await admin.query<{ attempt: number; succeeded: boolean }>(
        'SELECT attempt, succeeded FROM webhook_attempts WHERE delivery_id = $1',
        [deliveryId],
      );
      expect(tries.rows).toEqual([{ attempt: 1, succeeded: true }]);
      expect(receiver.got.map((g) => g.id)).toEqual([deliveryId]);
      await recovered();
    } finally {
      await receiver.close();
    }
  });
});
