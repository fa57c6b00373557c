// The console in headless Chromium for wallets read from a chain: `npm run demo`'s world (scripts/demo-world.ts: the
// scenario histories replayed month by month on a local chain run as chain 1, the API reading it). On a score card,
// a category whose conduct exceeds its score says both in words (how the wallet behaves, the score it is held to and
// the backing that holds it), and what it says is the API's own entry; a fully backed category and a verification
// category say so too (the trader, whose fees back most but not all of its conduct). The history chart and its table
// show the replayed year (the borrower). At 1280 and 375 px, with axe-core. Each wallet signs in with its own key.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, type TestKey } from '../../test/helpers/app.js';
import { startLocalChain, type LocalChain } from '../../test/helpers/local-chain.js';
import { SCENARIO_START_DAYS_AGO, type ScenarioResult } from '../../scripts/scenarios.js';
import { demoWalletKeys, REPLAY_TIMEOUT, replayDemo, type DemoWorld } from '../../scripts/demo-world.js';
import { model } from '../../src/modules/scoring/params.js';
import { CHROMIUM, expectAccessible, shoot, startHarness, walletPage, type Harness } from './browser.js';

const { ceilingFor } = model;

const skip = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;

interface Entry {
  category: string;
  score: number;
  conduct: number;
  backingUsd: number | null;
}

let chain: LocalChain;
let sc: ScenarioResult;
let world: DemoWorld;
let h: Harness;
let key: TestKey;

beforeAll(async () => {
  if (skip) return;
  chain = await startLocalChain({ initialDate: new Date(Date.now() - SCENARIO_START_DAYS_AGO * 86_400_000) });
  h = await startHarness({ rpcUrls: { 1: chain.url }, ingestConfirmations: 0 });
  world = await replayDemo(h.app, chain);
  sc = world.scenario;
  key = await createKey(h.app, 'Starter');
}, REPLAY_TIMEOUT);
afterAll(async () => {
  await h?.close();
  await chain?.stop();
});

/** The page's dollar figure: whole dollars with thousands separators from $1,000, cents below. */
const dollars = (n: number) => `$${n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)}`;

