// Sandbox isolation as a rule of the platform, tested route by route FROM THE OPENAPI DOCUMENT: every
// operation is called with test credentials (a cred_test_ key and an admin JWT signed in for the test environment)
// against live records (a dispute, a webhook, a debt claim, an API key, the wallet they are about), and none may
// read or change one. A route added later without isolation fails here. Then, over real sockets: a test key's
// webhook receives only test events while the live one receives the live score.updated; test debt claims stay in
// the sandbox; a sign-in for the test environment works as a test key on every route; the hub sends test events to
// connections opened with test credentials only (the official @microsoft/signalr client); test keys prove against
// sandbox scores, and their proofs never verify as live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as signalR from '@microsoft/signalr';
import { Wallet } from 'ethers';
import { createKey, createTestApp, eventually, randomAddress, signInAdmin, siweSigned, type TestKey } from '../../../test/helpers/app.js';
import { emitScoreChange, scoreChange } from '../../../test/helpers/score-events.js';
import { siweDomainsOf } from '../../modules/auth/service.js';
import { sandboxScores } from '../../modules/scoring/sandbox.js';
import { sandboxKyc } from '../../modules/proofs/sandbox.js';
import { LIVE_PROOF_IN_TEST, SANDBOX_PROOF_IN_LIVE } from '../../modules/proofs/service.js';
import { yyyymmdd } from '../../modules/proofs/encoding.js';
import { createCredenceClient, signIn as sdkSignIn } from '../../../sdk/src/index.js';
import { SANDBOX_SCORE_UPDATED } from '../../modules/hub/index.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { claimBody, claimSettled } from '../../modules/debt-claims/test-helpers.js';
import type { App } from '../http/types.js';

let app: App;
let base: string;
const receivers: Receiver[] = [];
const hubClients: signalR.HubConnection[] = [];
let liveKey: TestKey;
let testKey: { apiKey: string; id: string; headers: { 'x-api-key': string } };
let testAdminJwt: string;
let liveAdminAuth: { authorization: string };
const wallet = randomAddress();
const live = { dispute: '', webhook: '', claim: '', key: '', webhookUrl: '', keyPrefix: '' };
const CLAIM_TEXT = `live claim ${Math.random().toString(36).slice(2)}`;
const DISPUTE_TEXT = `live dispute ${Math.random().toString(36).slice(2)}`;
/** Contents only the live records hold (the requests never carry them). */
const liveMarkers = () => [DISPUTE_TEXT, CLAIM_TEXT, live.webhookUrl, live.keyPrefix];

