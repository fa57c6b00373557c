// End to end: a real score change from the scoring service (an admin's dispute revision) reaches a webhook
// receiver (signed, through the outbox) and a hub client (official SignalR client).
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signalR from '@microsoft/signalr';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let rx: Receiver;
beforeAll(async () => {
  app = await createTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  rx = await startReceiver();
});
afterAll(async () => {
  await app?.close();
  await rx?.close();
});

describe('score change -> webhook and hub', () => {
  it('applyRevisedScore is delivered to the webhook and pushed to the hub', async () => {
    const scoring = app.ctx.services.scoring!;
    expect(scoring).toBeDefined();
    const addr = randomAddress();
    await scoring.getScores(addr);

    const key = await createKey(app, 'Starter');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: key.headers,
      payload: { url: rx.url, walletAddress: addr },
    });
    const { secret } = res.json();

    const port = (app.server.address() as { port: number }).port;
    const hub = new signalR.HubConnectionBuilder()
      .withUrl(`http://127.0.0.1:${port}/hubs/scores`)
      .configureLogging(signalR.LogLevel.None)
      .build();
    const pushed: { address: string; category: string; oldScore: number | null; newScore: number }[] = [];
    hub.on('ScoreUpdated', (p) => pushed.push(p));
    await hub.start();
    await hub.invoke('SubscribeToAddress', addr);

    const changes = await scoring.applyRevisedScore(addr, 'DEFI_TRADING', 700, 'wallet:0xadmin', 'dispute-e2e');
    expect(changes.length).toBeGreaterThanOrEqual(1);

    await eventually(() => rx.received.length === changes.length && pushed.length === changes.length);
    for (const c of changes) {
      const hook = rx.received.map((r) => ({ r, body: JSON.parse(r.body) })).find((x) => x.body.data.category === c.category)!;
      expect(hook.body).toMatchObject({
        event: 'score.updated',
        data: {
          walletAddress: toChecksum(addr),
          address: toChecksum(addr),
          oldScore: c.oldScore,
          previousScore: c.oldScore,
          newScore: c.newScore,
          tier: c.tier,
          confidence: c.confidence,
        },
      });
      expect(hook.r.headers['x-credence-signature']).toBe(`sha256=${createHmac('sha256', secret).update(hook.r.body).digest('hex')}`);
      expect(pushed).toContainEqual({ address: toChecksum(addr), category: c.category, oldScore: c.oldScore, newScore: c.newScore });
    }
    await hub.stop();
  });
});
