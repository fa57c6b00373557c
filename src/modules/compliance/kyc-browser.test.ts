// A KYC session driven end to end through the built-in provider page in a real headless Chromium, then the
// status and zero-knowledge age proofs that the approval enables.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { createKey, createTestApp, signIn, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { signLocal } from './providers/local.js';

const CHROMIUM = process.env.CREDENCE_CHROMIUM_PATH ?? '/usr/bin/chromium';
// Skipped only where no browser is installed and the run does not demand every service.
const skip = !existsSync(CHROMIUM) && !process.env.CREDENCE_REQUIRE_SERVICES;
const SECRET = 'browser-test-secret';

let app: App;
let base: string;
let key: TestKey;
let browser: Browser | null = null;

beforeAll(async () => {
  if (skip) return;
  app = await createTestApp({ config: { kycCallbackSecret: SECRET } });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  key = await createKey(app, 'Enterprise');
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
});

async function startSession() {
  const owner = await signIn(app);
  const did = (await app.inject({ method: 'POST', url: '/api/v1/identity/register', payload: { walletAddress: owner.address } })).json()
    .did;
  const session = (
    await app.inject({ method: 'POST', url: '/api/v1/compliance/kyc/initiate', headers: owner.auth, payload: { did } })
  ).json();
  return { owner, did, session };
}
const status = async (did: string) =>
  (await app.inject({ method: 'GET', url: `/api/v1/compliance/kyc/${did}/status`, headers: key.headers })).json();
const verifyAge = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/compliance/verify-age', headers: key.headers, payload });
const ageVerify = (payload: object) => app.inject({ method: 'POST', url: '/api/v1/compliance/age-verify', headers: key.headers, payload });

describe.skipIf(skip)('KYC through the built-in page in headless Chromium', () => {
  it('approves with a birth date, after which status and age proofs work', async () => {
    const { owner, did, session } = await startSession();
    expect((await status(did)).status).toBe('pending');

    const page = await browser!.newPage();
    try {
      // redirectUrl is built on the public URL; the browser reaches this test server at its own address.
      const url = new URL(session.redirectUrl);
      await page.goto(`${base}${url.pathname}`);
      expect(await page.textContent('#session-id')).toBe(session.sessionId);
      // Approving without a birth date is refused on the page and changes nothing.
      await page.click('#approve');
      await page.waitForSelector('#error');
      expect((await status(did)).status).toBe('pending');

      await page.fill('#birthDate', '1990-05-20');
      await page.selectOption('#level', 'full');
      await page.click('#approve');
      const result = await page.waitForSelector('#result');
      expect(await result.getAttribute('data-status')).toBe('approved');
    } finally {
      await page.close();
    }
    expect(await status(did)).toMatchObject({ did, status: 'approved', kycLevel: 'full' });

    const proofs = app.ctx.services.proofs;
    const adult = await verifyAge({ walletAddress: owner.address, minimumAge: 21 });
    if (!proofs) {
      expect(adult.statusCode).toBe(503);
      return;
    }
    expect(adult.statusCode).toBe(200);
    expect(adult.json()).toMatchObject({ minimumAge: 21, verified: true, proof: expect.stringMatching(/^0x[0-9a-f]+$/), reason: null });
    expect(adult.json().publicInputs).toMatchObject({ minimumAge: 21 });
    // The proof stands on its own at the proof verification route.
    const check = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/verify',
      headers: key.headers,
      payload: { proof: adult.json().proof },
    });
    expect(check.statusCode).toBe(200);
    expect(check.json()).toMatchObject({ valid: true });

    const defaults = await verifyAge({ walletAddress: owner.address.toLowerCase() });
    expect(defaults.json()).toMatchObject({ minimumAge: 21, verified: true });
    const tooOld = await verifyAge({ walletAddress: owner.address, minimumAge: 150 });
    expect(tooOld.statusCode).toBe(200);
    expect(tooOld.json()).toMatchObject({ minimumAge: 150, verified: false, proof: null, reason: 'under_minimum_age' });

    const ca = await ageVerify({ walletAddress: owner.address.toLowerCase(), jurisdictionCode: 'us-ca' });
    expect(ca.statusCode).toBe(200);
    expect(ca.json()).toMatchObject({
      walletAddress: owner.address,
      jurisdictionCode: 'US-CA',
      minimumAge: 21,
      verified: true,
      proof: expect.stringMatching(/^0x/),
    });
    const de = await ageVerify({ walletAddress: owner.address, jurisdictionCode: 'DE-BY' });
    expect(de.json()).toMatchObject({ jurisdictionCode: 'DE-BY', minimumAge: 18, verified: true });
    const explicit = await ageVerify({ walletAddress: owner.address, jurisdictionCode: 'DE-BY', minimumAge: 150 });
    expect(explicit.json()).toMatchObject({ minimumAge: 150, verified: false, proof: null });
    // 21, 150 and 18 asked: a fourth different minimum would narrow the age down, and is refused (age privacy)
    expect((await ageVerify({ walletAddress: owner.address, jurisdictionCode: 'DE-BY', minimumAge: 99 })).statusCode).toBe(403);
  });

  it('records a rejection made on the page', async () => {
    const { owner, did, session } = await startSession();
    const page = await browser!.newPage();
    try {
      await page.goto(`${base}${new URL(session.redirectUrl).pathname}`);
      await page.click('#reject');
      expect(await (await page.waitForSelector('#result')).getAttribute('data-status')).toBe('rejected');
    } finally {
      await page.close();
    }
    expect(await status(did)).toMatchObject({ status: 'rejected', kycLevel: 'none' });
    expect((await verifyAge({ walletAddress: owner.address })).json()).toMatchObject({
      verified: false,
      proof: null,
      reason: 'no_approved_kyc',
    });
  });

  it('a minor approved by the provider is not verified for 18', async () => {
    const { owner, session } = await startSession();
    const now = new Date();
    const birth = `${now.getUTCFullYear() - 17}-01-01`;
    const body = JSON.stringify({ eventId: randomUUID(), sessionId: session.sessionId, status: 'approved', birthDate: birth });
    const res = await app.inject({
      method: 'POST',
      url: `/api/v1/compliance/kyc/callback/${encodeURIComponent(session.provider)}`,
      headers: { 'content-type': 'application/json', 'x-credence-kyc-signature': signLocal(SECRET, body) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const r = await ageVerify({ walletAddress: owner.address, jurisdictionCode: 'FR-75' });
    if (!app.ctx.services.proofs) return expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ minimumAge: 18, verified: false, proof: null, reason: 'under_minimum_age' });
    expect((await ageVerify({ walletAddress: owner.address, jurisdictionCode: 'FR-75', minimumAge: 16 })).json()).toMatchObject({
      verified: true,
    });
  });
});
