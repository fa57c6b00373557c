// A restart loses no delivery: due retries, rows claimed by a worker that died, and sends cut short by a
// shutdown are all sent by the next instance on the same database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import type { Config } from '../../platform/config.js';
import type { Db } from '../../platform/db/types.js';
import type { App } from '../../platform/http/types.js';
import { createOutboxRepo } from './outbox-repo.js';

let db: Db;
let shared: Db;
const secrets: Record<string, string> = {};
const receivers: Receiver[] = [];
const apps: App[] = [];

beforeAll(async () => {
  db = await testDatabase();
  // Each app closes its database on close; this one outlives them (one database, successive instances).
  shared = { ...db, close: async () => undefined };
});
afterAll(async () => {
  for (const a of apps) await a.close().catch(() => undefined);
  await Promise.all(receivers.map((r) => r.close()));
  await db?.close();
});

async function instance(config: Partial<Config>) {
  const app = await createTestApp({ db: shared, secrets, config });
  apps.push(app);
  return app;
}

async function setup(app: App, rx: Receiver) {
  const key = await createKey(app, 'Starter');
  const addr = randomAddress();
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: key.headers,
    payload: { url: rx.url, walletAddress: addr },
  });
  expect(res.statusCode).toBe(201);
  return { key, addr, hook: res.json() as { id: string; secret: string } };
}

describe('restart', () => {
  it('a retry that comes due after a restart is sent by the new instance', async () => {
    const rx = await startReceiver((_r, i) => ({ status: i === 0 ? 500 : 200 }));
    receivers.push(rx);
    const first = await instance({ webhookRetrySchedule: [1] });
    const { key, addr, hook } = await setup(first, rx);
    await emitScoreChange(first, scoreChange(addr));
    await eventually(async () => {
      const d = (await first.inject({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries`, headers: key.headers })).json()
        .deliveries[0];
      return d?.attempts.length === 1;
    });
    await first.close();
    expect(rx.received).toHaveLength(1);

    const second = await instance({ webhookRetrySchedule: [1] });
    await eventually(() => rx.received.length === 2);
    const got = rx.received[1];
    const headers = Object.fromEntries(['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(got.headers[h])]));
    expect(new Webhook(hook.secret).verify(got.body, headers)).toMatchObject({ event: 'score.updated' });
    const d = await eventually(async () => {
      const x = (await second.inject({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries`, headers: key.headers })).json()
        .deliveries[0];
      return x?.status === 'delivered' && x;
    });
    expect(d.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    await second.close();
  });

  it('a row claimed by a worker that died is sent once its lease runs out', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const apiOnly = await instance({ roles: ['api'] });
    const { addr } = await setup(apiOnly, rx);
    await emitScoreChange(apiOnly, scoreChange(addr));
    // The "dead" worker: claims with a 1 s lease and never reports back.
    const claimed = await createOutboxRepo(shared).claim(100, 1);
    expect(claimed.length).toBeGreaterThanOrEqual(1);
    const started = Date.now();
    await apiOnly.close();

    const next = await instance({});
    await eventually(() => rx.received.length === 1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    await next.close();
  });

  it('a send cut short by shutdown is handed back and sent by the next instance', async () => {
    const rx = await startReceiver((_r, i) => (i === 0 ? { status: 200, delayMs: 8_000 } : { status: 200 }));
    receivers.push(rx);
    const first = await instance({});
    const { key, addr, hook } = await setup(first, rx);
    await emitScoreChange(first, scoreChange(addr));
    await eventually(() => rx.received.length === 1);
    const t = Date.now();
    await first.close();
    expect(Date.now() - t).toBeLessThan(5_000);

    const second = await instance({});
    await eventually(() => rx.received.length === 2);
    expect(rx.received[1].headers['webhook-id']).toBe(rx.received[0].headers['webhook-id']);
    const d = await eventually(async () => {
      const x = (await second.inject({ method: 'GET', url: `/api/v1/webhooks/${hook.id}/deliveries`, headers: key.headers })).json()
        .deliveries[0];
      return x?.status === 'delivered' && x;
    });
    expect(d.attempts).toHaveLength(1);
    await second.close();
  });
});
