// Two instances of one deployment (one PostgreSQL, one Redis), configured as the README says: delivery
// workers on both share the outbox and send each message exactly once, also when one is killed (kill -9)
// half-way; a hub client on B hears a change made on A; and an instance holding another key refuses to start.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signalR from '@microsoft/signalr';
import { createKey, createTestApp, eventually, randomAddress, redisUrl } from '../../../test/helpers/app.js';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { startReceiver } from '../../../test/helpers/receiver.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { databaseUrlOf, secondConnection, usingPostgres } from '../../../test/helpers/db.js';
import { deploymentSettings, drained } from '../../../test/helpers/deployment.js';
import { toChecksum } from '../../platform/http/address.js';
import type { Db } from '../../platform/db/types.js';
import type { App } from '../../platform/http/types.js';

const enabled = usingPostgres() && !!redisUrl();
const deployment = deploymentSettings();
const schedule = [0.2, 0.2, 0.2, 0.2, 0.2];
let dbA: Db;
let a: App;
let b: App;
const extra: App[] = [];

beforeAll(async () => {
  if (!enabled) return;
  const [first, second] = (await sharedPostgresDatabase(2))!;
  dbA = first;
  // Each instance generates its own data-dir secrets (separate `secrets`); only the settings are shared.
  const config = { ...deployment.config, webhookRetrySchedule: schedule, webhookLeaseSeconds: 15 };
  a = await createTestApp({ db: first, config });
  b = await createTestApp({ db: second, config });
});
afterAll(async () => {
  for (const x of [a, b, ...extra]) await x?.close();
});

/** Each message's first attempt fails for every 7th message: retried once, never exhausted by chance. */
function flakyReceiver(delayMs = 0) {
  const seen = new Map<string, number>();
  return startReceiver((r) => {
    const id = String(r.headers['webhook-id']);
    if (!seen.has(id)) seen.set(id, seen.size);
    const first = !rxSuccess(id);
    const fail = first && seen.get(id)! % 7 === 3 && !failedOnce.has(id);
    if (fail) failedOnce.add(id);
    else ok.set(id, (ok.get(id) ?? 0) + 1);
    return { status: fail ? 500 : 200, delayMs };
  });
}
const failedOnce = new Set<string>();
const ok = new Map<string, number>();
const rxSuccess = (id: string) => ok.has(id);

async function hooksOn(app: App, url: string, n: number): Promise<string[]> {
  const key = await createKey(app, 'Enterprise');
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url: `${url}?h=${i}` } });
    expect(res.statusCode).toBe(201);
    ids.push(res.json().id);
  }
  return ids;
}

const undelivered = (db: Db, hooks: string[]) => async () => {
  const [r] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status <> 'delivered' AND subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
    [JSON.stringify(hooks)],
  );
  return r.n;
};

