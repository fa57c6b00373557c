// Shared by the console's browser tests: one service on a real port (its public URL and sign-in domain are that
// address), one headless Chromium, a browser context per wallet with an injected EIP-1193 provider whose
// personal_sign is a viem local account's, axe-core checks, and screenshots for a reviewer (console/screenshots/).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createTestApp } from '../../test/helpers/app.js';
import { freePort } from '../../test/helpers/ports.js';
import type { Config } from '../../src/platform/config.js';
import type { App } from '../../src/platform/http/types.js';

export const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Harness {
  app: App;
  base: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function startHarness(config: Partial<Config> = {}): Promise<Harness> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await createTestApp({ config: { publicUrl: base, siweDomain: `127.0.0.1:${port}`, ...config } });
  await app.listen({ port, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(SHOTS, { recursive: true });
  return {
    app,
    base,
    browser,
    async close() {
      await browser.close();
      await app.close();
    },
  };
}

export interface WalletPage {
  context: BrowserContext;
  page: Page;
  account: PrivateKeyAccount;
  /** every request the page made to another origin (there must be none) */
  foreign: string[];
}

/** A fresh browser context whose window.ethereum is backed by `account` (a new random one by default). */
export async function walletPage(h: Harness, privateKey: `0x${string}` = generatePrivateKey(), viewport = { width: 1280, height: 900 }): Promise<WalletPage> {
  const account = privateKeyToAccount(privateKey);
  const context = await h.browser.newContext({ viewport });
  const chainId = h.app.ctx.config.siweChainIds[0] ?? 1;
  // personal_sign's first parameter is the message as hex: sign exactly those bytes
  await context.exposeFunction('__testWalletSign', (hex: `0x${string}`) => account.signMessage({ message: { raw: hex } }));
  await context.addInitScript(
    ({ address, chainHex }) => {
      const w = window as unknown as { ethereum: unknown; __testWalletSign: (hex: string) => Promise<string> };
      w.ethereum = {
        isTestWallet: true,
        async request({ method, params }: { method: string; params?: unknown[] }) {
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
          if (method === 'eth_chainId') return chainHex;
          if (method === 'personal_sign') return w.__testWalletSign(String(params?.[0]));
          throw Object.assign(new Error(`The test wallet does not support ${method}`), { code: 4200 });
        },
        on() {},
        removeListener() {},
      };
    },
    { address: account.address, chainHex: `0x${chainId.toString(16)}` },
  );
  const page = await context.newPage();
  // a step that cannot happen fails with its locator, well before the test's own timeout
  page.setDefaultTimeout(15_000);
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(h.base) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  return { context, page, account, foreign };
}

/** axe-core in the page: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // injected as a script element is refused by the CSP (script-src 'self'); evaluate runs it in the page instead
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
  });
  expect(violations, `${label}: axe violations`).toEqual([]);
}

/** A full-page screenshot at the desktop width and at 375 px, where nothing may overflow sideways. */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 375, height: 800 });
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = document.documentElement.scrollWidth - width;
    if (over <= 0) return over;
    // name the innermost elements sticking out, so a failure says what to fix
    const wide = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > width + 1 && ![...e.children].some((c) => c.getBoundingClientRect().right > width + 1));
    return `${over} px too wide: ${wide.slice(0, 5).map((e) => `${e.tagName.toLowerCase()}.${e.className}`).join(', ')}`;
  });
  await page.screenshot({ path: path.join(SHOTS, `${name}-375.png`), fullPage: true });
  await page.setViewportSize(size);
  expect(overflow, `${name}: page wider than 375 px`).toBeTypeOf('number');
}

/** Polls `fn` until it returns true (after clicking `refresh` between tries), up to a deadline. */
export async function until(fn: () => Promise<boolean>, what: string, { timeoutMs = 20_000, between }: { timeoutMs?: number; between?: () => Promise<unknown> } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await between?.();
    await new Promise((r) => setTimeout(r, 100));
  }
}
