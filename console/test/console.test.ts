// The console driven end to end in headless Chromium, one role after another on one service: a wallet owner
// (sign in with the injected wallet and nothing else: no API key; a wallet nobody read shown once as unscored;
// scores, OVERALL's breakdown and history chart; dispute a claim, file a dispute, DID, proof and its verify link
// stating what it proves, a tampered proof invalid), a developer (keys: create, rotate; checkout upgrade; webhook with a delivery that fails, is
// replayed and arrives; usage by day against the quota; live tail through the hub) and an admin (the disputes queue
// with an action that the audit log then shows, dispute review with a revised score, revisions, sanctions upload
// with progress). Every page is checked with axe-core and at 375 px, and photographed.
import { existsSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminWallet, createKey, randomAddress, signInAdmin, type TestKey } from '../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../test/helpers/receiver.js';
import { advancedXml, fileText } from '../../src/modules/sanctions/sdn-files.js';
import { CHROMIUM, expectAccessible, shoot, startHarness, until, walletPage, type Harness, type WalletPage } from './browser.js';

// Skipped only where no browser is installed and the run does not demand every service (as the KYC page test).
const skip = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;

let h: Harness;
let starter: TestKey;
let receiver: Receiver;
let owner: WalletPage;

beforeAll(async () => {
  if (skip) return;
  // a short retry schedule (3 attempts) so a failing delivery is given up quickly and can be replayed
  h = await startHarness({ webhookRetrySchedule: [0.05, 0.05] });
  starter = await createKey(h.app, 'Starter');
  receiver = await startReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

const inject = (opts: Parameters<Harness['app']['inject']>[0]) => h.app.inject(opts as never);

/** A score change for `address` made the way an admin makes one: a dispute, then a revised score. */
async function reviseScore(address: string, score: number) {
  const d = await inject({ method: 'POST', url: '/api/v1/dispute', headers: starter.headers, payload: { walletAddress: address, category: 'SOCIAL', reason: 'MissingActivity', description: 'Transfers on Base are missing.' } });
  expect(d.statusCode).toBe(201);
  const admin = await signInAdmin(h.app);
  const r = await inject({ method: 'PUT', url: `/api/v1/dispute/${d.json().id}/status`, headers: admin.auth, payload: { status: 'Resolved', resolutionNotes: 'Checked on Base.', revisedScore: score } });
  expect(r.statusCode).toBe(200);
}

async function signInThroughPage(w: WalletPage, path = '/console/') {
  await w.page.goto(`${h.base}${path}`);
  await w.page.getByRole('button', { name: 'Sign in with wallet' }).click();
  await w.page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** Every request the page sends with an API key or to the key routes, and every KYC status request. */
function watchCredentials(w: WalletPage) {
  const seen = { withKey: [] as string[], keyRoutes: [] as string[], kyc: [] as string[], disputePosts: 0 };
  w.page.on('request', (r) => {
    if (r.headers()['x-api-key']) seen.withKey.push(r.url());
    if (r.url().includes('/api/v1/billing/api-keys')) seen.keyRoutes.push(`${r.method()} ${r.url()}`);
    if (/\/kyc\/[^/]+\/status/.test(r.url())) seen.kyc.push(r.url());
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/dispute')) seen.disputePosts++;
  });
  return seen;
}
let ownerSeen: ReturnType<typeof watchCredentials>;

// each step polls with its own deadline; the whole flow gets room on a loaded CI machine
describe.skipIf(skip)('console in Chromium', { timeout: 150_000 }, () => {
  it('landing page: what the service is, links, health; no request leaves the origin', async () => {
    const w = await walletPage(h);
    await w.page.goto(`${h.base}/`);
    await expect.poll(() => w.page.textContent('#health')).toMatch(/^OK: version/);
    for (const href of ['/console/', '/swagger', '/swagger/v1/swagger.json', '/health']) expect(await w.page.locator(`a[href="${href}"]`).count(), href).toBe(1);
    await expectAccessible(w.page, 'landing');
    await shoot(w.page, 'landing');
    expect(w.foreign).toEqual([]);
    await w.context.close();
  });

  it('wallet owner: signs in, sees nine scores with reasons and the history chart, disputes a claim, files a dispute', async () => {
    owner = await walletPage(h);
    const address = owner.account.address;
    // a scored wallet with history (first read, then a revision) and a debt claim against it
    expect((await inject({ method: 'GET', url: `/api/v1/reputation/${address}`, headers: starter.headers })).statusCode).toBe(200);
    await reviseScore(address, 640);
    const claim = await inject({
      method: 'POST',
      url: '/api/v1/debt-claims',
      payload: { creditorAddress: randomAddress(), debtorAddress: address, claimType: 'UnpaidInvoice', amount: '125.5', currency: 'USDC', description: 'Invoice 42 was never paid.', evidenceTransactionHash: `0x${randomBytes(32).toString('hex')}`, chainId: 1, protocolName: 'Invoices' },
    });
    expect(claim.statusCode).toBe(201);

    // before signing in the page is only the sign-in
    await owner.page.goto(`${h.base}/console/`);
    await expectAccessible(owner.page, 'sign-in');
    await shoot(owner.page, 'sign-in');
    ownerSeen = watchCredentials(owner);
    await signInThroughPage(owner);

    // no key to make: the session reads the wallet's own scores. This service has no chain source: one notice
    // with the way to data, no number the model did not measure, the admin's revision (SOCIAL 640) shown as such
    await owner.page.getByTestId('unscored').waitFor();
    expect(await owner.page.locator('[data-testid^=score-]').count()).toBe(9);
    expect(await owner.page.getByTestId('unscored-how').textContent()).toMatch(/CREDENCE_RPC_URL_.*npm run demo/s);
    const scoresText = (await owner.page.locator('#scores').textContent()) ?? '';
    expect(scoresText.match(/no chain source is configured|no on-chain data was read/gi)).toHaveLength(1);
    for (const c of ['OVERALL', 'COMPLIANCE', 'DEFI_LENDING']) expect(await owner.page.getByTestId(`score-${c}`).textContent(), c).toMatch(/not measured/);
    const social = owner.page.getByTestId('score-SOCIAL');
    await expect.poll(() => social.textContent()).toMatch(/640 High.*administrator/);
    expect(await owner.page.locator('#scores .value').allTextContents()).toEqual(['640']);
    // the history chart is drawn (uPlot canvas) with one line per category that has changes
    await owner.page.locator('[data-testid=history-chart] canvas').waitFor();
    expect(await owner.page.locator('[data-testid=history-chart] .u-legend .u-series').count()).toBeGreaterThan(1);
    await expectAccessible(owner.page, 'owner unscored');
    await shoot(owner.page, 'owner-unscored');

    // the same wallet as if it had been read (the service's answer with coverage complete): nine cards, OVERALL
    // explained from its baseline, what would raise each score
    const scoresRead = (u: URL) => /^\/api\/v1\/reputation\/0x[0-9a-fA-F]{40}$/.test(u.pathname) && u.searchParams.get('explain') === 'true';
    await owner.page.route(scoresRead, async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      for (const e of body.scores) {
        e.coverage = { ...e.coverage, status: 'complete', reason: null };
        e.factors = (e.factors ?? []).filter((f: { code: string }) => f.code !== 'NO_CHAIN_SOURCE');
      }
      await route.fulfill({ response: res, json: body });
    });
    await owner.page.reload();
    await owner.page.locator('article[data-testid=score-OVERALL]').waitFor();
    expect(await owner.page.locator('article[data-testid^=score-]').count()).toBe(9);
    const breakdown = (await owner.page.getByTestId('overall-breakdown').textContent()) ?? '';
    const overall = Number(await owner.page.locator('article[data-testid=score-OVERALL] .value').textContent());
    // the named baseline plus every line of the breakdown is the score
    const baseline = Number(/baseline of (\d+)/.exec(breakdown)?.[1]);
    expect(baseline).toBe(500);
    const lines = await owner.page.locator('[data-testid=overall-breakdown] li').allTextContents();
    expect(lines.at(-1)).toBe(`= ${overall}`);
    const pulls = lines.slice(1, -1).map((l) => Number(/^([+-]\d+|0)/.exec(l)![1]));
    expect(baseline + pulls.reduce((a, b) => a + b, 0)).toBe(overall);
    expect(lines.join('\n')).toMatch(/DeFi lending \(credit history\): \d+, weight \d+%/);
    expect(await owner.page.getByTestId('score-SOCIAL').textContent()).toMatch(/640 High.*Confidence \d+%.*coverage complete/s);
    await owner.page.getByTestId('score-SOCIAL').getByText('What would raise this score').click();
    expect(await owner.page.getByTestId('score-SOCIAL').textContent()).toContain('counterparties');
    await expectAccessible(owner.page, 'owner scored');
    await owner.page.unroute(scoresRead);
    await owner.page.reload();
    await owner.page.getByTestId('unscored').waitFor();

    // the claim against me: a reason under 10 characters is refused in the page, a real one disputes it
    // the claims load apart from the scores after the reload: poll until they are in
    await expect.poll(() => owner.page.locator('#claims').textContent()).toContain('1 claim;');
    const claimRow = owner.page.getByTestId('claim');
    await claimRow.locator('textarea[name=claimReason]').fill('paid');
    await claimRow.getByRole('button', { name: 'Dispute this claim' }).click();
    await expect.poll(() => owner.page.getByTestId('claim-error').textContent()).toMatch(/reason needs at least 10 characters \(only 4 characters/i);
    await claimRow.locator('textarea[name=claimReason]').fill('I paid this invoice in full on chain.');
    await claimRow.getByRole('button', { name: 'Dispute this claim' }).click();
    await expect.poll(() => claimRow.getByTestId('claim-status').textContent()).toBe('Disputed');

    // file a dispute and follow it: the fields come before the button; a short description is refused in the page
    const form = owner.page.getByRole('form', { name: 'File a dispute' });
    const fieldsY = Math.max(...(await Promise.all(['select[name=category]', 'textarea[name=description]', 'textarea[name=evidence]'].map(async (sel) => (await form.locator(sel).boundingBox())!.y))));
    expect((await form.getByRole('button', { name: 'File dispute' }).boundingBox())!.y).toBeGreaterThan(fieldsY);
    await owner.page.fill('textarea[name=description]', 'Wrong');
    await owner.page.getByRole('button', { name: 'File dispute' }).click();
    await expect.poll(() => owner.page.getByTestId('dispute-file-error').textContent()).toMatch(/at least 10 characters/);
    expect(ownerSeen.disputePosts).toBe(0);
    await owner.page.selectOption('select[name=category]', 'DEFI_TRADING');
    await owner.page.selectOption('select[name=reason]', 'MissingActivity');
    await owner.page.fill('textarea[name=description]', 'My Uniswap swaps on Arbitrum are not counted.');
    await owner.page.getByRole('button', { name: 'File dispute' }).click();
    await owner.page.getByTestId('dispute-file-ok').waitFor();
    await expect.poll(async () => (await owner.page.getByTestId('dispute').allTextContents()).join('\n')).toMatch(/DeFi trading.*Pending/);

    await expectAccessible(owner.page, 'owner');
    await shoot(owner.page, 'owner');
    expect(owner.foreign).toEqual([]);
    // all of it with the session alone: no key made, none sent, no KYC status asked
    expect(ownerSeen.withKey).toEqual([]);
    expect(ownerSeen.keyRoutes).toEqual([]);
    expect(ownerSeen.kyc).toEqual([]);
  });

  it('wallet owner: registers a DID, sees credentials and KYC status, proves a score and verifies it by its link', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Register my DID' }).click();
    await expect.poll(() => page.getByTestId('did').textContent()).toBe(`did:credence:1:${owner.account.address.toLowerCase()}`);
    await page.getByText('No credentials issued to this DID.').waitFor();
    // the KYC status is asked only when the person asks (never a 404 on every page load)
    expect(await page.getByTestId('kyc-status').textContent()).toBe('No identity verification started from this browser.');
    expect(ownerSeen.kyc).toEqual([]);
    await page.getByRole('button', { name: 'Check my KYC status' }).click();
    await expect.poll(() => page.getByTestId('kyc-status').textContent()).toBe('Not started.');

    await page.selectOption('select[name=proofCategory]', 'SOCIAL');
    await page.fill('input[name=threshold]', '600');
    await page.getByRole('button', { name: 'Generate proof' }).click();
    await page.getByTestId('proof-result').waitFor({ timeout: 45_000 });
    await page.getByTestId('verify-link').click();
    await page.waitForURL(/\/console\/verify#proof=0x/);
    await page.getByRole('button', { name: 'Verify' }).click();
    // what was proven: the claim, its category and threshold, whose it is and until when
    await expect.poll(() => page.getByTestId('verify-claim').textContent()).toBe('that its Social score is at least 600 (of 1000)');
    expect(await page.getByTestId('verify-category').textContent()).toBe('SOCIAL');
    expect(await page.getByTestId('verify-threshold').textContent()).toBe('600');
    expect(await page.getByTestId('verify-subject').textContent()).toBe(owner.account.address);
    expect(Date.parse((await page.getByTestId('verify-expiry').textContent()) ?? '')).toBeGreaterThan(Date.now());
    await expectAccessible(page, 'verify');
    await shoot(page, 'verify');
    // the same proof with its expiry rewritten to 1970: not a valid proof (its Groth16 check), not "expired"
    const p = (await page.locator('textarea[name=proof]').inputValue()).trim();
    await page.fill('textarea[name=proof]', `${p.slice(0, 2 + 13 * 64)}${'1'.padStart(64, '0')}`);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByTestId('verify-result').textContent()).toBe('Not valid: invalid Groth16 proof.');
    expect(ownerSeen.withKey).toEqual([]);
    await owner.context.close();
  });

  it('developer: creates and rotates keys, upgrades by checkout, registers a webhook, sees a failed delivery replayed and arrive, tails the hub', async () => {
    const dev = await walletPage(h);
    const { page } = dev;
    await signInThroughPage(dev, '/console/developer');
    await page.fill('input[name=keyOrganization]', 'Acme Lending');
    await page.fill('input[name=keyEmail]', 'dev@acme.example');
    await page.getByRole('button', { name: 'Create key' }).click();
    const first = await page.getByTestId('new-key-value').textContent();
    expect(first).toMatch(/^cred_live_/);
    await page.getByRole('button', { name: 'Use in this console' }).click();
    await expect.poll(() => page.getByTestId('plan-tier').textContent()).toContain('Free');

    // usage by day: the chart (uPlot canvas) against the Free plan's quota, and the same figures as a table
    // per day against the quota's even daily share (100 a month: 3.2-3.6 a day), the month's total against the quota
    await page.locator('[data-testid=usage-chart] canvas').waitFor();
    expect(await page.getByTestId('usage-chart').getAttribute('aria-label')).toMatch(/Queries per day.*even share of the quota \(3\.[2-6] a day\)/);
    expect(await page.locator('[data-testid=usage-chart] .u-legend').textContent()).toMatch(/Queries per day.*Even daily share of the quota/s);
    expect(await page.getByTestId('usage-month-chart').getAttribute('aria-label')).toContain('monthly quota of 100');
    expect(await page.locator('[data-testid=usage-month-chart] .u-legend').textContent()).toMatch(/This month so far.*Monthly quota/s);
    await page.getByText('Usage by day as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.locator('[data-testid=usage-table] tbody tr').count()).toBe(30);
    expect(await page.locator('[data-testid=usage-table] tbody tr').first().locator('td').first().textContent()).toBe(today);

    // a Free key cannot register webhooks: the API's details are shown
    await page.fill('input[name=webhookUrl]', receiver.url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await expect.poll(() => page.getByTestId('webhook-create-error').textContent()).toMatch(/Starter|tier|plan/i);

    // upgrade through the checkout (the built-in payment provider's page), back to the console
    await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
    await page.waitForURL(/checkout\/local\//);
    await page.click('#pay');
    await page.waitForURL(/\/console\/developer/);
    await expect.poll(() => page.getByTestId('plan-tier').textContent(), { timeout: 15_000 }).toContain('Starter');

    // rotate: a new secret, the old one kept for the grace period
    await page.getByTestId('key-row').first().getByRole('button', { name: 'Rotate' }).click();
    const rotated = await page.getByTestId('new-key-value').textContent();
    expect(rotated).toMatch(/^cred_live_/);
    expect(rotated).not.toBe(first);
    await expect.poll(() => page.getByTestId('keys-ok').textContent()).toMatch(/rotated/);
    await page.getByRole('button', { name: 'Use in this console' }).click();
    await expect.poll(() => page.getByTestId('plan-tier').textContent()).toContain('Starter');

    // the receiver refuses the first three attempts (the whole schedule), then accepts
    let accept = false;
    receiver.respond = () => ({ status: accept ? 200 : 500 });
    await page.fill('input[name=webhookUrl]', receiver.url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    const hook = page.getByTestId('webhook').first();
    await hook.getByRole('button', { name: 'Send test event' }).click();
    const status = () => hook.getByTestId('delivery-status').first().textContent();
    const refresh = () => hook.getByRole('button', { name: 'Refresh deliveries' }).click();
    await until(async () => (await hook.getByTestId('delivery-status').count()) > 0 && (await status()) === 'failed', 'the delivery to fail', { between: refresh });
    expect(await hook.getByTestId('deliveries-table').textContent()).toContain('HTTP 500');
    expect(receiver.received.length).toBe(3);
    accept = true;
    await hook.getByRole('button', { name: 'Replay undelivered' }).click();
    expect(await hook.getByTestId('webhook-last-delivery').textContent()).toBe('—');
    await expect.poll(() => hook.getByTestId('webhook-action-ok').textContent()).toContain('1 delivery queued again');
    // the page follows the delivery by itself, and the webhook's last delivery with it
    await expect.poll(() => status(), { timeout: 20_000 }).toBe('delivered');
    await expect.poll(() => hook.getByTestId('webhook-last-delivery').textContent()).not.toBe('—');
    expect(receiver.received.length).toBe(4);
    expect(JSON.parse(receiver.received[3].body).event).toBe('webhook.test');

    // live tail: a score change of the followed wallet arrives through the hub
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.getByTestId('tail-state').textContent()).toBe('Hub: live');
    await reviseScore(dev.account.address, 333);
    await expect.poll(() => page.getByTestId('tail-events').textContent(), { timeout: 15_000 }).toContain('333');
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => page.getByTestId('tail-state').textContent()).toMatch(/^Hub: stopped/);

    // at 375 px every Rotate and Revoke button is on screen (the keys table is one block per key there)
    await page.setViewportSize({ width: 375, height: 800 });
    for (const b of await page.getByTestId('keys-table').getByRole('button').all()) {
      await b.scrollIntoViewIfNeeded();
      const box = (await b.boundingBox())!;
      expect(box.x, await b.textContent()).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await b.textContent()).toBeLessThanOrEqual(375);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // a test key: the sandbox banner, no upgrade offer, no error wall (test webhooks work)
    await page.fill('input[name=keyOrganization]', 'Acme Lending');
    await page.fill('input[name=keyEmail]', 'dev@acme.example');
    await page.selectOption('select[name=environment]', 'test');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByTestId('new-key-value').textContent()).toMatch(/^cred_test_/);
    await page.getByRole('button', { name: 'Use in this console' }).click();
    await page.getByTestId('sandbox-banner').waitFor();
    await expect.poll(() => page.getByTestId('plan-tier').textContent()).toContain('(test)');
    await page.getByText('No webhooks.').waitFor();
    expect(await page.getByRole('button', { name: /Upgrade/ }).count()).toBe(0);
    expect(await page.locator('[role=alert]').allTextContents()).toEqual([]);
    await page.fill('input[name=webhookUrl]', receiver.url);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    await page.getByTestId('webhook-secret').waitFor();
    await expectAccessible(page, 'developer sandbox');
    await shoot(page, 'developer-sandbox');

    // the replayed delivery's successful attempt is recorded with its HTTP 200 (checked last, through the API:
    // the steps above do not depend on it)
    const liveHeaders = { 'x-api-key': rotated! };
    const hookId = (await inject({ method: 'GET', url: '/api/v1/webhooks', headers: liveHeaders })).json().webhooks[0].id as string;
    const attempts = (await inject({ method: 'GET', url: `/api/v1/webhooks/${hookId}/deliveries`, headers: liveHeaders })).json().deliveries[0].attempts as { statusCode: number | null }[];
    expect(attempts.map((t) => t.statusCode)).toContain(200);

    await expectAccessible(page, 'developer');
    await shoot(page, 'developer');
    expect(dev.foreign).toEqual([]);
    await dev.context.close();
  });

  it('admin: acts on the disputes queue and sees it in the audit log, reviews a wallet’s dispute with a revised score, sees the revision, uploads a sanctions list with progress', async () => {
    const wallet = randomAddress();
    const d = await inject({ method: 'POST', url: '/api/v1/dispute', headers: starter.headers, payload: { walletAddress: wallet, category: 'GOVERNANCE', reason: 'MissingActivity', description: 'My ENS DAO votes are not counted.' } });
    expect(d.statusCode).toBe(201);
    const other = randomAddress();
    const d2 = await inject({ method: 'POST', url: '/api/v1/dispute', headers: starter.headers, payload: { walletAddress: other, category: 'NFT', reason: 'WrongWallet', description: 'These NFTs were never mine.' } });
    expect(d2.statusCode).toBe(201);
    const otherId = d2.json().id as string;
    const admin = await walletPage(h, adminWallet.privateKey as `0x${string}`);
    const { page } = admin;
    await signInThroughPage(admin);
    await page.locator('[data-testid^=score-]').first().waitFor();
    await page.getByRole('link', { name: 'Admin' }).click();

    // the queue: every wallet's open disputes, newest first; reject one from there
    const queued = page.getByTestId('admin-dispute').filter({ hasText: otherId });
    await expect.poll(() => queued.getByTestId('admin-dispute-status').textContent()).toBe('Pending');
    expect(await queued.textContent()).toContain('wrong wallet');
    expect(await queued.textContent()).not.toContain('WrongWallet');
    expect(await page.getByTestId('admin-dispute').filter({ hasText: d.json().id }).count()).toBe(1);
    // the page full: queue rows with their forms, and the audit log's entries of the earlier steps
    await page.getByTestId('audit-entry').first().waitFor();
    await expectAccessible(page, 'admin queue');
    await shoot(page, 'admin-queue');
    await queued.locator('select[name=adminStatus]').selectOption('Rejected');
    await queued.locator('input[name=resolutionNotes]').fill('Filed for the wrong wallet.');
    await queued.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => queued.count()).toBe(0);
    // the audit log shows the action (it reloads after each action), and finds it by its record
    await expect.poll(async () => (await page.getByTestId('audit-entry').filter({ hasText: `dispute:${otherId}` }).allTextContents()).join('\n')).toMatch(/Dispute status changed.*From Pending to Rejected\..*resolution notes\s*Filed for the wrong wallet\./s);
    expect(await page.getByTestId('audit-entries').textContent()).not.toMatch(/[{}]"/);
    await page.fill('input[name=auditTarget]', `dispute:${otherId}`);
    await page.getByRole('button', { name: 'Show entries' }).click();
    await expect.poll(() => page.getByTestId('audit-entry').count()).toBe(1);
    expect(await page.getByTestId('audit-action').textContent()).toBe('Dispute status changed');
    expect((await page.getByTestId('audit-entry').textContent())?.toLowerCase()).toContain(`admin:${adminWallet.address.toLowerCase()}`);
    // the status filter finds it among the rejected
    await page.selectOption('select[name=queueStatus]', 'Rejected');
    await page.getByRole('button', { name: 'Show disputes' }).click();
    await expect.poll(() => queued.getByTestId('admin-dispute-status').textContent()).toBe('Rejected');
    await page.selectOption('select[name=queueStatus]', 'open');

    await page.fill('input[name=adminWallet]', wallet);
    await page.getByRole('button', { name: 'Show disputes' }).click();
    const row = page.getByTestId('admin-dispute');
    await expect.poll(() => row.getByTestId('admin-dispute-status').textContent()).toBe('Pending');
    // notes over the API's limit: the API's details are shown
    await row.locator('input[name=resolutionNotes]').fill('x'.repeat(2001));
    await row.locator('select[name=adminStatus]').selectOption('Resolved');
    await row.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => page.getByTestId('admin-dispute-error').textContent()).toMatch(/resolutionNotes/);
    await row.locator('input[name=revisedScore]').fill('720');
    await row.locator('input[name=resolutionNotes]').fill('Votes found on mainnet.');
    await row.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(async () => (await page.getByTestId('revisions').textContent()) ?? '').toContain('720');
    await page.getByText('None open.').waitFor();

    // sanctions: none loaded, then an upload of sdn_advanced.xml with its progress
    await expect.poll(() => page.getByTestId('sanctions-current').textContent()).toMatch(/No list loaded/);
    const sdnFile = (name: string, text: string) => {
      const f = path.join(tmpdir(), `${randomBytes(4).toString('hex')}-${name}`);
      writeFileSync(f, text);
      return f;
    };
    const party = (id: number) => ({ id, name: `TEST ENTITY ${id}`, addresses: [{ ticker: 'ETH', address: randomAddress() }] });
    await page.setInputFiles('input[name=sdnFile]', sdnFile('sdn_advanced.xml', fileText(advancedXml(new Date('2026-01-15T00:00:00Z'), Array.from({ length: 12 }, (_, i) => party(41001 + i))))));
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('sanctions-upload-ok').textContent(), { timeout: 20_000 }).toMatch(/Imported version \d+ \(12 entries\)/);
    expect(await page.getByTestId('upload-progress').getAttribute('value')).toBe('1');
    expect(await page.getByTestId('upload-state').textContent()).toBe('Imported');
    await expect.poll(() => page.getByTestId('sanctions-current').textContent()).toMatch(/In force: version.*12 entries/);
    // published 2026-01-15: older than the 30 days allowed, and the page says so
    await expect.poll(() => page.getByTestId('sanctions-stale').textContent()).toMatch(/Out of date.*CREDENCE_SANCTIONS_MAX_AGE_DAYS=30/);

    // a file that is no SDN list: a failure, not a full bar
    await page.setInputFiles('input[name=sdnFile]', sdnFile('sdn.csv', 'hello,world\n'));
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByTestId('sanctions-upload-error').waitFor();
    expect(await page.getByTestId('upload-progress').getAttribute('data-state')).toBe('failed');
    expect(await page.getByTestId('upload-state').textContent()).toBe('Sent, not imported');

    // a current one-entry list (another address) would drop all 12: asked first, replaced only when confirmed
    await page.setInputFiles('input[name=sdnFile]', sdnFile('sdn_advanced.xml', fileText(advancedXml(new Date(), [party(41004)]))));
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('sanctions-confirm').textContent()).toMatch(/would drop 12 of the 12 entries.*keeping 0/);
    expect(await page.getByTestId('upload-state').textContent()).toBe('Sent, not imported');
    expect(await page.getByTestId('sanctions-current').textContent()).toMatch(/12 entries/);
    await expectAccessible(page, 'sanctions confirmation');
    await page.getByRole('button', { name: 'Replace anyway' }).click();
    await expect.poll(() => page.getByTestId('sanctions-upload-ok').textContent(), { timeout: 20_000 }).toMatch(/Imported version \d+ \(1 entry\)/);
    await expect.poll(() => page.getByTestId('sanctions-current').textContent()).toMatch(/In force: version.*1 entry \(/);
    expect(await page.getByTestId('sanctions-stale').count()).toBe(0);

    await expectAccessible(page, 'admin');
    await shoot(page, 'admin');
    expect(admin.foreign).toEqual([]);
    await admin.context.close();
  });
});
