// POST /webhooks/listen (deliveries streamed to `credence webhooks listen`), its acknowledgements, and
// POST /webhooks/trigger (sandbox events for test keys), over a real socket; with PostgreSQL and Redis also
// across two instances (the stream held by one, the delivery worker on the other).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, createTestModeKey, eventually, redisUrl, type TestKey } from '../../../test/helpers/app.js';
import { freePort } from '../../../test/helpers/ports.js';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { usingPostgres } from '../../../test/helpers/db.js';
import { deploymentSettings } from '../../../test/helpers/deployment.js';
import type { App } from '../../platform/http/types.js';
import { verifyWebhook } from '../../../sdk/src/index.js';
import * as signalR from '@microsoft/signalr';
import { sweepListeners, touchListeners } from './listen.js';

const schedule = [0.2, 0.2, 0.2];
let app: App;
let base: string;

async function serve(a: App): Promise<string> {
  const port = await freePort();
  await a.listen({ port, host: '127.0.0.1' });
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  app = await createTestApp({ config: { webhookRetrySchedule: schedule } });
  base = await serve(app);
});
/** Closes the app without waiting for the test's own HTTP client: an idle or never-used pooled connection of fetch
 *  would hold server.close() until the headers timeout. */
async function closeApp(a: App | undefined) {
  a?.server.closeAllConnections();
  await a?.close();
}
afterAll(() => closeApp(app));

const testKey = (a: App = app) => createTestModeKey(a);

/** The official SignalR client on a real socket, opened with the key, subscribed to the key owner's wallet. */
async function hubClient(key: TestKey) {
  const c = new signalR.HubConnectionBuilder()
    .withUrl(`${base}/hubs/scores`, { accessTokenFactory: () => key.apiKey })
    .configureLogging(signalR.LogLevel.None)
    .build();
  const scores: { address: string; newScore: number }[] = [];
  c.on('ScoreUpdated', (p: { address: string; newScore: number }) => scores.push(p));
  await c.start();
  await c.invoke('SubscribeToAddress', key.owner.address);
  return { c, scores };
}

interface StreamedDelivery {
  deliveryId: string;
  headers: Record<string, string>;
  body: string;
}

/** Opens a listener stream and reads its server-sent events. */
async function listen(url: string, key: TestKey, body: object = {}) {
  const abort = new AbortController();
  const res = await fetch(`${url}/api/v1/webhooks/listen`, {
    method: 'POST',
    headers: { ...key.headers, accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const queue: StreamedDelivery[] = [];
  const waiting: ((d: StreamedDelivery) => void)[] = [];
  let ready!: (r: { webhookId: string; secret: string; environment: string }) => void;
  const readyP = new Promise<{ webhookId: string; secret: string; environment: string }>((r) => (ready = r));
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buf += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!data) continue;
          if (event === 'ready') ready(JSON.parse(data));
          if (event === 'delivery') {
            const d = JSON.parse(data) as StreamedDelivery;
            const w = waiting.shift();
            if (w) w(d);
            else queue.push(d);
          }
        }
      }
    } catch {
      /* aborted by close() */
    }
  })();
  return {
    ready: readyP,
    next: () => new Promise<StreamedDelivery>((r) => (queue.length ? r(queue.shift()!) : waiting.push(r))),
    close: async () => {
      abort.abort();
      await ended;
    },
  };
}

