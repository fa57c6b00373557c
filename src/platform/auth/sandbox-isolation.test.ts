// Sandbox isolation as a rule of the platform (issue 24), tested route by route FROM THE OPENAPI DOCUMENT: every
// operation is called with test credentials (a cred_test_ key and an admin JWT signed in for the test environment)
// against live records (a dispute, a webhook, a debt claim, an API key, the wallet they are about), and none may
// read or change one. A route added later without isolation fails here. Then, over real sockets: a test key's
// webhook receives only test events while the live one receives the live score.updated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, randomAddress, signInAdmin, type TestKey } from '../../../test/helpers/app.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { claimBody, claimSettled } from '../../modules/debt-claims/test-helpers.js';
import type { App } from '../http/types.js';

let app: App;
const receivers: Receiver[] = [];
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
  app = await createTestApp({ config: { webhookRetrySchedule: new Array(12).fill(1) } });
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
  const w = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: liveKey.headers, payload: { url: live.webhookUrl, walletAddress: wallet } });
  expect(w.statusCode, w.body).toBe(201);
  live.webhook = w.json().id;
  const c = await app.inject({ method: 'POST', url: '/api/v1/debt-claims', payload: claimBody({ debtorAddress: wallet, description: CLAIM_TEXT }) });
  expect(c.statusCode, c.body).toBe(201);
  live.claim = c.json().id;
  // its background job (evidence check, the debtor's recompute) done, so the claim only changes if a probe changes it
  await claimSettled(app, live.claim);
  live.key = liveKey.id;
  live.keyPrefix = liveKey.apiKey.slice(0, 14);
});
afterAll(async () => {
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
    webhook: await q('SELECT id, api_key_id, url, wallet_address_filter, secret_encrypted, is_active, environment FROM webhook_subscriptions WHERE id = $1', [live.webhook]),
    claim: await q('SELECT id, status, updated_at FROM debt_claims WHERE id = $1', [live.claim]),
    key: await q('SELECT id, key_hash, tier, revoked_at, previous_key_hash, stripe_subscription_id FROM api_keys WHERE id = $1', [live.key]),
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
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        // the payment processor's own route (Stripe-signed, no credentials) and the hub's protocol are not caller-facing data
        const url = template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(paramValue(template, name)));
        const sendsBody = ['post', 'put', 'patch'].includes(method);
        const res = await app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: { ...testKey.headers, authorization: `Bearer ${testAdminJwt}`, ...(sendsBody ? { 'content-type': 'application/json' } : {}) },
          ...(sendsBody ? { payload: JSON.stringify(probeBody()) } : {}),
        });
        seen.push(`${method.toUpperCase()} ${template} -> ${res.statusCode}`);
        const label = `${op.operationId} ${method.toUpperCase()} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, label).not.toBe(500);
        // nothing of a live record is in the answer (an error may echo the id it was asked about, never the record)
        for (const m of liveMarkers()) expect(res.body.includes(m), label).toBe(false);
        if (res.statusCode < 400) for (const id of liveIds) expect(res.body.includes(id), label).toBe(false);
        // an operation on a live record by its id does not succeed
        if (liveIds.some((id) => url.includes(id))) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        // a route about the live wallet answers nothing live: its list holds no live dispute or claim
      }
    }
    expect(seen.length).toBeGreaterThan(40);
    expect(await liveState()).toBe(before);
  }, 300_000);

  it('routes that keep a sandbox answer 404 for a live record, and the test key works on its own test records', async () => {
    const h = { headers: testKey.headers };
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/${live.dispute}`, ...h })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/api/v1/dispute/${live.dispute}/escalate`, ...h, payload: { reason: 'probing a live dispute from the sandbox' } })).statusCode).toBe(404);
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
    expect((await app.inject({ method: 'GET', url: `/api/v1/dispute/wallet/${wallet}`, headers: liveKey.headers })).body.includes(id)).toBe(false);
    // the test admin resolves it with a revised score: recorded on the test dispute, no live score or event
    const resolved = await app.inject({
      method: 'PUT',
      url: `/api/v1/dispute/${id}/status`,
      headers: { authorization: `Bearer ${testAdminJwt}` },
      payload: { status: 'Resolved', revisedScore: 123 },
    });
    expect(resolved.statusCode, resolved.body).toBe(200);
    expect(await app.ctx.db.query("SELECT 1 FROM audit_log WHERE target = $1 AND action <> 'dispute.status'", [`dispute:${id}`])).toHaveLength(0);
    // the live admin cannot see it either
    expect((await app.inject({ method: 'PUT', url: `/api/v1/dispute/${id}/status`, headers: liveAdminAuth, payload: { status: 'Rejected' } })).statusCode).toBe(404);
    // a test key on a route with no sandbox: 403, nothing read
    const claim = await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${live.claim}`, ...h });
    expect(claim.statusCode).toBe(403);
    expect(claim.json().error).toBe('forbidden');
    // a bad key sent to a public route is refused, not ignored
    expect((await app.inject({ method: 'GET', url: `/api/v1/debt-claims/${live.claim}`, headers: { 'x-api-key': 'cred_test_nope' } })).statusCode).toBe(401);
  });
});

describe("a test key's webhook receives only test events", () => {
  it('the live score.updated goes to the live webhook only; the test webhook gets its test ping', async () => {
    const testReceiver = await startReceiver();
    receivers.push(testReceiver);
    const sub = await app.inject({ method: 'POST', url: '/api/v1/webhooks', headers: testKey.headers, payload: { url: `${testReceiver.url}/test-hook` } });
    expect(sub.statusCode, sub.body).toBe(201);
    const testHook = sub.json().id as string;
    const liveReceiver = receivers[0];
    const liveBefore = liveReceiver.received.length;
    // a live score change: the live admin resolves the live dispute with a revised score
    const res = await app.inject({ method: 'PUT', url: `/api/v1/dispute/${live.dispute}/status`, headers: liveAdminAuth, payload: { status: 'Resolved', revisedScore: 777 } });
    expect(res.statusCode, res.body).toBe(200);
    const got = await eventually(() => liveReceiver.received.slice(liveBefore).find((r) => JSON.parse(r.body).event === 'score.updated'), { timeoutMs: 30_000 });
    expect(JSON.parse(got.body).data).toMatchObject({ newScore: 777 });
    // the test webhook's own test event arrives; it is all the test webhook ever got
    const ping = await app.inject({ method: 'POST', url: `/api/v1/webhooks/${testHook}/test`, headers: testKey.headers });
    expect(ping.statusCode, ping.body).toBeLessThan(300);
    await eventually(() => testReceiver.received.length > 0, { timeoutMs: 30_000 });
    expect(testReceiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['webhook.test']);
    const queued = await app.ctx.db.query<{ event_type: string }>('SELECT event_type FROM webhook_deliveries WHERE subscription_id = $1', [testHook]);
    expect(queued.map((r) => r.event_type)).toEqual(['webhook.test']);
    // the test key's sandbox read is the sandbox model's, not the live 777
    const read = await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}`, headers: testKey.headers });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.body.includes('777')).toBe(false);
  }, 90_000);
});