beforeAll(async () => {
  app = await createTestApp({
    config: { webhookRetrySchedule: new Array(12).fill(1), claimsPerIpPerMinute: 100_000, claimNoticeHours: 0 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  liveKey = await createKey(app, 'Growth');
  const admin = await signInAdmin(app);
  liveAdminAuth = admin.auth;
  const made = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/api-keys',
    headers: admin.auth,
    payload: { organizationName: 'Sandbox Org', contactEmail: 'dev@example.com', tier: 'Growth', environment: 'test' },
  });
  expect(made.statusCode, made.body).toBe(201);
  testKey = { apiKey: made.json().apiKey, id: made.json().id, headers: { 'x-api-key': made.json().apiKey } };
  expect(testKey.apiKey).toMatch(/^cred_test_/);
  testAdminJwt = (await app.ctx.jwt.issue(admin.address, ['user', 'admin'], 'test')).token;

  // live records, made with live credentials
  const liveReceiver = await startReceiver();
  receivers.push(liveReceiver);
  live.webhookUrl = `${liveReceiver.url}/live-hook`;
  const d = await app.inject({
    method: 'POST',
    url: '/api/v1/dispute',
    headers: liveKey.headers,
    payload: { walletAddress: wallet, category: 'OVERALL', reason: 'InaccurateScore', description: DISPUTE_TEXT },
  });
  expect(d.statusCode, d.body).toBe(201);
  live.dispute = d.json().id ?? d.json().disputeId;
  const w = await app.inject({
    method: 'POST',
    url: '/api/v1/webhooks',
    headers: liveKey.headers,
    payload: { url: live.webhookUrl, walletAddress: wallet },
  });
  expect(w.statusCode, w.body).toBe(201);
  live.webhook = w.json().id;
  const c = await app.inject({
    method: 'POST',
    url: '/api/v1/debt-claims',
    payload: claimBody({ debtorAddress: wallet, description: CLAIM_TEXT }),
  });
  expect(c.statusCode, c.body).toBe(201);
  live.claim = c.json().id;
  // its background job (evidence check, the debtor's recompute) done, so the claim only changes if a probe changes it
  await claimSettled(app, live.claim);
  live.key = liveKey.id;
  live.keyPrefix = liveKey.apiKey.slice(0, 14);
});
afterAll(async () => {
  await Promise.all(hubClients.map((c) => c.stop().catch(() => undefined)));
  await app?.close();
  await Promise.all(receivers.map((r) => r.close()));
});

/** Everything about the live records that an operation could change. */
async function liveState() {
  const q = (sql: string, p: unknown[]) => app.ctx.db.query(sql, p);
  return JSON.stringify({
    dispute: await q('SELECT * FROM disputes WHERE id = $1', [live.dispute]),
    disputes: await q('SELECT id FROM disputes WHERE wallet_address = $1 AND environment = $2 ORDER BY id', [wallet, 'live']),
    history: await q('SELECT * FROM dispute_history WHERE dispute_id = $1 ORDER BY id', [live.dispute]),
    // what the webhook is (its deliveries move on their own: the live wallet's score events)
    webhook: await q(
      'SELECT id, api_key_id, url, wallet_address_filter, secret_encrypted, is_active, environment FROM webhook_subscriptions WHERE id = $1',
      [live.webhook],
    ),
    claim: await q('SELECT id, status, updated_at FROM debt_claims WHERE id = $1', [live.claim]),
    claims: await q(
      "SELECT id FROM debt_claims WHERE (debtor_address = $1 OR creditor_address = $1) AND environment = 'live' ORDER BY id",
      [wallet],
    ),
    // what scoring reads and wrote, what proofs committed to, who asked about the wallet's age
    scores: await q('SELECT * FROM scores WHERE address = $1 ORDER BY category', [wallet]),
    commitments: await q('SELECT id, kind, is_current FROM proof_commitments WHERE address = $1 ORDER BY id', [wallet]),
    ageChecks: await q('SELECT id FROM age_checks WHERE wallet_address = $1 ORDER BY id', [wallet]),
    key: await q('SELECT id, key_hash, tier, revoked_at, previous_key_hash, stripe_subscription_id FROM api_keys WHERE id = $1', [
      live.key,
    ]),
  });
}

/** The live record a path parameter names, by the resource the path is about. */
function paramValue(path: string, name: string): string {
  if (/address|wallet/i.test(name)) return wallet;
  if (name === 'did') return `did:credence:1:${wallet}`;
  if (path.startsWith('/api/v1/dispute')) return live.dispute;
  if (path.startsWith('/api/v1/webhooks')) return live.webhook;
  if (path.startsWith('/api/v1/debt-claims')) return live.claim;
  if (path.startsWith('/api/v1/billing/api-keys')) return live.key;
  return 'x';
}

/** One body for every operation: whatever fields it reads point at the live records (unknown fields are ignored). */
const probeBody = () => ({
  walletAddress: wallet,
  address: wallet,
  addresses: [wallet],
  creditorAddress: wallet,
  debtorAddress: wallet,
  category: 'OVERALL',
  reason: 'InaccurateScore',
  description: 'sandbox isolation probe',
  status: 'Resolved',
  revisedScore: 1,
  resolutionNotes: 'probe',
  url: 'http://127.0.0.1:9/probe-hook',
  isActive: false,
  since: '2000-01-01T00:00:00Z',
  planId: 'growth',
  atPeriodEnd: false,
  gracePeriodSeconds: 0,
  organizationName: 'Probe',
  contactEmail: 'probe@example.com',
  did: `did:credence:1:${wallet}`,
});

describe('every operation of the OpenAPI document, with test credentials, against live records', () => {
  it('reads and changes no live record (a live record is 404 to a route that keeps a sandbox, the rest refuse test credentials)', async () => {
    const doc = app.swagger() as { paths: Record<string, Record<string, { operationId?: string; security?: unknown[] }>> };
    const before = await liveState();
    const liveIds = [live.dispute, live.webhook, live.claim, live.key];
    const seen: string[] = [];
    // a test key with a test admin sign-in, then the test sign-in alone (every route honours it as it would a test key)
    const credentialSets: Record<string, string>[] = [
      { ...testKey.headers, authorization: `Bearer ${testAdminJwt}` },
      { authorization: `Bearer ${testAdminJwt}` },
    ];
    for (const credentials of credentialSets) {
      for (const [template, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
          // the payment processor's own route (Stripe-signed, no credentials) and the hub's protocol are not caller-facing data
          const url = template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(paramValue(template, name)));
          const sendsBody = ['post', 'put', 'patch'].includes(method);
          const res = await app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: { ...credentials, ...(sendsBody ? { 'content-type': 'application/json' } : {}) },
            ...(sendsBody ? { payload: JSON.stringify(probeBody()) } : {}),
          });
          seen.push(`${method.toUpperCase()} ${template} -> ${res.statusCode}`);
          const label = `${Object.keys(credentials).join('+')} ${op.operationId} ${method.toUpperCase()} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, label).not.toBe(500);
          // nothing of a live record is in the answer (an error may echo the id it was asked about, never the record)
          for (const m of liveMarkers()) expect(res.body.includes(m), label).toBe(false);
          if (res.statusCode < 400) for (const id of liveIds) expect(res.body.includes(id), label).toBe(false);
          // an operation on a live record by its id does not succeed
          if (liveIds.some((id) => url.includes(id))) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
          // a route about the live wallet answers nothing live: its list holds no live dispute or claim
        }
      }
    }
    expect(seen.length).toBeGreaterThan(80);
    // parsed, so a failure names the field that moved rather than two long strings
    expect(JSON.parse(await liveState())).toEqual(JSON.parse(before));
  }, 300_000);

  it('routes that keep a sandbox answer 404 for a live record, and the test key works on its own test records', async () => {
    const h = { headers: testKey.headers };
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/${live.dispute}`, ...h })).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/v1/dispute/${live.dispute}/escalate`,
          ...h,
          payload: { reason: 'probing a live dispute from the sandbox' },
        })
      ).statusCode,
    ).toBe(404);
    const list = await app.inject({ method: 'GET', url: `/api/v1/dispute/wallet/${wallet}`, ...h });
    expect(list.statusCode).toBe(200);
    expect(list.body.includes(live.dispute)).toBe(false);
    // its own test dispute: visible to it, invisible to live keys
    const mine = await app.inject({
      method: 'POST',
      url: '/api/v1/dispute',
      ...h,
      payload: { walletAddress: wallet, category: 'OVERALL', reason: 'Other', description: 'a test dispute' },
    });
    expect(mine.statusCode, mine.body).toBe(201);
    const id = mine.json().id ?? mine.json().disputeId;
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/${id}`, ...h })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/${id}`, headers: liveKey.headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/wallet/${wallet}`, headers: liveKey.headers })).body.includes(id)).toBe(
      false,
    );
    // the test admin resolves it with a revised score: recorded on the test dispute, no live score or event
    const resolved = await app.inject({
      method: 'PUT',
      url: `/api/v1/dispute/${id}/status`,
      headers: { authorization: `Bearer ${testAdminJwt}` },
      payload: { status: 'Resolved', revisedScore: 123 },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(
      await app.ctx.db.query("SELECT 1 FROM audit_log WHERE target = $1 AND action <> 'dispute.status'", [`dispute:${id}`]),
    ).toHaveLength(0);
    // the live admin cannot see it either
    expect(
      (await app.inject({ method: 'PUT', url: `/api/v1/dispute/${id}/status`, headers: liveAdminAuth, payload: { status: 'Rejected' } }))
        .statusCode,
    ).toBe(404);
    // a test key on a route with no sandbox: 403, nothing read
    const did = await app.inject({ method: 'GET', url: `/api/v1/identity/${encodeURIComponent(`did:credence:1:${wallet}`)}`, ...h });
    expect(did.statusCode, did.body).toBe(403);
    expect(did.json().error).toBe('forbidden');
    // a bad key sent to a public route is refused, not ignored
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${live.claim}`, headers: { 'x-api-key': 'cred_test_nope' } }))
        .statusCode,
    ).toBe(401);
  });
});

describe("a test key's webhook receives only test events", () => {
  it('the live score.updated goes to the live webhook only; the test webhook gets its test ping', async () => {
    const testReceiver = await startReceiver();
    receivers.push(testReceiver);
    const sub = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: testKey.headers,
      payload: { url: `${testReceiver.url}/test-hook` },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const testHook = sub.json().id as string;
    const liveReceiver = receivers[0];
    const liveBefore = liveReceiver.received.length;
    // a live score change: the live admin resolves the live dispute with a revised score
    const res = await app.inject({
      method: 'PUT',
      url: `/api/v1/dispute/${live.dispute}/status`,
      headers: liveAdminAuth,
      payload: { status: 'Resolved', revisedScore: 777 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const got = await eventually(() => liveReceiver.received.slice(liveBefore).find((r) => JSON.parse(r.body).event === 'score.updated'), {
      timeoutMs: 30_000,
    });
    expect(JSON.parse(got.body).data).toMatchObject({ newScore: 777 });
    // the test webhook's own test event arrives; it is all the test webhook ever got
    const ping = await app.inject({ method: 'POST', url: `/api/v1/webhooks/${testHook}/test`, headers: testKey.headers });
    expect(ping.statusCode, ping.body).toBeLessThan(300);
    await eventually(() => testReceiver.received.length > 0, { timeoutMs: 30_000 });
    expect(testReceiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['webhook.test']);
    const queued = await app.ctx.db.query<{ event_type: string }>('SELECT event_type FROM webhook_deliveries WHERE subscription_id = $1', [
      testHook,
    ]);
    expect(queued.map((r) => r.event_type)).toEqual(['webhook.test']);
    // the test key's sandbox read is the sandbox model's, not the live 777
    const read = await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}`, headers: testKey.headers });
    expect(read.statusCode, read.body).toBe(200);
    // (compared field by field: the body's addresses and confidences may well contain the digits 777)
    expect(read.json().scores.map((e: { score: number }) => e.score)).toEqual(sandboxScores(wallet).map((e) => e.score));
    expect(read.json().scores[0].modelVersion).toMatch(/-sandbox$/);
  }, 90_000);
});