const ack = (url: string, key: TestKey, webhookId: string, body: object) =>
  fetch(`${url}/api/v1/webhooks/listen/${webhookId}/acks`, {
    method: 'POST',
    headers: { ...key.headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const trigger = (key: TestKey, body: object = {}) =>
  app.inject({ method: 'POST', url: '/api/v1/webhooks/trigger', headers: key.headers, payload: { event: 'score.updated', ...body } });

const deliveries = async (a: App, key: TestKey, id: string) =>
  (await a.inject({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, headers: key.headers })).json().deliveries as {
    id: string;
    status: string;
    attempts: { statusCode: number | null; succeeded: boolean }[];
  }[];

describe('webhooks listen', () => {
  it("needs a client that accepts text/event-stream, and webhooks in a live key's tier", async () => {
    const key = await testKey();
    const plain = await app.inject({ method: 'POST', url: '/api/v1/webhooks/listen', headers: key.headers, payload: {} });
    expect(plain.statusCode).toBe(400);
    expect(plain.json().fields.map((f: { field: string }) => f.field)).toContain('accept');
    const free = await createKey(app, 'Free');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/listen',
      headers: { ...free.headers, accept: 'text/event-stream' },
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });

  it('streams a signed delivery of a triggered event; the acknowledged status is the attempt, a failure is retried', async () => {
    const key = await testKey();
    const l = await listen(base, key);
    const { webhookId, secret, environment } = await l.ready;
    expect(environment).toBe('test');
    const listed = (await app.inject({ method: 'GET', url: '/api/v1/webhooks', headers: key.headers })).json();
    expect(listed.webhooks).toEqual([expect.objectContaining({ id: webhookId, url: expect.stringMatching(/^credence-listen:\/\//) })]);

    const address = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';
    const t = await trigger(key, { address, category: 'NFT' });
    expect(t.statusCode, t.body).toBe(202);
    expect(t.json()).toMatchObject({ event: 'score.updated', address, category: 'NFT', deliveryIds: [expect.any(String)] });
    expect(t.json().newScore).not.toBe(t.json().oldScore);

    const first = await l.next();
    expect(first.deliveryId).toBe(t.json().deliveryIds[0]);
    expect(verifyWebhook(first.body, first.headers, secret)).toMatchObject({ valid: true });
    expect(JSON.parse(first.body)).toMatchObject({
      event: 'score.updated',
      data: { walletAddress: address, category: 'NFT', oldScore: t.json().oldScore, newScore: t.json().newScore },
    });
    // the local receiver answered 500: a failed attempt, sent again along the schedule
    expect((await ack(base, key, webhookId, { deliveryId: first.deliveryId, statusCode: 500 })).status).toBe(204);
    const again = await l.next();
    expect(again.deliveryId).toBe(first.deliveryId);
    expect(again.body).toBe(first.body);
    expect((await ack(base, key, webhookId, { deliveryId: again.deliveryId, statusCode: 200 })).status).toBe(204);
    const [d] = await eventually(async () => {
      const list = await deliveries(app, key, webhookId);
      return list[0]?.status === 'delivered' ? list : null;
    });
    expect(d.attempts.map((a) => [a.statusCode, a.succeeded])).toEqual([
      [500, false],
      [200, true],
    ]);

    // another key cannot acknowledge it
    const other = await testKey();
    expect((await ack(base, other, webhookId, { deliveryId: first.deliveryId, statusCode: 200 })).status).toBe(404);

    await l.close();
    await eventually(
      async () => (await app.inject({ method: 'GET', url: `/api/v1/webhooks/${webhookId}`, headers: key.headers })).statusCode === 404,
    );
  });

  it("a trigger goes to the calling test key's listeners only, never to another key's nor to live webhooks", async () => {
    const [mine, theirs] = [await testKey(), await testKey()];
    const live = await createKey(app, 'Starter');
    const liveHook = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: live.headers,
      payload: { url: 'http://127.0.0.1:9/live' },
    });
    expect(liveHook.statusCode).toBe(201);
    const [a, b] = [await listen(base, mine), await listen(base, theirs)];
    const [ra, rb] = [await a.ready, await b.ready];
    // the hub too: this key's test connection gets the sandbox change, another test key's and a live one's do not
    const [hubMine, hubTheirs, hubLive] = await Promise.all([hubClient(mine), hubClient(theirs), hubClient(live)]);
    const t = await trigger(mine);
    // the key owner's wallet by default
    expect(t.json()).toMatchObject({ address: mine.owner.address, category: 'OVERALL', deliveryIds: [expect.any(String)] });
    const d = await a.next();
    expect(d.deliveryId).toBe(t.json().deliveryIds[0]);
    expect(await deliveries(app, theirs, rb.webhookId)).toEqual([]);
    expect(await deliveries(app, live, liveHook.json().id)).toEqual([]);
    await ack(base, mine, ra.webhookId, { deliveryId: d.deliveryId, statusCode: 204 });
    await eventually(() => hubMine.scores.length > 0, { timeoutMs: 20_000 });
    expect(hubMine.scores.map((p) => [p.address.toLowerCase(), p.newScore])).toEqual([
      [mine.owner.address.toLowerCase(), t.json().newScore],
    ]);
    // live credentials cannot trigger
    expect((await trigger(live)).statusCode).toBe(403);
    // the other key's trigger, as a marker: once hubTheirs has it, anything of `mine` would have arrived too
    expect((await trigger(theirs)).statusCode).toBe(202);
    await eventually(() => hubTheirs.scores.length > 0, { timeoutMs: 20_000 });
    expect(hubTheirs.scores.map((p) => p.address.toLowerCase())).toEqual([theirs.owner.address.toLowerCase()]);
    expect(hubLive.scores).toEqual([]);
    expect(hubMine.scores).toHaveLength(1);
    await Promise.all([a.close(), b.close(), hubMine.c.stop(), hubTheirs.c.stop(), hubLive.c.stop()]);
  });

  it("a listener whose instance died is swept once stale; an open one is kept by its instance's presence", async () => {
    const key = await testKey();
    const [open, orphan] = [await listen(base, key), await listen(base, key)];
    const [ro, rx] = [await open.ready, await orphan.ready];
    const seen = async (id: string) =>
      (
        await app.ctx.db.query<{ stale: boolean }>(
          "SELECT listener_seen_at < now() - interval '1 hour' AS stale FROM webhook_subscriptions WHERE id = $1",
          [id],
        )
      )[0];
    expect(await seen(ro.webhookId)).toEqual({ stale: false });
    // both last vouched for two hours ago; the open one is vouched for again by its instance, the orphan's instance is gone
    await app.ctx.db.query("UPDATE webhook_subscriptions SET listener_seen_at = now() - interval '2 hours' WHERE id = ANY($1::uuid[])", [
      [ro.webhookId, rx.webhookId],
    ]);
    await touchListeners(app.ctx.db, [ro.webhookId]);
    expect(await sweepListeners(app.ctx.db)).toEqual([rx.webhookId]);
    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${rx.webhookId}`, headers: key.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/v1/webhooks/${ro.webhookId}`, headers: key.headers })).statusCode).toBe(200);
    // an ordinary webhook is never swept
    const plain = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: (await createKey(app, 'Starter')).headers,
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(await sweepListeners(app.ctx.db, 0)).not.toContain(plain.json().id);
    await Promise.all([open.close(), orphan.close()]);
  });

  it('allows 5 listeners per key at once', async () => {
    const key = await testKey();
    const open = [];
    for (let i = 0; i < 5; i++) open.push(await listen(base, key));
    await Promise.all(open.map((l) => l.ready));
    const sixth = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/listen',
      headers: { ...key.headers, accept: 'text/event-stream' },
      payload: {},
    });
    expect(sixth.statusCode).toBe(403);
    expect(sixth.json().details).toContain('at most 5');
    await Promise.all(open.map((l) => l.close()));
  });
});

