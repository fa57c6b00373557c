// The console's shared paging widget (ui/widgets.tsx: usePaged + LoadMore) in Chromium, on the admin page: the
// disputes queue (20 a page) and the audit log (25 a page) load their next page on "Load more", the button goes
// away on the last page, and a new filter starts again from its first page.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWallet, createKey, randomAddress, signInAdmin, type TestKey } from '../../test/helpers/app.js';
import { CHROMIUM, startHarness, walletPage, type Harness } from './browser.js';

const skip = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;

let h: Harness;
let starter: TestKey;
beforeAll(async () => {
  if (skip) return;
  h = await startHarness();
  starter = await createKey(h.app, 'Starter');
});
afterAll(async () => {
  await h?.close();
});

const inject = (opts: Parameters<Harness['app']['inject']>[0]) => h.app.inject(opts as never);

/** A dispute about a random wallet, moved to Under Review by the admin (an audit entry each). */
async function disputeUnderReview(category: string, n: number, auth: Record<string, string>) {
  const d = await inject({
    method: 'POST',
    url: '/api/v1/dispute',
    headers: starter.headers,
    payload: { walletAddress: randomAddress(), category, reason: 'Other', description: `A wrong score, number ${n}.` },
  });
  expect(d.statusCode).toBe(201);
  const r = await inject({ method: 'PUT', url: `/api/v1/dispute/${d.json().id}/status`, headers: auth, payload: { status: 'Under Review' } });
  expect(r.statusCode).toBe(200);
}

describe.skipIf(skip)('paged lists in Chromium', { timeout: 120_000 }, () => {
  it('the disputes queue and the audit log load more pages, and a filter starts from its first page', async () => {
    const admin = await signInAdmin(h.app);
    for (let i = 0; i < 23; i++) await disputeUnderReview('NFT', i, admin.auth);
    for (let i = 0; i < 5; i++) await disputeUnderReview('SOCIAL', i, admin.auth);

    const w = await walletPage(h, adminWallet.privateKey as `0x${string}`);
    const { page } = w;
    await page.goto(`${h.base}/console/admin`);
    await page.getByRole('button', { name: 'Sign in with wallet' }).click();
    const rows = page.getByTestId('admin-dispute');
    const more = page.getByRole('button', { name: 'Load more disputes' });
    await expect.poll(() => rows.count()).toBe(20);
    expect(await page.getByTestId('queue-count').textContent()).toBe('28 disputes match.');
    await more.click();
    await expect.poll(() => rows.count()).toBe(28);
    expect(await more.count()).toBe(0);

    const entries = page.getByTestId('audit-entry');
    await expect.poll(() => entries.count()).toBe(25);
    await page.getByRole('button', { name: 'Load more entries' }).click();
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(28);

    // a category chosen: its disputes alone, one page; "Any" again: the first page of all of them
    await page.selectOption('select[name=queueCategory]', 'SOCIAL');
    await page.getByRole('button', { name: 'Show disputes' }).click();
    await expect.poll(() => page.getByTestId('queue-count').textContent()).toBe('5 disputes match.');
    await expect.poll(() => rows.count()).toBe(5);
    expect(await more.count()).toBe(0);
    await page.selectOption('select[name=queueCategory]', '');
    await page.getByRole('button', { name: 'Show disputes' }).click();
    await expect.poll(() => page.getByTestId('queue-count').textContent()).toBe('28 disputes match.');
    await expect.poll(() => rows.count()).toBe(20);
    expect(await more.count()).toBe(1);
    await w.context.close();
  });
});