/** Sign-In with Ethereum as a person does it, choosing the environment (absent: the default, live). */
async function signInFor(environment?: 'live' | 'test', wallet = Wallet.createRandom()) {
  const signed = await siweSigned(app, wallet);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify',
    payload: { ...signed, ...(environment ? { environment } : {}) },
  });
  return { res, wallet, address: wallet.address.toLowerCase(), auth: { authorization: `Bearer ${res.json().token}` } };
}

const claimsOf = async (side: 'debtor' | 'creditor', address: string, headers: Record<string, string>) => {
  const r = await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${side}/${address}`, headers });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { claimCount: number; claims: { id: string }[] };
};

describe('debt claims with test credentials', () => {
  it('a live claim is 404 to every claim operation of a test key or test admin, and changes not', async () => {
    const before = await liveState();
    const h = testKey.headers;
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${live.claim}`, headers: h })).statusCode).toBe(404);
    const claim = await app.ctx.db.query<{ creditor_address: string }>('SELECT creditor_address FROM debt_claims WHERE id = $1', [
      live.claim,
    ]);
    const acts = [
      {
        url: `/api/v1/debt-claims/${live.claim}/dispute`,
        headers: h,
        payload: { debtorAddress: wallet, reason: 'probing a live claim from the sandbox' },
      },
      { url: `/api/v1/debt-claims/${live.claim}/withdraw`, headers: h, payload: { creditorAddress: claim[0].creditor_address } },
      {
        url: `/api/v1/debt-claims/${live.claim}/resolve`,
        headers: { authorization: `Bearer ${testAdminJwt}` },
        payload: { resolutionNotes: 'probing a live claim from the sandbox', inFavorOf: 'creditor' },
      },
    ];
    for (const a of acts) {
      const res = await app.inject({ method: 'POST', ...a });
      expect(res.statusCode, `${a.url}: ${res.body}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect(await claimsOf('debtor', wallet, h)).toMatchObject({ claimCount: 0, claims: [] });
    expect(await claimsOf('creditor', claim[0].creditor_address, h)).toMatchObject({ claimCount: 0, claims: [] });
    // parsed, so a failure names the field that moved rather than two long strings
    expect(JSON.parse(await liveState())).toEqual(JSON.parse(before));
  });

  it("a test key files, lists and withdraws its own test claims; live callers never see them and the debtor's live score ignores them", async () => {
    const scoresBefore = JSON.stringify(
      await app.ctx.db.query('SELECT category, score, model_score FROM scores WHERE address = $1 ORDER BY category', [wallet]),
    );
    const signalsBefore = await app.ctx.services.debtClaims!.signalsFor(wallet);
    const body = claimBody({ debtorAddress: wallet, description: 'a sandbox claim' });
    const filed = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', headers: testKey.headers, payload: body });
    expect(filed.statusCode, filed.body).toBe(201);
    const id = filed.json().id as string;
    expect(filed.json().environment).toBe('test');
    await claimSettled(app, id);
    // the test key sees it, live callers (with a live key, or none) do not
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${id}`, headers: testKey.headers })).json()).toMatchObject({
      id,
      environment: 'test',
      status: 'Pending',
    });
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${id}` })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${id}`, headers: liveKey.headers })).statusCode).toBe(404);
    expect((await claimsOf('debtor', wallet, testKey.headers)).claims.map((c) => c.id)).toEqual([id]);
    const liveList = await claimsOf('debtor', wallet, {});
    expect(liveList.claims.map((c) => c.id)).toEqual([live.claim]);
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/debt-claims/${id}/withdraw`, payload: { creditorAddress: body.creditorAddress } }))
        .statusCode,
    ).toBe(404);
    // never a scoring input: the model's claim signals and the stored live scores are as before
    expect((await app.ctx.services.debtClaims!.signalsFor(wallet)).map((c) => c.id)).toEqual(signalsBefore.map((c) => c.id));
    expect(
      JSON.stringify(
        await app.ctx.db.query('SELECT category, score, model_score FROM scores WHERE address = $1 ORDER BY category', [wallet]),
      ),
    ).toBe(scoresBefore);
    // the test key acts on its own claim
    const w = await app.inject({
      method: 'POST',
      url: `/api/v1/debt-claims/${id}/withdraw`,
      headers: testKey.headers,
      payload: { creditorAddress: body.creditorAddress },
    });
    expect(w.statusCode, w.body).toBe(200);
    expect(w.json().status).toBe('Withdrawn');
    expect(
      JSON.stringify(
        await app.ctx.db.query('SELECT category, score, model_score FROM scores WHERE address = $1 ORDER BY category', [wallet]),
      ),
    ).toBe(scoresBefore);
  });
});

describe('signing in for the test environment (POST /auth/verify with environment: "test")', () => {
  it('issues a test token that every route honours like a test key', async () => {
    const live1 = await signInFor();
    expect(live1.res.statusCode, live1.res.body).toBe(200);
    expect(live1.res.json().environment).toBe('live');
    const t = await signInFor('test');
    expect(t.res.statusCode, t.res.body).toBe(200);
    expect(t.res.json()).toMatchObject({ tokenType: 'Bearer', environment: 'test', roles: ['user'] });
    expect((await app.ctx.jwt.verify(t.res.json().token))!.environment).toBe('test');
    const bad = await signInFor('staging' as never);
    expect(bad.res.statusCode).toBe(400);
    expect(bad.res.json().fields.map((f: { field: string }) => f.field)).toContain('environment');

    // a public route: the live claim does not exist for it; a claim it files is a test claim, its creditor signed in
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${live.claim}`, headers: t.auth })).statusCode).toBe(404);
    const filed = await app.inject({
      method: 'POST',
      url: '/api/v1/debt-claims',
      headers: t.auth,
      payload: claimBody({ creditorAddress: t.address, debtorAddress: wallet }),
    });
    expect(filed.statusCode, filed.body).toBe(201);
    expect(filed.json()).toMatchObject({ environment: 'test', verification: { creditorSignedIn: true } });
    await claimSettled(app, filed.json().id);
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${filed.json().id}`, headers: live1.auth })).statusCode).toBe(404);
    expect((await claimsOf('creditor', t.address, testKey.headers)).claims.map((c) => c.id)).toEqual([filed.json().id]);
    expect((await claimsOf('creditor', t.address, {})).claimCount).toBe(0);
    // beside a live key, a test token is refused (it once turned the live key's answers into sandbox ones)
    const read = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${wallet}/GOVERNANCE`,
      headers: { ...liveKey.headers, ...t.auth },
    });
    expect(read.statusCode, read.body).toBe(401);
    expect(read.json().details).toMatch(/^Mixed environments: the API key is a live key/);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}/GOVERNANCE`, headers: liveKey.headers })).json().modelVersion,
    ).not.toMatch(/-sandbox$/);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/dispute/${live.dispute}`, headers: { ...liveKey.headers, ...t.auth } })).statusCode,
    ).toBe(401);
    // a JWT route with no sandbox: 403 (the same token for the live environment is served)
    const checks = await app.inject({ method: 'GET', url: '/api/v1/compliance/age-checks', headers: t.auth });
    expect(checks.statusCode, checks.body).toBe(403);
    expect(checks.json().error).toBe('forbidden');
    expect((await app.inject({ method: 'GET', url: '/api/v1/compliance/age-checks', headers: live1.auth })).statusCode).toBe(200);
    // no live trace of the test sign-in: it proved no wallet control (IDENTITY credit), while a live sign-in does
    const control = (a: string) => app.ctx.db.query('SELECT 1 FROM wallet_control_proofs WHERE address = $1', [a]);
    expect(await control(t.address)).toHaveLength(0);
    expect(await control(live1.address)).toHaveLength(1);
  });
});