// Two instances of one deployment: the listener's stream on A (no workers), the delivery worker on B; the delivery
// and its acknowledgement cross over Redis.
describe.runIf(usingPostgres() && !!redisUrl())('webhooks listen across instances', () => {
  let a: App;
  let b: App;
  afterAll(async () => {
    await closeApp(a);
    await closeApp(b);
  });

  it('delivers through the instance holding the stream and records the acknowledgement made on the other', async () => {
    const [dbA, dbB] = (await sharedPostgresDatabase(2))!;
    const { config } = deploymentSettings();
    a = await createTestApp({ db: dbA, config: { ...config, roles: ['api'], webhookRetrySchedule: schedule } });
    b = await createTestApp({ db: dbB, config: { ...config, roles: ['api', 'workers'], webhookRetrySchedule: schedule } });
    const [urlA, urlB] = [await serve(a), await serve(b)];
    const key = await testKey(a);
    const l = await listen(urlA, key);
    const { webhookId, secret } = await l.ready;
    const t = await a.inject({
      method: 'POST',
      url: '/api/v1/webhooks/trigger',
      headers: key.headers,
      payload: { event: 'score.updated' },
    });
    expect(t.statusCode, t.body).toBe(202);
    const d = await l.next();
    expect(verifyWebhook(d.body, d.headers, secret).valid).toBe(true);
    expect((await ack(urlB, key, webhookId, { deliveryId: d.deliveryId, statusCode: 200 })).status).toBe(204);
    await eventually(async () => (await deliveries(b, key, webhookId))[0]?.status === 'delivered');
    await l.close();
  });
});
