// Webhooks that survive outages: a failing endpoint gets one probe at a time along its retry schedule (a burst
// during a short outage is not counted per queued event), an inactive webhook keeps its events, and the
// recovery routes (enable, replay, test) bring them through.
import { describe, expect, it } from 'vitest';
import { createKey, eventually, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { webhooksTestApp } from './test-helpers.js';

// A short schedule stands in for the real one (5 s, 5 min, ...): 10 failures along it take about 10 s.
const wh = webhooksTestApp(1);
const { receiver, subscribe } = wh;
const getHook = async (key: TestKey, id: string) =>
  (await wh.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}`, headers: key.headers })).json();
const deliveries = async (key: TestKey, id: string) =>
  (await wh.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries?limit=100`, headers: key.headers })).json();
const post = (key: TestKey, url: string, payload?: object) =>
  wh.app.inject({ method: 'POST', url, headers: key.headers, ...(payload ? { payload } : {}) });

describe('webhooks through outages', () => {
  it('a 3 s receiver outage during a burst of 12 events: 12 delivered, subscription active', async () => {
    let downUntil = 0;
    const rx = await receiver(() => {
      if (downUntil === 0) downUntil = Date.now() + 3000; // the outage starts with the first request
      return { status: Date.now() < downUntil ? 503 : 200 };
    });
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, rx.url, addr);
    await Promise.all(Array.from({ length: 12 }, (_, i) => emitScoreChange(wh.app, scoreChange(addr, { newScore: 300 + i }))));
    // Deadline generous for a loaded machine; the schedule alone needs ~3-4 s.
    await eventually(
      async () => (await deliveries(key, hook.id)).deliveries.filter((d: { status: string }) => d.status === 'delivered').length === 12,
      {
        timeoutMs: 90_000,
        intervalMs: 200,
      },
    );
    const h = await getHook(key, hook.id);
    expect(h).toMatchObject({ isActive: true, consecutiveFailures: 0 });
    const ok = rx.received.filter((r) => r.at > 0 && JSON.parse(r.body).event === 'score.updated');
    expect(new Set(ok.map((r) => r.headers['webhook-id'])).size).toBe(12);
    // After the first parallel wave (at most the 12 events, sent before any failure was known) the endpoint
    // got one probe per schedule step (~1 s) during the 3 s outage, then the 12 successes.
    expect(rx.received.length).toBeLessThanOrEqual(12 + 12 + 5);
  });

  it('a webhook disabled by a sustained outage keeps its events; enable sends them, replay re-sends failed ones, test sends a signed test event', async () => {
    let up = false;
    const rx = await receiver(() => ({ status: up ? 200 : 500 }));
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, rx.url, addr);
    await emitScoreChange(wh.app, scoreChange(addr, { newScore: 100 }));
    await emitScoreChange(wh.app, scoreChange(addr, { newScore: 101 }));
    const off = await eventually(
      async () => {
        const w = await getHook(key, hook.id);
        return w.isActive === false && w;
      },
      { timeoutMs: 120_000, intervalMs: 200 },
    );
    expect(off.consecutiveFailures).toBe(10);
    // one probe at a time: 10 counted failures; only the first wave (both events, before any failure was
    // known) went in parallel
    const before = rx.received.length;
    expect(before).toBeLessThanOrEqual(11);
    const kept = (await deliveries(key, hook.id)).deliveries;
    expect(kept).toHaveLength(2);
    expect(kept.every((d: { status: string }) => d.status === 'pending')).toBe(true);

    // test event on an inactive webhook: queued, sent once it is enabled
    const t = await post(key, `/api/v1/webhooks/${hook.id}/test`);
    expect(t.statusCode).toBe(202);
    expect(t.json()).toMatchObject({ event: 'webhook.test', status: 'pending' });

    up = true;
    const en = await post(key, `/api/v1/webhooks/${hook.id}/enable`);
    expect(en.statusCode).toBe(200);
    expect(en.json()).toMatchObject({ isActive: true, consecutiveFailures: 0 });
    await eventually(async () => (await deliveries(key, hook.id)).deliveries.every((d: { status: string }) => d.status === 'delivered'), {
      timeoutMs: 60_000,
    });
    const events = rx.received.slice(before).map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event).sort()).toEqual(['score.updated', 'score.updated', 'webhook.test']);
    expect(events.find((e) => e.event === 'webhook.test').data.webhookId).toBe(hook.id);

    // replay: nothing failed since, so nothing is queued again; a failed row (schedule exhausted) is
    await wh.app.ctx.db.query(`UPDATE webhook_deliveries SET status = 'failed' WHERE id = $1`, [kept[0].id]);
    const since = new Date(Date.now() - 3600_000).toISOString();
    const rp = await post(key, `/api/v1/webhooks/${hook.id}/replay`, { since });
    expect(rp.statusCode).toBe(202);
    expect(rp.json().requeued).toBe(1);
    await eventually(() => rx.received.length === before + 4, { timeoutMs: 60_000 });
    expect(rx.received[before + 3].headers['webhook-id']).toBe(kept[0].id);
  }, 300_000);

  it('validates the recovery routes and keeps them to the owning key', async () => {
    const key = await createKey(wh.app, 'Starter');
    const other = await createKey(wh.app, 'Starter');
    const rx = await receiver();
    const hook = await subscribe(key, rx.url);
    expect((await post(other, `/api/v1/webhooks/${hook.id}/enable`)).statusCode).toBe(404);
    expect((await post(other, `/api/v1/webhooks/${hook.id}/test`)).statusCode).toBe(404);
    expect((await post(other, `/api/v1/webhooks/${hook.id}/replay`, { since: new Date().toISOString() })).statusCode).toBe(404);
    const bad = await post(key, `/api/v1/webhooks/${hook.id}/replay`, { since: 'yesterday' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'since' }] });
    const future = await post(key, `/api/v1/webhooks/${hook.id}/replay`, { since: new Date(Date.now() + 86_400_000).toISOString() });
    expect(future.statusCode).toBe(400);
    expect((await wh.app.inject({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/enable` })).statusCode).toBe(401);
    expect((await post(key, '/api/v1/webhooks/not-a-uuid/test')).statusCode).toBe(400);
  });
});
