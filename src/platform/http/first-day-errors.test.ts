// A first day's errors (server side), as people meet them over a real socket: an over-long URL answers its own error code
// (uri_too_long, 414) without echoing the URL; an unknown long path is named by its start only; a webhook to
// localhost is refused naming `credence webhooks listen` and the setting; `npm start` logs requests at debug, so
// its banner is not buried at the default level.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createKey, createTestApp, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { App } from './types.js';

let app: App;
let base: string;
beforeAll(async () => {
  app = await createTestApp({ config: { webhookAllowPrivate: false } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

describe('over-long URLs', () => {
  it('a 5,000-character path parameter: 414 uri_too_long, the URL not echoed', async () => {
    const long = 'a'.repeat(5000);
    for (const url of [`/api/v1/reputation/${long}`, `/api/v1/reputation/0x${long}/OVERALL`]) {
      const res = await fetch(`${base}${url}`);
      expect(res.status).toBe(414);
      const text = await res.text();
      expect(text.length).toBeLessThan(400);
      expect(text).not.toContain('aaaaaaaaaa');
      expect(JSON.parse(text)).toEqual({
        error: 'uri_too_long',
        details: expect.stringContaining(`(${url.length.toLocaleString('en-US')} characters)`),
      });
    }
  });

  it('an unknown 5,000-character path: 404 naming its first 200 characters and its length', async () => {
    const res = await fetch(`${base}/${'b'.repeat(5000)}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; details: string };
    expect(body.error).toBe('not_found');
    expect(body.details.length).toBeLessThan(300);
    expect(body.details).toContain('(5,001 characters)');
  });

  it('a request line over 16 KB: 414 uri_too_long from the HTTP parser', async () => {
    const res = await fetch(`${base}/api/v1/x?q=${'c'.repeat(20_000)}`);
    expect([414, 431]).toContain(res.status);
    if (res.status === 414) expect(((await res.json()) as { error: string }).error).toBe('uri_too_long');
  });
});

describe('a webhook to localhost', () => {
  it('is refused naming credence webhooks listen and CREDENCE_WEBHOOK_ALLOW_PRIVATE', async () => {
    const key = await createKey(app, 'Starter');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: key.headers,
      payload: { url: 'http://localhost:4242/hook' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    expect(body.fields[0].field).toBe('url');
    expect(body.details).toContain('credence webhooks listen --forward-to http://localhost:4242/hook');
    expect(body.details).toContain('CREDENCE_WEBHOOK_ALLOW_PRIVATE=true');
  });
});

describe('request logs', () => {
  async function requestLines(logLevel: string): Promise<string[]> {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => void (lines.push(String(chunk)), done()) });
    const a = await buildApp(testConfig({ logLevel }), { db: await testDatabase(), secrets: {}, logStream: sink });
    try {
      await a.ready();
      const url = await a.listen({ port: 0, host: '127.0.0.1' });
      // a Fastify route and the cached fast path alike
      await fetch(`${url}/health`);
      await fetch(`${url}/api/v1/auth/nonce`);
    } finally {
      await a.close();
    }
    return lines.filter((l) => /"msg":"(incoming request|request completed)"/.test(l));
  }

  it('are debug lines: none at the default info level, both per request at debug', async () => {
    expect(await requestLines('info')).toEqual([]);
    const debug = await requestLines('debug');
    expect(debug.length).toBeGreaterThanOrEqual(4);
    for (const l of debug) expect(JSON.parse(l).level).toBe(20);
    expect(debug.some((l) => l.includes('/api/v1/auth/nonce'))).toBe(true);
  }, 60_000);
});