describe.skipIf(skip)('score cards: conduct and backing in words', { timeout: 120_000 }, () => {
  it('a wallet whose conduct exceeds its score reads both, as the API answers them, at 1280 and 375 px', async () => {
    const address = sc.wallets.trader;
    const res = await h.app.inject({ method: 'GET', url: `/api/v1/reputation/${address}?explain=true`, headers: key.headers });
    expect(res.statusCode).toBe(200);
    const entries = res.json().scores as Entry[];
    const api = Object.fromEntries(entries.map((e) => [e.category, e])) as Record<string, Entry>;
    const held = api.DEFI_TRADING;
    // the case under test exists: conduct above the score, a score above 0, held by its backing on the published curve
    expect(held.conduct).toBeGreaterThan(held.score);
    expect(held.score).toBeGreaterThan(0);
    expect(held.score).toBe(Math.min(held.conduct, ceilingFor(held.backingUsd!)));
    const full = entries.find((e) => e.category !== 'OVERALL' && e.backingUsd !== null && e.conduct === e.score && e.score > 0);
    expect(full, 'a fully backed category').toBeDefined();

    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 800 },
    ]) {
      const w = await walletPage(h, demoWalletKeys(sc.wallets).trader as `0x${string}`, viewport);
      expect(w.account.address.toLowerCase()).toBe(address);
      await w.page.goto(`${h.base}/console/`);
      await w.page.getByRole('button', { name: 'Sign in with wallet' }).click();
      const card = w.page.locator('article[data-testid=score-DEFI_TRADING]');
      await card.waitFor();

      // the held category: its number is the score, and its words give the conduct, the score and the backing
      expect(await card.locator('.value').textContent()).toBe(String(held.score));
      const line = card.locator('p.conduct');
      expect(await line.isVisible()).toBe(true);
      const text = ((await line.textContent()) ?? '').replace(/\s+/g, ' ').trim();
      expect(text).toContain(`Conduct ${held.conduct}: how this wallet behaves.`);
      expect(text).toContain(`Held to ${held.score} because faking it would have cost only ${dollars(held.backingUsd!)}`);
      expect(text).toContain('Capital merely held counts for nothing here.');
      // nothing on the line contradicts the entry: every number on it is the conduct, the score or the backing
      const numbers = text.match(/\$?\d[\d,]*(\.\d+)?/g)!.map((n) => n.replace(/[$,]/g, ''));
      expect(new Set(numbers)).toEqual(new Set([String(held.conduct), String(held.score), dollars(held.backingUsd!).replace(/[$,]/g, '')]));
      // the ceiling factor beside it says the same figures
      const factors = (await card.locator('ul.factors').textContent()) ?? '';
      expect(factors).toContain(`${held.conduct} points of conduct held to ${held.score}`);

      // a fully backed category says so, with its own backing; a verification category is not held to a cost
      const fullLine = ((await w.page.locator(`article[data-testid=score-${full!.category}] p.conduct`).textContent()) ?? '').replace(
        /\s+/g,
        ' ',
      );
      expect(fullLine).toContain(`Conduct ${full!.conduct}, fully backed: ${dollars(full!.backingUsd!)} lost and not recoverable`);
      expect(await w.page.locator('article[data-testid=score-COMPLIANCE] p.conduct').textContent()).toMatch(
        /Verification by others, not activity: not held to what it cost\./,
      );
      // every held card on the page names its own entry's figures
      for (const e of entries.filter((x) => x.category !== 'OVERALL' && x.backingUsd !== null && x.conduct > x.score)) {
        const t = ((await w.page.locator(`article[data-testid=score-${e.category}] p.conduct`).textContent()) ?? '').replace(/\s+/g, ' ');
        expect(t, e.category).toContain(
          `Conduct ${e.conduct}: how this wallet behaves. Held to ${e.score} because faking it would have cost only ${dollars(e.backingUsd!)}`,
        );
      }

      // at 375 px the line stays inside the card and the viewport
      const box = (await line.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      await expectAccessible(w.page, `conduct ${viewport.width}`);
      if (viewport.width === 1280) await shoot(w.page, 'owner-conduct');
      expect(w.foreign).toEqual([]);
      await w.context.close();
    }
  });

  it('the history chart and its table show the replayed year', async () => {
    const address = sc.wallets.borrower;
    const changes = world.history.borrower;
    const span = changes.at(-1)!.calculatedAt.getTime() - changes[0].calculatedAt.getTime();
    expect(span).toBeGreaterThan(270 * 86_400_000);
    const w = await walletPage(h, demoWalletKeys(sc.wallets).borrower as `0x${string}`);
    expect(w.account.address.toLowerCase()).toBe(address);
    await w.page.goto(`${h.base}/console/`);
    await w.page.getByRole('button', { name: 'Sign in with wallet' }).click();
    await w.page.locator('[data-testid=history-chart] canvas').waitFor();
    // one line per category that changed, as the API's history has them
    const changed = new Set(changes.map((c) => c.category));
    expect(await w.page.locator('[data-testid=history-chart] .u-legend .u-series').count()).toBe(changed.size + 1);
    // the table under it: every change, dated when the score was computed, over the replayed year
    const section = w.page.locator('#history');
    await section.getByText(`${changes.length} changes as a table`).click();
    const dates = (await section.locator('tbody tr td:first-child').allTextContents()).map((t) => Date.parse(t));
    expect(dates).toHaveLength(Math.min(50, changes.length));
    expect(dates.every((d) => Number.isFinite(d))).toBe(true);
    expect(Math.max(...dates) - Math.min(...dates)).toBeGreaterThan(270 * 86_400_000);
    // to the minute (the page shows seconds in the browser's time zone, the same machine's)
    expect(Math.abs(Math.min(...dates) - changes.at(-Math.min(50, changes.length))!.calculatedAt.getTime())).toBeLessThan(60_000);
    await expectAccessible(w.page, 'history of a replayed year');
    await shoot(w.page, 'owner-history-year');
    expect(w.foreign).toEqual([]);
    await w.context.close();
  });
});
