// Every test key, Free included, gets what docs/events.md promises: it registers test webhooks and
// `trigger` delivers a real signed event to them (over a real socket); live keys keep their tier rules.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, createTestModeKey, eventually } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import type { App } from '../../platform/http/types.js';
import { SANDBOX_WEBHOOKS, webhookLimitOf } from './service.js';

let app: App;
let receiver: Receiver;
beforeAll(async () => {
  app = await createTestApp({ config: { webhookRetrySchedule: [1] } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const post = (url: string, headers: Record<string, string>, payload: object) =>
  app.inject({ method: 'POST', url: `/api/v1${url}`, headers, payload });

describe('test webhooks for every test key', () => {
  it('a Free test key registers a test webhook, and trigger delivers a signed score.updated to it', async () => {
    const key = await createTestModeKey(app);
    expect(key.tier).toBe('Free');
    const made = await post('/webhooks', key.headers, { url: `${receiver.url}/free-test` });
    expect(made.statusCode, made.body).toBe(201);
    const { secret } = made.json();
    const fired = await post('/webhooks/trigger', key.headers, { event: 'score.updated' });
    expect(fired.statusCode, fired.body).toBe(202);
    const got = await eventually(
      () => receiver.received.find((r) => r.body.includes(key.owner.address) && r.body.includes('score.updated')),
      { timeoutMs: 20_000 },
    );
    const expected = `sha256=${createHmac('sha256', secret).update(got.body).digest('hex')}`;
    expect(got.headers['x-credence-signature']).toBe(expected);
    expect(JSON.parse(got.body)).toMatchObject({ event: 'score.updated', data: { address: key.owner.address } });
  });

  it(`at most ${SANDBOX_WEBHOOKS} per Free test key, refused with a test-key message`, async () => {
    const key = await createTestModeKey(app);
    const codes: number[] = [];
    for (let i = 0; i < SANDBOX_WEBHOOKS; i++)
      codes.push((await post('/webhooks', key.headers, { url: `${receiver.url}/n${i}` })).statusCode);
    expect(codes).toEqual(Array(SANDBOX_WEBHOOKS).fill(201));
    const over = await post('/webhooks', key.headers, { url: `${receiver.url}/over` });
    expect(over.statusCode).toBe(403);
    expect(over.json()).toEqual({ error: 'forbidden', details: expect.stringContaining(`at most ${SANDBOX_WEBHOOKS} test webhooks`) });
  });

  it('live keys keep their tier rules: a Free live key still gets 403 naming the tier', async () => {
    const live = await createKey(app, 'Free');
    const res = await post('/webhooks', live.headers, { url: `${receiver.url}/live` });
    expect(res.statusCode).toBe(403);
    expect(res.json().details).toContain('not available on the Free tier');
  });

  it('the allowance: a paid tier keeps its larger one in test, live keys only their tier', () => {
    expect(webhookLimitOf('Free', 'test')).toBe(SANDBOX_WEBHOOKS);
    expect(webhookLimitOf('Growth', 'test')).toBe(10);
    expect(webhookLimitOf('Free', 'live')).toBe(0);
    expect(webhookLimitOf('Starter', 'live')).toBe(3);
  });
});
