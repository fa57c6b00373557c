// The local checkout page's form works without any script: its plain submission is
// application/x-www-form-urlencoded, answered with a redirect to the success page. Over a real socket, and in a real
// headless Chromium with JavaScript off and on.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createKey, createTestApp, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { usageOf } from './test-helpers.js';

const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
// Skipped only where no browser is installed and the run does not demand every service.
const skipBrowser = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;

let app: App;
let base: string;
let browser: Browser | null = null;
beforeAll(async () => {
  app = await createTestApp();
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  if (!skipBrowser) {
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
  }
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A checkout opened by the key; the page path (with its token) on this server. */
async function checkout(key: TestKey, successUrl?: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/checkout',
    headers: key.headers,
    payload: { planId: 'growth', ...(successUrl ? { successUrl } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const url = new URL(res.json().url);
  return `${base}${url.pathname}${url.search}`;
}

describe('local checkout form over a real socket', () => {
  it('a plain form post (urlencoded, no script) completes the payment and redirects (303) to the success page', async () => {
    const key = await createKey(app, 'Free');
    const page = await fetch(await checkout(key, 'https://dapp.example/thanks'));
    const html = await page.text();
    expect(html).toContain('method="post"');
    const action = /action="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
    const res = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://dapp.example/thanks');
    expect((await usageOf(app, key)).tier).toBe('Growth');
    // pressing again: 409 in the API's error format, nothing changes
    const again = await fetch(`${base}${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'x=1',
      redirect: 'manual',
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_state');
  });

  it('the form post without the token is refused (403) like any other', async () => {
    const key = await createKey(app, 'Free');
    const url = new URL(await checkout(key));
    const res = await fetch(`${base}${url.pathname}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(res.status).toBe(403);
    expect((await usageOf(app, key)).tier).toBe('Free');
  });
});

describe.skipIf(skipBrowser)('local checkout in headless Chromium', () => {
  for (const javaScriptEnabled of [false, true]) {
    it(`confirms with JavaScript ${javaScriptEnabled ? 'on' : 'off'} and lands on the done page`, async () => {
      const key = await createKey(app, 'Free');
      const context = await browser!.newContext({ javaScriptEnabled });
      try {
        const page = await context.newPage();
        // the default success page is on the public URL; this server listens on its own port
        await page.goto(await checkout(key, `${base}/api/v1/billing/checkout/done`));
        expect(await page.textContent('h1')).toContain('Upgrade to Growth');
        await Promise.all([page.waitForURL(/\/billing\/checkout\/done/), page.click('#pay')]);
        expect(await page.textContent('h1')).toBe('Payment received');
        expect((await usageOf(app, key)).tier).toBe('Growth');
      } finally {
        await context.close();
      }
    });
  }
});
