// Two instances of one deployment (one PostgreSQL, one Redis): delivery workers on both share the outbox and
// send each message exactly once; a hub client on instance B hears a change made on instance A.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signalR from '@microsoft/signalr';
import { createKey, createTestApp, eventually, randomAddress, redisUrl } from '../../../test/helpers/app.js';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { usingPostgres } from '../../../test/helpers/db.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';

const enabled = usingPostgres() && !!redisUrl();
let a: App;
let b: App;
let rx: Receiver;

beforeAll(async () => {
  if (!enabled) return;
  const [dbA, dbB] = (await sharedPostgresDatabase(2))!;
  const secrets: Record<string, string> = {};
  const config = { redisPrefix: `credence-test:${randomBytes(6).toString('hex')}:`, webhookRetrySchedule: [0.05, 0.05, 0.05] };
  a = await createTestApp({ db: dbA, secrets, config });
  b = await createTestApp({ db: dbB, secrets, config });
  rx = await startReceiver((_r, i) => ({ status: i % 7 === 3 ? 500 : 200 }));
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await rx?.close();
});

describe.skipIf(!enabled)('two instances (PostgreSQL + Redis)', () => {
  it('deliver every message exactly once between them', async () => {
    const key = await createKey(a, 'Enterprise');
    const hooks: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await a.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url: `${rx.url}?h=${i}` } });
      expect(res.statusCode).toBe(201);
      hooks.push(res.json().id);
    }
    // changes made on both instances; both workers are woken by each (through Redis) and race for the rows
    const n = 40;
    await Promise.all(Array.from({ length: n }, (_, i) => emitScoreChange(i % 2 ? a : b, scoreChange(randomAddress(), { newScore: i }))));
    const [{ count }] = await a.ctx.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM webhook_deliveries WHERE subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
      [JSON.stringify(hooks)],
    );
    expect(count).toBe(n * hooks.length);
    await eventually(async () => {
      const [r] = await a.ctx.db.query<{ pending: number }>(
        `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status <> 'delivered' AND subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
        [JSON.stringify(hooks)],
      );
      return r.pending === 0;
    }, { timeoutMs: 30_000 });
    // Successful requests per (message id): exactly one each; failed ones were retried, not duplicated.
    const ok = new Map<string, number>();
    rx.received.forEach((r, i) => {
      if (i % 7 === 3) return;
      const id = String(r.headers['webhook-id']);
      ok.set(id, (ok.get(id) ?? 0) + 1);
    });
    expect(ok.size).toBe(n * hooks.length);
    expect([...ok.values()].every((v) => v === 1)).toBe(true);
    // every request the receiver saw is one recorded attempt (no send went unrecorded)
    const attempts = await a.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_attempts');
    expect(attempts[0].n).toBe(rx.received.length);
  });

  it('a hub client on instance B hears a change made on instance A', async () => {
    await b.listen({ port: 0, host: '127.0.0.1' });
    const port = (b.server.address() as { port: number }).port;
    const c = new signalR.HubConnectionBuilder().withUrl(`http://127.0.0.1:${port}/hubs/scores`).configureLogging(signalR.LogLevel.None).build();
    const got: { address: string; newScore: number }[] = [];
    c.on('ScoreUpdated', (p) => got.push(p));
    await c.start();
    try {
      const addr = randomAddress();
      await c.invoke('SubscribeToAddress', addr);
      await emitScoreChange(a, scoreChange(addr, { newScore: 777 }));
      await eventually(() => got.length === 1);
      expect(got[0]).toMatchObject({ address: toChecksum(addr), newScore: 777 });
    } finally {
      await c.stop();
    }
  });

  it('a token from negotiate on A opens the WebSocket on B (no sticky sessions)', async () => {
    const neg = await a.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1' });
    const { connectionToken } = neg.json();
    if (!b.server.listening) await b.listen({ port: 0, host: '127.0.0.1' });
    const port = (b.server.address() as { port: number }).port;
    const { default: WebSocket } = await import('ws');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/hubs/scores?id=${encodeURIComponent(connectionToken)}`);
    await new Promise((r, j) => {
      ws.on('open', r);
      ws.on('unexpected-response', () => j(new Error('refused')));
    });
    ws.close();
  });
});
