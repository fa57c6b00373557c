// A dApp page on another origin calls the API from a real headless Chromium: allowed from an origin listed in
// CREDENCE_CORS_ORIGINS, refused by the browser from any other.
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createTestApp } from '../../test/helpers/app.js';
import type { App } from './http/types.js';

const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
// Skipped only where no browser is installed and the run does not demand every service.
const skip = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;

let app: App;
let api: string;
let browser: Browser | null = null;
const pages: { server: http.Server; origin: string }[] = [];

/** A static page server on 127.0.0.1: the dApp's own origin. */
async function pageServer() {
  const server = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>dApp</title><p>dApp'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages.push({ server, origin });
  return origin;
}

let allowed: string;
let other: string;
beforeAll(async () => {
  if (skip) return;
  allowed = await pageServer();
  other = await pageServer();
  app = await createTestApp({ config: { corsOrigins: [allowed] } });
  api = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  for (const p of pages) p.server.close();
});

/** Runs fetch in a page of `origin` and reports what the page's script could see. */
async function fetchFrom(origin: string, url: string, init: RequestInit = {}) {
  const page = await browser!.newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(
      async ([u, i]) => {
        try {
          const r = await fetch(u, i as RequestInit);
          return {
            ok: true,
            status: r.status,
            body: (await r.json()) as { nonce?: string; error?: string },
            requestId: r.headers.get('x-request-id'),
            remaining: r.headers.get('x-ratelimit-remaining'),
          };
        } catch (e) {
          return { ok: false, error: String(e) };
        }
      },
      [url, init] as const,
    );
  } finally {
    await page.close();
  }
}

describe.skipIf(skip)('CORS in a real browser', () => {
  it('a page on an allowed origin gets a nonce and reads the exposed headers', async () => {
    const r = await fetchFrom(allowed, `${api}/api/v1/auth/nonce`);
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.status).toBe(200);
    expect(r.body?.nonce).toMatch(/\w{8,}/);
    expect(r.requestId).toBeTruthy();
    expect(r.remaining).toMatch(/^\d+$/);
  });

  it('a preflighted call with an API key header passes the preflight and reads the error body', async () => {
    const r = await fetchFrom(allowed, `${api}/api/v1/billing/usage`, { headers: { 'x-api-key': 'cred_live_unknown' } });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    expect(r.status).toBe(401);
    expect(r.body?.error).toBe('unauthorized');
  });

  it('a page on another origin is refused by the browser', async () => {
    const r = await fetchFrom(other, `${api}/api/v1/auth/nonce`);
    expect(r.ok).toBe(false);
    expect(r.error).toContain('TypeError');
  });
});
