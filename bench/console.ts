// First paint of the web console against a static hello page served by the same server, in the same headless
// Chromium, on the embedded default (PGlite, no settings). Each load is a fresh browser context (empty cache).
// Prints medians: the hello page's first contentful paint (baseline), the console's first contentful paint, and
// the console ready (its sign-in button rendered: the app's JavaScript loaded and run), with the ratios.
// Target: the console answers its first paint in under 1 s on this machine.
import { Wallet } from 'ethers';
import { chromium, type Browser } from 'playwright-core';
import { buildApp } from '../src/app.js';
import { benchConfig } from './support.js';

const RUNS = Number(process.env.RUNS ?? 15);
const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
const HELLO = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>hello</title></head><body><p>Hello</p></body></html>';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** ms from navigation start to first contentful paint, and to `selector` appearing (when given). */
async function load(browser: Browser, url: string, selector?: string): Promise<{ fcp: number; ready: number }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'commit' });
  if (selector) await page.waitForSelector(selector);
  const ready = await page.evaluate(() => performance.now());
  const fcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const seen = performance.getEntriesByName('first-contentful-paint')[0];
        if (seen) return resolve(seen.startTime);
        new PerformanceObserver((l) => resolve(l.getEntries()[0].startTime)).observe({ type: 'paint' as never, buffered: true });
      }),
  );
  await context.close();
  return { fcp, ready: selector ? ready : fcp };
}

const app = await buildApp(benchConfig(Wallet.createRandom() as unknown as Wallet), { logger: false });
app.get('/bench-hello', { schema: { hide: true }, config: { auth: 'none' } }, (_req, reply) =>
  reply.type('text/html; charset=utf-8').send(HELLO),
);
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await chromium.launch({
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
try {
  // warm both paths once (server-side first use, browser process)
  await load(browser, `${base}/bench-hello`);
  await load(browser, `${base}/console/`, 'button');
  const hello: number[] = [];
  const fcp: number[] = [];
  const ready: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    hello.push((await load(browser, `${base}/bench-hello`)).fcp);
    const c = await load(browser, `${base}/console/`, 'main button');
    fcp.push(c.fcp);
    ready.push(c.ready);
  }
  const h = median(hello);
  const f = median(fcp);
  const r = median(ready);
  console.log(`console first paint, ${RUNS} cold loads each, medians (embedded default, headless Chromium):`);
  console.log(`  static hello page, first contentful paint (baseline): ${h.toFixed(0)} ms`);
  console.log(`  /console first contentful paint:                     ${f.toFixed(0)} ms  (${(f / h).toFixed(2)}x the baseline)`);
  console.log(`  /console ready (sign-in button rendered):             ${r.toFixed(0)} ms  (${(r / h).toFixed(2)}x the baseline)`);
  console.log(`  target: first paint under 1000 ms -> ${r < 1000 ? 'met' : 'NOT met'} (ready, the stricter reading)`);
} finally {
  await browser.close();
  await app.close();
}
