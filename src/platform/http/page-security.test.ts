// Every HTML page the API serves is hardened like the console. Over a real socket: the local checkout
// page, the checkout done page, the local KYC page and the API explorer send a CSP with frame-ancestors 'none' and no
// 'unsafe-inline', X-Frame-Options DENY, Referrer-Policy no-referrer and X-Content-Type-Options nosniff; every inline
// <script>/<style> carries the response's nonce. In headless Chromium, the pages run under their CSP without a
// violation and cannot be framed. (The checkout and KYC flows themselves: checkout-browser and kyc-browser tests.)
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createKey, createTestApp, signIn } from '../../../test/helpers/app.js';
import type { App } from './types.js';

const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
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

/** The pages, as paths on this server (the checkout page with its token, the KYC page of a fresh session). */
async function pages(): Promise<Record<string, string>> {
  const key = await createKey(app, 'Free');
  const checkout = (
    await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: key.headers,
      payload: { planId: 'growth', successUrl: 'https://dapp.example/thanks' },
    })
  ).json();
  const owner = await signIn(app);
  const did = (await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })).json()
    .did;
  const kyc = (await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } })).json();
  const c = new URL(checkout.url);
  return {
    checkout: `${c.pathname}${c.search}`,
    done: '/api/v1/billing/checkout/done?session_id=cs_x',
    kyc: new URL(kyc.redirectUrl).pathname,
    swagger: '/swagger/static/index.html',
  };
}

function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0], d.slice(d.indexOf(' ') + 1)] as [string, string]),
  );
}

describe('page headers over a real socket', () => {
  it('every page: CSP with frame-ancestors none and no unsafe-inline, X-Frame-Options, Referrer-Policy, nosniff; inline parts carry the nonce', async () => {
    for (const [name, path] of Object.entries(await pages())) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toContain('text/html');
      const csp = res.headers.get('content-security-policy');
      expect(csp, name).toBeTruthy();
      const d = directives(csp!);
      expect(d.get('frame-ancestors'), name).toBe("'none'");
      expect(csp, name).not.toContain('unsafe-inline');
      expect(csp, name).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-frame-options'), name).toBe('DENY');
      expect(res.headers.get('referrer-policy'), name).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options'), name).toBe('nosniff');
      const html = await res.text();
      const nonce = /'nonce-([^']+)'/.exec(csp!)?.[1];
      for (const tag of html.match(/<(script|style)\b[^>]*>/g) ?? []) {
        if (/\bsrc=/.test(tag)) continue;
        expect(tag, `${name}: ${tag}`).toContain(`nonce="${nonce}"`);
      }
      expect(html, name).not.toMatch(/\sstyle="/);
    }
  });

  it('the checkout page lets its form be redirected to the success page only (form-action), and a fresh nonce each time', async () => {
    const { checkout } = await pages();
    const a = await fetch(`${base}${checkout}`);
    const b = await fetch(`${base}${checkout}`);
    const csp = a.headers.get('content-security-policy')!;
    expect(directives(csp).get('form-action')).toBe("'self' https://dapp.example");
    expect(/'nonce-([^']+)'/.exec(csp)![1]).not.toBe(/'nonce-([^']+)'/.exec(b.headers.get('content-security-policy')!)![1]);
  });
});

describe.skipIf(skipBrowser)('the pages in headless Chromium', () => {
  let framer: Server;
  let framerUrl: string;
  beforeAll(async () => {
    // another origin that tries to frame each page
    framer = createServer((req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><iframe id="f" src="${base}${decodeURIComponent(req.url!.slice(1))}"></iframe>`);
    });
    await new Promise<void>((r) => framer.listen(0, '127.0.0.2', r));
    framerUrl = `http://127.0.0.2:${(framer.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => framer.close(() => r())));

  it('run without a CSP violation (the explorer lists the operations; the checkout page drops its token from the address bar)', async () => {
    const all = await pages();
    const context = await browser!.newContext();
    try {
      for (const [name, path] of Object.entries(all)) {
        const page = await context.newPage();
        const violations: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
        });
        await page.goto(`${base}${path}`);
        if (name === 'swagger') await page.waitForSelector('.opblock', { timeout: 30_000 });
        if (name === 'checkout') {
          await page.waitForFunction("location.search === ''");
          expect(await page.textContent('h1')).toContain('Upgrade to Growth');
          // the computed style comes from the nonce'd stylesheet
          expect(await page.evaluate("getComputedStyle(document.querySelector('button')).backgroundColor")).toBe('rgb(79, 70, 229)');
        }
        expect(violations, name).toEqual([]);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }, 90_000);

  it('cannot be framed by another origin', async () => {
    const all = await pages();
    const context = await browser!.newContext();
    try {
      for (const [name, path] of Object.entries(all)) {
        const page = await context.newPage();
        await page.goto(`${framerUrl}/${encodeURIComponent(path)}`);
        await page.waitForSelector('#f');
        // a blocked frame never gets the page's document: its title and body stay empty
        const frame = await (await page.$('#f'))!.contentFrame();
        const text = frame ? String(await frame.evaluate("document.body ? document.body.innerText : ''")) : '';
        expect(text, name).not.toMatch(/Upgrade|Payment|Identity verification|Swagger|Credence/);
        await page.close();
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});
