import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createKey, eventually, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { toChecksum } from '../../platform/http/address.js';
import { webhooksTestApp } from './test-helpers.js';

const wh = webhooksTestApp(0.05);
const { receiver, subscribe } = wh;

const getHook = async (key: TestKey, id: string) =>
  (await wh.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}`, headers: key.headers })).json();
const deliveries = async (key: TestKey, id: string) =>
  (await wh.app.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, headers: key.headers })).json();

describe('webhook delivery', () => {
  it('POSTs the signed score.updated body, verifiable both ways', async () => {
    const rx = await receiver();
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, rx.url, addr);
    const change = await emitScoreChange(
      wh.app,
      scoreChange(addr, { category: 'DEFI_LENDING', oldScore: null, newScore: 731, confidence: 0.64, tier: 'High' }),
    );

    const got = await eventually(() => rx.received[0]);
    expect(got.headers['content-type']).toBe('application/json');
    const body = JSON.parse(got.body);
    expect(body).toEqual({
      event: 'score.updated',
      timestamp: change.calculatedAt.toISOString(),
      data: {
        walletAddress: toChecksum(addr),
        address: toChecksum(addr),
        category: 'DEFI_LENDING',
        oldScore: null,
        previousScore: null,
        newScore: 731,
        confidence: 0.64,
        tier: 'High',
      },
    });

    // X-Credence-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed by the secret as returned>
    const sig = String(got.headers['x-credence-signature']);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    const expected = `sha256=${createHmac('sha256', hook.secret).update(got.body).digest('hex')}`;
    expect(timingSafeEqual(Buffer.from(sig), Buffer.from(expected))).toBe(true);
    const wrong = `sha256=${createHmac('sha256', 'whsec_other').update(got.body).digest('hex')}`;
    expect(sig).not.toBe(wrong);

    // Standard Webhooks, with the stock library
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(new Webhook(hook.secret).verify(got.body, headers)).toEqual(body);
    expect(() => new Webhook(hook.secret).verify(got.body.replace('731', '732'), headers)).toThrow();
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got.body, headers)).toThrow();

    await eventually(async () => (await getHook(key, hook.id)).lastDeliveryAt !== null);
    const list = await deliveries(key, hook.id);
    expect(list.count).toBe(1);
    expect(list.deliveries[0]).toMatchObject({
      id: headers['webhook-id'],
      event: 'score.updated',
      walletAddress: toChecksum(addr),
      category: 'DEFI_LENDING',
      status: 'delivered',
      attemptCount: 1,
      nextAttemptAt: null,
      attempts: [
        { attempt: 1, statusCode: 200, succeeded: true, error: null, durationMs: expect.any(Number), attemptedAt: expect.any(String) },
      ],
    });
  });

  it('sends to matching subscriptions only (filter equal, or no filter)', async () => {
    const rx = await receiver();
    const key = await createKey(wh.app, 'Growth');
    const x = randomAddress();
    const y = randomAddress();
    const onX = await subscribe(key, `${rx.url}?to=x`, x);
    const onY = await subscribe(key, `${rx.url}?to=y`, y);
    const all = await subscribe(key, `${rx.url}?to=all`);
    await emitScoreChange(wh.app, scoreChange(x, { newScore: 111 }));
    await eventually(
      async () =>
        (await deliveries(key, onX.id)).deliveries[0]?.status === 'delivered' &&
        (await deliveries(key, all.id)).deliveries[0]?.status === 'delivered',
    );
    expect((await deliveries(key, onY.id)).count).toBe(0);
    const forX = rx.received.filter((r) => JSON.parse(r.body).data.newScore === 111);
    expect(forX).toHaveLength(2);
    // an inactive or deleted subscription gets no new rows
    await wh.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${all.id}`, headers: key.headers });
    await emitScoreChange(wh.app, scoreChange(y, { newScore: 222 }));
    await eventually(async () => (await deliveries(key, onY.id)).deliveries[0]?.status === 'delivered');
    expect((await deliveries(key, onX.id)).count).toBe(1);
  });

  it('retries failed attempts, honours Retry-After, then resets the failure count', async () => {
    const rx = await receiver((_r, i) =>
      i === 0 ? { status: 500 } : i === 1 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 204 },
    );
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, rx.url, addr);
    await emitScoreChange(wh.app, scoreChange(addr));
    await eventually(() => rx.received.length >= 2);
    const mid = await getHook(key, hook.id);
    expect(mid.consecutiveFailures).toBeGreaterThanOrEqual(1);
    await eventually(async () => (await deliveries(key, hook.id)).deliveries[0]?.status === 'delivered', { timeoutMs: 15_000 });
    expect(rx.received).toHaveLength(3);
    // same message each time: same webhook-id, same body
    expect(new Set(rx.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(rx.received.map((r) => r.body)).size).toBe(1);
    // Retry-After: 1 outweighs the 0.05 s schedule
    expect(rx.received[2].at - rx.received[1].at).toBeGreaterThanOrEqual(950);
    const d = (await deliveries(key, hook.id)).deliveries[0];
    expect(d.attemptCount).toBe(3);
    expect(
      d.attempts.map((a: { statusCode: number; succeeded: boolean; error: string | null }) => [a.statusCode, a.succeeded, a.error]),
    ).toEqual([
      [500, false, 'HTTP 500'],
      [503, false, 'HTTP 503'],
      [204, true, null],
    ]);
    const after = await getHook(key, hook.id);
    expect(after.consecutiveFailures).toBe(0);
    expect(after.isActive).toBe(true);
    expect(after.lastDeliveryAt).not.toBeNull();
  });

  it('counts connection errors as failures', async () => {
    const rx = await receiver();
    const deadUrl = rx.url.replace(`:${rx.port}`, ':1'); // nothing listens on port 1
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, deadUrl, addr);
    await emitScoreChange(wh.app, scoreChange(addr));
    const d = await eventually(
      async () => (await deliveries(key, hook.id)).deliveries[0]?.attempts.length >= 2 && (await deliveries(key, hook.id)).deliveries[0],
    );
    expect(d.attempts[0]).toMatchObject({ statusCode: null, succeeded: false, error: expect.stringContaining('ECONNREFUSED') });
    await wh.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, headers: key.headers });
  });

  it('deactivates a subscription after 10 consecutive failures and keeps its pending delivery unsent', async () => {
    const bad = await receiver(() => ({ status: 500 }));
    const good = await receiver();
    const key = await createKey(wh.app, 'Starter');
    const addr = randomAddress();
    const hook = await subscribe(key, bad.url, addr);
    const healthy = await subscribe(key, good.url, addr);
    await emitScoreChange(wh.app, scoreChange(addr));
    const h = await eventually(async () => {
      const w = await getHook(key, hook.id);
      return w.isActive === false && w;
    });
    expect(h.consecutiveFailures).toBe(10);
    expect(bad.received).toHaveLength(10);
    const d = (await deliveries(key, hook.id)).deliveries[0];
    expect(d.status).toBe('pending');
    expect(d.attemptCount).toBe(10);
    expect((await getHook(key, healthy.id)).isActive).toBe(true);
    expect(good.received).toHaveLength(1);

    // Nothing more is sent to it: neither the kept delivery nor new changes.
    await emitScoreChange(wh.app, scoreChange(addr, { newScore: 900 }));
    await eventually(() => good.received.length === 2);
    await new Promise((r) => setTimeout(r, 300)); // several retry periods (0.05 s) must pass with no request
    expect(bad.received).toHaveLength(10);
    expect((await deliveries(key, hook.id)).count).toBe(1);

    // Re-creating it is the way back.
    await wh.app.inject({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, headers: key.headers });
    bad.respond = () => ({ status: 200 });
    const again = await subscribe(key, bad.url, addr);
    expect((await getHook(key, again.id)).isActive).toBe(true);
    await emitScoreChange(wh.app, scoreChange(addr, { newScore: 901 }));
    await eventually(() => bad.received.length === 11);
  });
});