describe('the SDK signs in for the test environment', () => {
  it('signIn(..., {environment: "test"}) returns a test token the API treats as test credentials', async () => {
    const domain = siweDomainsOf(app.ctx.config)[0];
    const client = createCredenceClient({ baseUrl: base });
    const signed = await sdkSignIn(client, Wallet.createRandom(), { domain, uri: `https://${domain}`, environment: 'test' });
    expect(signed.environment).toBe('test');
    const asTest = createCredenceClient({ baseUrl: base, token: signed.token });
    const { response } = await asTest.GET('/api/v1/debt-claims/{id}', { params: { path: { id: live.claim } } });
    expect(response.status).toBe(404);
    const live2 = await sdkSignIn(client, Wallet.createRandom(), { domain, uri: `https://${domain}` });
    expect(live2.environment).toBe('live');
    const { response: liveRes } = await createCredenceClient({ baseUrl: base, token: live2.token }).GET('/api/v1/debt-claims/{id}', {
      params: { path: { id: live.claim } },
    });
    expect(liveRes.status).toBe(200);
  });
});

interface Filed {
  claimId: string;
  debtorAddress: string;
}
interface Pushed {
  address: string;
  newScore: number;
}

/** The official client on a real socket, subscribed to `address`, recording what it receives. */
async function hubClient(address: string, token?: string, headers?: Record<string, string>) {
  const c = new signalR.HubConnectionBuilder()
    .withUrl(`${base}/hubs/scores`, { ...(token ? { accessTokenFactory: () => token } : {}), ...(headers ? { headers } : {}) })
    .configureLogging(signalR.LogLevel.None)
    .build();
  const scores: Pushed[] = [];
  const claims: Filed[] = [];
  c.on('ScoreUpdated', (p: Pushed) => scores.push(p));
  c.on('DebtClaimFiled', (p: Filed) => claims.push(p));
  await c.start();
  hubClients.push(c);
  await c.invoke('SubscribeToAddress', address);
  return { c, scores, claims };
}

