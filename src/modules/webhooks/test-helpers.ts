// Shared setup of the webhook delivery tests (imported only by *.test.ts files): one app per test file with a short
// retry schedule standing in for the real one, receivers closed after the file, subscriptions through the API.
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestKey } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import type { App } from '../../platform/http/types.js';

export function webhooksTestApp(retrySeconds: number) {
  const t = { app: null as unknown as App, receivers: [] as Receiver[] };
  beforeAll(async () => {
    t.app = await createTestApp({ config: { webhookRetrySchedule: new Array(12).fill(retrySeconds) } });
  });
  afterAll(async () => {
    await t.app?.close();
    await Promise.all(t.receivers.map((r) => r.close()));
  });
  return {
    get app() {
      return t.app;
    },
    async receiver(respond?: Parameters<typeof startReceiver>[0]) {
      const r = await startReceiver(respond);
      t.receivers.push(r);
      return r;
    },
    async subscribe(key: TestKey, url: string, walletAddress?: string) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: key.headers, payload: { url, walletAddress } });
      expect(res.statusCode).toBe(201);
      return res.json() as { id: string; secret: string };
    },
  };
}