describe.skipIf(!enabled)('two instances configured as the README says (PostgreSQL + Redis)', () => {
  it('deliver 200 of 200 events exactly once between them', async () => {
    ok.clear();
    failedOnce.clear();
    const rx = await flakyReceiver();
    try {
      const hooks = await hooksOn(a, rx.url, 5);
      // changes made on both instances; both workers are woken by each (through Redis) and race for the rows
      const n = 40;
      await Promise.all(Array.from({ length: n }, (_, i) => emitScoreChange(i % 2 ? a : b, scoreChange(randomAddress(), { newScore: i }))));
      await drained(undelivered(a.ctx.db, hooks));
      expect(ok.size).toBe(n * hooks.length);
      expect([...ok.values()].every((v) => v === 1)).toBe(true);
      expect(failedOnce.size).toBeGreaterThan(0);
      // every request the receiver saw is one recorded attempt (no send went unrecorded)
      const [{ attempts }] = await a.ctx.db.query<{ attempts: number }>('SELECT count(*)::int AS attempts FROM webhook_attempts');
      expect(attempts).toBe(rx.received.length);
    } finally {
      await rx.close();
    }
  });

  it('deliver all 200 when one instance is killed (SIGKILL) half-way; the other takes over its claimed rows', async () => {
    ok.clear();
    failedOnce.clear();
    const rx = await flakyReceiver(100);
    const url = databaseUrlOf(dbA)!;
    let child: ChildProcess | null = null;
    let paused = false;
    try {
      // Instance B as a real process started like `npm start` (workers only), with the README's settings.
      child = spawn(process.execPath, ['bin/credence.mjs', 'serve'], {
        cwd: path.resolve(import.meta.dirname, '../../..'),
        env: {
          ...process.env,
          ...deployment.env,
          DATABASE_URL: url,
          REDIS_URL: redisUrl()!,
          CREDENCE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credence-b-')),
          CREDENCE_ROLES: 'workers',
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'info',
          CREDENCE_WEBHOOK_ALLOW_PRIVATE: 'true',
          CREDENCE_WEBHOOK_RETRY_SCHEDULE: schedule.join(','),
          CREDENCE_WEBHOOK_LEASE_SECONDS: '15',
          CREDENCE_PROVER_WARMUP: 'false',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (c) => (out += c));
      child.stderr!.on('data', (c) => (out += c));
      await eventually(() => /listening/i.test(out) || child!.exitCode !== null, { timeoutMs: 120_000 });
      expect(child.exitCode, out).toBeNull();

      // Only B delivers at first: A here runs the API without workers, and the suite's two in-process instances
      // stop theirs for this test (restarted below), so what B claimed can only come back through its lease.
      for (const w of [...a.ctx.workers, ...b.ctx.workers]) await w.stop();
      paused = true;
      const api = await createTestApp({ db: await secondConnection(dbA), config: { ...deployment.config, roles: ['api'] } });
      extra.push(api);
      const hooks = await hooksOn(api, rx.url, 5);
      await Promise.all(Array.from({ length: 40 }, () => emitScoreChange(api, scoreChange(randomAddress()))));
      await eventually(() => rx.received.length >= 80, { timeoutMs: 120_000 });
      child.kill('SIGKILL');
      await eventually(() => child!.exitCode !== null || child!.signalCode !== null);
      const atKill = rx.received.length;
      expect(atKill).toBeLessThan(200);
      // rows B had claimed (lease running) and not finished when it died: the survivor must deliver these
      const held = await api.ctx.db.query<{ id: string }>(
        `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND claim_token IS NOT NULL AND next_attempt_at > now()
           AND subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
        [JSON.stringify(hooks)],
      );
      expect(held.length).toBeGreaterThan(0);

      // The surviving instance's workers take over: rows B held come back when their lease (15 s) runs out.
      const survivor = await createTestApp({
        db: await secondConnection(dbA),
        config: { ...deployment.config, webhookRetrySchedule: schedule, webhookLeaseSeconds: 15 },
      });
      extra.push(survivor);
      await drained(undelivered(api.ctx.db, hooks));
      expect(ok.size).toBe(200);
      // Exactly once per event in the record; at the receiver, only a send B had in flight when it died may
      // repeat (at-least-once), with the same webhook-id so the receiver can drop it.
      const [{ delivered }] = await api.ctx.db.query<{ delivered: number }>(
        `SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE status = 'delivered' AND subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
        [JSON.stringify(hooks)],
      );
      expect(delivered).toBe(200);
      const [{ n: heldDelivered }] = await api.ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered' AND id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
        [JSON.stringify(held.map((r) => r.id))],
      );
      expect(heldDelivered).toBe(held.length);
      const repeats = [...ok.values()].filter((v) => v > 1);
      expect(repeats.every((v) => v === 2)).toBe(true);
      expect(repeats.length).toBeLessThanOrEqual(32); // B's worker concurrency
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      if (paused) for (const w of [...a.ctx.workers, ...b.ctx.workers]) await w.start();
      await rx.close();
    }
  }, 600_000);

  it('a hub client negotiating on A and connected to B (official client, no sticky sessions) hears a change made on A', async () => {
    await a.listen({ port: 0, host: '127.0.0.1' });
    await b.listen({ port: 0, host: '127.0.0.1' });
    const portA = (a.server.address() as { port: number }).port;
    const portB = (b.server.address() as { port: number }).port;
    const { default: WebSocket } = await import('ws');
    let wsUrl = '';
    // The load balancer sends negotiate to A and the WebSocket to B.
    class ToB extends WebSocket {
      constructor(u: string | URL, protocols?: string | string[], opts?: object) {
        wsUrl = String(u).replace(`:${portA}/`, `:${portB}/`);
        super(wsUrl, protocols, opts);
      }
    }
    const c = new signalR.HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${portA}/hubs/scores`, {
        transport: signalR.HttpTransportType.WebSockets,
        WebSocket: ToB,
      } as unknown as signalR.IHttpConnectionOptions)
      .configureLogging(signalR.LogLevel.None)
      .build();
    const got: { address: string; newScore: number }[] = [];
    c.on('ScoreUpdated', (p) => got.push(p));
    await c.start();
    try {
      expect(wsUrl).toContain(`:${portB}/hubs/scores?id=`);
      const addr = randomAddress();
      await c.invoke('SubscribeToAddress', addr);
      await emitScoreChange(a, scoreChange(addr, { newScore: 777 }));
      await eventually(() => got.length === 1, { timeoutMs: 30_000 });
      expect(got[0]).toMatchObject({ address: toChecksum(addr), newScore: 777 });
    } finally {
      await c.stop();
    }
  });

  it('an instance started with another encryption key (or only the JWT secret shared) refuses to start, naming the setting', async () => {
    const other = { ...deployment.config, encryptionKey: `0x${'ab'.repeat(32)}` };
    await expect(createTestApp({ db: await secondConnection(dbA), config: other })).rejects.toThrow(/CREDENCE_ENCRYPTION_KEY differs/);
    // The setup: only CREDENCE_JWT_SECRET shared, every other key generated per data dir.
    await expect(
      createTestApp({
        db: await secondConnection(dbA),
        config: { jwtSecret: deployment.config.jwtSecret, redisPrefix: deployment.config.redisPrefix },
      }),
    ).rejects.toThrow(/CREDENCE_ENCRYPTION_KEY.*differ/);
  });
});