describe('the hub sends each connection the events of its environment only', () => {
  it('test key and test sign-in connections get test events; anonymous and live-key ones live events', async () => {
    const debtor = randomAddress();
    const t = await signInFor('test');
    const [anon, liveConn, testConn, testJwtConn] = await Promise.all([
      hubClient(debtor),
      hubClient(debtor, liveKey.apiKey),
      hubClient(debtor, testKey.apiKey),
      hubClient(debtor, t.res.json().token),
    ]);
    // a live key beside a test sign-in: refused, as on the HTTP routes
    await expect(hubClient(debtor, t.res.json().token, liveKey.headers)).rejects.toThrow();
    const lives = [anon, liveConn];
    const tests = [testConn, testJwtConn];
    // a live score change, then a test claim, a live claim, and a last test claim
    await emitScoreChange(app, scoreChange(debtor, { newScore: 611 }));
    const file = async (headers: Record<string, string>, creditor = randomAddress()) => {
      const r = await app.inject({
        method: 'POST',
        url: '/api/v1/debt-claims',
        headers,
        payload: claimBody({ debtorAddress: debtor, creditorAddress: creditor }),
      });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    const test1 = await file(testKey.headers);
    const liveClaim = await file({});
    const test2 = await file(t.auth, t.address);
    // live connections: the score change and the live claim (received after the first test claim was published)
    for (const l of lives) {
      await eventually(() => l.claims.some((x) => x.claimId === liveClaim), { timeoutMs: 20_000 });
      expect(l.scores.map((s) => s.newScore)).toEqual([611]);
      expect(l.claims.map((x) => x.claimId)).toEqual([liveClaim]);
    }
    // test connections: both test claims (the last one published after the live events), nothing live
    for (const x of tests) {
      await eventually(() => x.claims.some((y) => y.claimId === test2), { timeoutMs: 20_000 });
      expect(x.claims.map((y) => y.claimId)).toEqual([test1, test2]);
      expect(x.scores).toEqual([]);
    }
    // sandbox score events (a test key's triggered change) reach test connections only; keyed ones only that key's
    app.ctx.bus.publish(SANDBOX_SCORE_UPDATED, { address: debtor, category: 'OVERALL', oldScore: 100, newScore: 101, keyId: testKey.id });
    app.ctx.bus.publish(SANDBOX_SCORE_UPDATED, { address: debtor, category: 'OVERALL', oldScore: 101, newScore: 102 });
    for (const x of tests) await eventually(() => x.scores.some((p) => p.newScore === 102), { timeoutMs: 20_000 });
    expect(testConn.scores.map((p) => p.newScore)).toEqual([101, 102]);
    expect(testJwtConn.scores.map((p) => p.newScore)).toEqual([102]);
    await emitScoreChange(app, scoreChange(debtor, { newScore: 612 }));
    for (const l of lives) {
      await eventually(() => l.scores.some((p) => p.newScore === 612), { timeoutMs: 20_000 });
      expect(l.scores.map((p) => p.newScore)).toEqual([611, 612]);
    }
    // credentials sent but not valid are refused, not taken for an anonymous live connection
    expect(
      (await app.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1&access_token=cred_test_nope' })).statusCode,
    ).toBe(401);
    expect(
      (await app.inject({ method: 'POST', url: '/hubs/scores/negotiate?negotiateVersion=1', headers: { authorization: 'Bearer a.b.c' } }))
        .statusCode,
    ).toBe(401);
  }, 60_000);
});

describe("a test key's webhook gets the test claims' notices, the live webhook the live ones", () => {
  it('debt_claim.filed goes to the webhooks of its environment only', async () => {
    const testReceiver = await startReceiver();
    receivers.push(testReceiver);
    const sub = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: testKey.headers,
      payload: { url: `${testReceiver.url}/test-claims`, walletAddress: wallet },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const liveReceiver = receivers[0];
    const filedTo = (r: Receiver) =>
      r.received
        .map((x) => JSON.parse(x.body))
        .filter((b) => b.event === 'debt_claim.filed')
        .map((b) => b.data.claimId as string);
    const file = async (headers: Record<string, string>) => {
      const r = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', headers, payload: claimBody({ debtorAddress: wallet }) });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().id as string;
    };
    const test1 = await file(testKey.headers);
    const liveClaim = await file({});
    const test2 = await file(testKey.headers);
    await eventually(() => filedTo(liveReceiver).includes(liveClaim), { timeoutMs: 30_000 });
    await eventually(() => filedTo(testReceiver).includes(test1) && filedTo(testReceiver).includes(test2), { timeoutMs: 30_000 });
    expect(filedTo(testReceiver).sort()).toEqual([test1, test2].sort());
    // the live webhook's queue never held a test notice (its deliveries are all there is to send)
    const liveQueued = await app.ctx.db.query<{ body: string }>(
      "SELECT body FROM webhook_deliveries WHERE subscription_id = $1 AND event_type = 'debt_claim.filed'",
      [live.webhook],
    );
    const liveIds = liveQueued.map((r) => JSON.parse(r.body).data.claimId);
    expect(liveIds).toContain(liveClaim);
    expect(liveIds).not.toContain(test1);
    expect(liveIds).not.toContain(test2);
    // the live claim's background job (the debtor's recompute) done here, not during the next test's comparison of
    // the live records (on a slow machine it rescored the wallet 2.5 s into it)
    await claimSettled(app, liveClaim);
  }, 90_000);
});

describe('proofs with test credentials (sandbox scores and the sandbox KYC)', () => {
  const post = (url: string, headers: Record<string, string>, payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/api/v1${url}`, headers, payload });

  it('a test key proves against the sandbox score; the proof verifies for test credentials only, never as live', async () => {
    const before = await liveState();
    const sandbox = sandboxScores(wallet).find((e) => e.category === 'OVERALL')!.score;
    const res = await post('/reputation/prove', testKey.headers, {
      subject: wallet,
      proofType: 'ScoreAboveThreshold',
      category: 'OVERALL',
      threshold: sandbox,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { proof, publicInputs, environment } = res.json();
    expect(environment).toBe('test');
    expect(publicInputs).toMatchObject({ threshold: sandbox, category: 'OVERALL', categoryId: 0 });
    // above the sandbox score: no proof
    if (sandbox < 1000)
      expect(
        (
          await post('/reputation/prove', testKey.headers, {
            subject: wallet,
            proofType: 'ScoreAboveThreshold',
            category: 'OVERALL',
            threshold: sandbox + 1,
          })
        ).statusCode,
      ).toBe(422);
    const asTest = await post('/reputation/verify', testKey.headers, { proof, publicInputs });
    expect(asTest.json()).toMatchObject({ valid: true, environment: 'test' });
    const asLive = await post('/reputation/verify', liveKey.headers, { proof });
    expect(asLive.json()).toEqual({ valid: false, reason: SANDBOX_PROOF_IN_LIVE, environment: 'live' });
    // nothing live was committed to, scored or logged
    // parsed, so a failure names the field that moved rather than two long strings
    expect(JSON.parse(await liveState())).toEqual(JSON.parse(before));
    // and a live proof is not valid for test credentials
    const liveProof = await post('/reputation/prove', liveKey.headers, {
      subject: wallet,
      proofType: 'ScoreAboveThreshold',
      category: 'GOVERNANCE',
      threshold: 0,
    });
    expect(liveProof.statusCode, liveProof.body).toBe(200);
    expect(liveProof.json().environment).toBe('live');
    expect((await post('/reputation/verify', liveKey.headers, { proof: liveProof.json().proof })).json()).toMatchObject({
      valid: true,
      environment: 'live',
    });
    expect((await post('/reputation/verify', testKey.headers, { proof: liveProof.json().proof })).json()).toEqual({
      valid: false,
      reason: LIVE_PROOF_IN_TEST,
      environment: 'test',
    });
  }, 120_000);

  it('a flood of test-mode proofs is bounded per instance (503 with Retry-After) and never keeps a live proof from being made', async () => {
    const sandbox = sandboxScores(wallet).find((e) => e.category === 'OVERALL')!.score;
    const flood = Array.from({ length: 6 }, () =>
      post('/reputation/prove', testKey.headers, {
        subject: wallet,
        proofType: 'ScoreAboveThreshold',
        category: 'OVERALL',
        threshold: sandbox,
      }),
    );
    const live = post('/reputation/prove', liveKey.headers, {
      subject: wallet,
      proofType: 'ScoreAboveThreshold',
      category: 'GOVERNANCE',
      threshold: 0,
    });
    const answers = await Promise.all(flood);
    const refused = answers.filter((r) => r.statusCode === 503);
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(refused.length, answers.map((r) => r.statusCode).join()).toBeGreaterThan(0);
    expect(answers.every((r) => r.statusCode === 200 || r.statusCode === 503)).toBe(true);
    expect(refused[0].headers['retry-after']).toBe('1');
    expect(refused[0].json()).toEqual({ error: 'unavailable', details: expect.stringContaining('Test-mode proofs run at most') });
    const l = await live;
    expect(l.statusCode, l.body).toBe(200);
    expect(l.json().environment).toBe('live');
    // once the flood is over, a test proof is made again
    expect(
      (
        await post('/reputation/prove', testKey.headers, {
          subject: wallet,
          proofType: 'ScoreAboveThreshold',
          category: 'OVERALL',
          threshold: sandbox,
        })
      ).statusCode,
    ).toBe(200);
  }, 120_000);

  it('age checks and age proofs of a test key read the sandbox KYC and leave no trace on the wallet', async () => {
    const before = await liveState();
    const { birthDate } = sandboxKyc(wallet);
    const today = yyyymmdd(new Date());
    const age = Math.floor((today - birthDate) / 10000);
    const r = await post('/compliance/age-verify', testKey.headers, { walletAddress: wallet, jurisdictionCode: 'DE-BE', minimumAge: age });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ verified: true, minimumAge: age, environment: 'test', reason: null });
    expect((await post('/reputation/verify', testKey.headers, { proof: r.json().proof })).json()).toMatchObject({ valid: true });
    expect((await post('/reputation/verify', liveKey.headers, { proof: r.json().proof })).json()).toMatchObject({
      valid: false,
      reason: SANDBOX_PROOF_IN_LIVE,
    });
    const older = await post('/compliance/verify-age', testKey.headers, { walletAddress: wallet, minimumAge: age + 1 });
    expect(older.json()).toMatchObject({ verified: false, proof: null, reason: 'under_minimum_age', environment: 'test' });
    const kyc = await post('/reputation/prove', testKey.headers, { subject: wallet, proofType: 'KYCVerified' });
    expect(kyc.statusCode, kyc.body).toBe(200);
    expect(kyc.json().environment).toBe('test');
    // the live wallet has no KYC at all: live answers stay "no approved KYC"
    expect(
      (await post('/compliance/age-verify', liveKey.headers, { walletAddress: wallet, jurisdictionCode: 'DE-BE', minimumAge: 1 })).json(),
    ).toMatchObject({ verified: false, reason: 'no_approved_kyc', environment: 'live' });
    const after = JSON.parse(await liveState());
    const was = JSON.parse(before);
    // the live age question above is the only one logged for the wallet
    expect(after.ageChecks).toHaveLength(was.ageChecks.length + 1);
    expect({ ...after, ageChecks: null }).toEqual({ ...was, ageChecks: null });
  }, 120_000);
});
