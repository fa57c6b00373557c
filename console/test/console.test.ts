// The console driven end to end in headless Chromium, one role after another on one service: a wallet owner
// (sign in with the injected wallet, scores and history chart, dispute a claim, file a dispute, DID, proof and
// its verify link), a developer (keys: create, rotate; checkout upgrade; webhook with a delivery that fails, is
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

async function createConsoleKey(w: WalletPage) {
  await w.page.fill('input[name=contactEmail]', `owner-${randomBytes(4).toString('hex')}@example.com`);
  await w.page.getByRole('button', { name: 'Create a Free key' }).click();
}

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
    await signInThroughPage(owner);
    await createConsoleKey(owner);

    await owner.page.locator('[data-testid^=score-]').first().waitFor();
    expect(await owner.page.locator('[data-testid^=score-]').count()).toBe(9);
    const social = owner.page.getByTestId('score-SOCIAL');
    await expect.poll(() => social.textContent()).toContain('640');
    expect(await social.textContent()).toMatch(/High.*Confidence \d+%.*coverage/s);
    await social.getByText('What would raise this score').click();
    expect(await social.textContent()).toContain('counterparties');
    // the history chart is drawn (uPlot canvas) with one line per category that has changes
    await owner.page.locator('[data-testid=history-chart] canvas').waitFor();
    expect(await owner.page.locator('[data-testid=history-chart] .u-legend .u-series').count()).toBeGreaterThan(1);

    // the claim against me: an empty reason shows the API's details, a real one disputes it
    const claimRow = owner.page.getByTestId('claim');
    await claimRow.getByRole('button', { name: 'Dispute this claim' }).click();
    await expect.poll(() => owner.page.getByTestId('claim-error').textContent()).toMatch(/reason/i);
    await claimRow.locator('textarea[name=claimReason]').fill('I paid this invoice in full on chain.');
    await claimRow.getByRole('button', { name: 'Dispute this claim' }).click();
    await expect.poll(() => claimRow.getByTestId('claim-status').textContent()).toBe('Disputed');

    // file a dispute and follow it
    await owner.page.selectOption('select[name=category]', 'DEFI_TRADING');
    await owner.page.selectOption('select[name=reason]', 'MissingActivity');
    await owner.page.fill('textarea[name=description]', 'My Uniswap swaps on Arbitrum are not counted.');
    await owner.page.getByRole('button', { name: 'File dispute' }).click();
    await owner.page.getByTestId('dispute-file-ok').waitFor();
    await expect.poll(async () => (await owner.page.getByTestId('dispute').allTextContents()).join('\n')).toMatch(/DeFi trading.*Pending/);

    await expectAccessible(owner.page, 'owner');
    await shoot(owner.page, 'owner');
    expect(owner.foreign).toEqual([]);
  });

  it('wallet owner: registers a DID, sees credentials and KYC status, proves a score and verifies it by its link', async () => {
    const { page } = owner;
    await page.getByRole('button', { name: 'Register my DID' }).click();
    await expect.poll(() => page.getByTestId('did').textContent()).toBe(`did:credence:1:${owner.account.address.toLowerCase()}`);
    await page.getByText('No credentials issued to this DID.').waitFor();
    await expect.poll(() => page.getByTestId('kyc-status').textContent()).toBe('Not started.');

    await page.selectOption('select[name=proofCategory]', 'SOCIAL');
    await page.fill('input[name=threshold]', '600');
    await page.getByRole('button', { name: 'Generate proof' }).click();
    await page.getByTestId('proof-result').waitFor({ timeout: 45_000 });
    await page.getByTestId('verify-link').click();
    await page.waitForURL(/\/console\/verify#proof=0x/);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByTestId('verify-result').textContent()).toContain(`Valid: a proof about ${owner.account.address}`);
    await expectAccessible(page, 'verify');
    await shoot(page, 'verify');
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
    await page.locator('[data-testid=usage-chart] canvas').waitFor();
    expect(await page.getByTestId('usage-chart').getAttribute('aria-label')).toContain('monthly quota of 100');
    expect(await page.locator('[data-testid=usage-chart] .u-legend').textContent()).toMatch(/Queries per day.*This month so far.*Monthly quota/s);
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
    await expect.poll(() => hook.getByTestId('webhook-action-ok').textContent()).toContain('1 delivery(ies) queued again');
    await until(async () => (await status()) === 'delivered', 'the replayed delivery', { between: refresh });
    expect(await hook.getByTestId('deliveries-table').textContent()).toContain('HTTP 200');
    expect(receiver.received.length).toBe(4);
    expect(JSON.parse(receiver.received[3].body).event).toBe('webhook.test');

    // live tail: a score change of the followed wallet arrives through the hub
    await page.getByRole('button', { name: 'Start' }).click();
    await expect.poll(() => page.getByTestId('tail-state').textContent()).toBe('Hub: live');
    await reviseScore(dev.account.address, 333);
    await expect.poll(() => page.getByTestId('tail-events').textContent(), { timeout: 15_000 }).toContain('333');

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
    await createConsoleKey(admin);
    await page.locator('[data-testid^=score-]').first().waitFor();
    await page.getByRole('link', { name: 'Admin' }).click();

    // the queue: every wallet's open disputes, newest first; reject one from there
    const queued = page.getByTestId('admin-dispute').filter({ hasText: otherId });
    await expect.poll(() => queued.getByTestId('admin-dispute-status').textContent()).toBe('Pending');
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
    await expect.poll(async () => (await page.getByTestId('audit-entry').filter({ hasText: `dispute:${otherId}` }).allTextContents()).join('\n')).toMatch(/dispute\.status.*"to":"Rejected"/);
    await page.fill('input[name=auditTarget]', `dispute:${otherId}`);
    await page.getByRole('button', { name: 'Show entries' }).click();
    await expect.poll(() => page.getByTestId('audit-entry').count()).toBe(1);
    expect(await page.getByTestId('audit-action').textContent()).toBe('dispute.status');
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
    const file = path.join(tmpdir(), `sdn_advanced-${randomBytes(4).toString('hex')}.xml`);
    writeFileSync(file, fileText(advancedXml(new Date('2026-01-15T00:00:00Z'), [{ id: 41001, name: 'TEST ENTITY', addresses: [{ ticker: 'ETH', address: randomAddress() }] }])));
    await page.setInputFiles('input[name=sdnFile]', file);
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => page.getByTestId('sanctions-upload-ok').textContent(), { timeout: 20_000 }).toMatch(/Imported version \d+ \(1 entries\)/);
    expect(await page.getByTestId('upload-progress').getAttribute('value')).toBe('1');
    await expect.poll(() => page.getByTestId('sanctions-current').textContent()).toMatch(/In force: version/);

    await expectAccessible(page, 'admin');
    await shoot(page, 'admin');
    expect(admin.foreign).toEqual([]);
    await admin.context.close();
  });
});
