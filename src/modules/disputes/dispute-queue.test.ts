// GET /disputes (the admin queue across wallets) and GET /audit-log (the admin's view of audit_log): filters, auth,
// the sandbox, and an admin action in the queue showing up in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createKey,
  createTestApp,
  createTestModeKey,
  randomAddress,
  signIn,
  signInAdmin,
  type SignedIn,
  type TestKey,
} from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let key: TestKey;
let admin: SignedIn;
beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Starter');
  admin = await signInAdmin(app);
});
afterAll(async () => {
  await app?.close();
});

async function file(wallet: string, category = 'OVERALL', headers: Record<string, string> = key.headers) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/dispute',
    headers,
    payload: { walletAddress: wallet, category, reason: 'InaccurateScore', description: 'A dispute for the admin queue test' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}
const queue = (query: string, headers: Record<string, string> = admin.auth) => app.inject({ url: `/api/v1/disputes${query}`, headers });
const setStatus = (id: string, status: string, headers: Record<string, string> = admin.auth) =>
  app.inject({ method: 'PUT', url: `/api/v1/dispute/${id}/status`, headers, payload: { status, resolutionNotes: `set to ${status}` } });

describe('GET /disputes (admin queue)', () => {
  it("lists every wallet's disputes newest first, filtered by status, category and wallet", async () => {
    const [w1, w2] = [randomAddress(), randomAddress()];
    const a = await file(w1, 'OVERALL');
    const b = await file(w2, 'NFT');
    const c = await file(w1, 'NFT');
    expect((await setStatus(a, 'Rejected')).statusCode).toBe(200);

    const all = await queue('?limit=100');
    expect(all.statusCode, all.body).toBe(200);
    const ids = all.json().disputes.map((d: { id: string }) => d.id);
    expect(ids.indexOf(c)).toBeLessThan(ids.indexOf(b));
    expect(ids.indexOf(b)).toBeLessThan(ids.indexOf(a));
    expect(all.json().count).toBeGreaterThanOrEqual(3);

    const ofW1 = (await queue(`?walletAddress=${w1}`)).json();
    expect(ofW1).toMatchObject({ count: 2, hasMore: false, nextCursor: null });
    expect(ofW1.disputes.map((d: { id: string }) => d.id)).toEqual([c, a]);
    expect((await queue(`?walletAddress=${w1}&status=Rejected`)).json().disputes.map((d: { id: string }) => d.id)).toEqual([a]);
    expect((await queue(`?walletAddress=${w1}&status=open`)).json().disputes.map((d: { id: string }) => d.id)).toEqual([c]);
    expect((await queue(`?walletAddress=${w1}&category=OVERALL`)).json().disputes.map((d: { id: string }) => d.id)).toEqual([a]);
    // a checksummed address finds the same wallet
    const checksummed = ofW1.disputes[0].walletAddress as string;
    expect((await queue(`?walletAddress=${checksummed}`)).json().count).toBe(2);
  });

  it('validates its filters', async () => {
    for (const [q, field] of [
      ['?status=Closed', 'status'],
      ['?category=FOOD', 'category'],
      ['?walletAddress=0x123', 'walletAddress'],
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?cursor=nope', 'cursor'],
    ]) {
      const res = await queue(q);
      expect(res.statusCode, q).toBe(400);
      expect(
        res.json().fields.map((f: { field: string }) => f.field),
        q,
      ).toContain(field);
    }
  });

  it('is for administrators: 401 without a JWT, 403 for a wallet that is not an admin or an API key', async () => {
    expect((await queue('', {})).statusCode).toBe(401);
    expect((await queue('', key.headers)).statusCode).toBe(401);
    const user = await signIn(app);
    const res = await queue('', user.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });

  it('a test sign-in sees only test disputes, a live one only live disputes', async () => {
    const wallet = randomAddress();
    const liveId = await file(wallet);
    const made = await createTestModeKey(app, admin);
    const testId = await file(wallet, 'OVERALL', made.headers);
    const testAdmin = { authorization: `Bearer ${(await app.ctx.jwt.issue(admin.address, ['user', 'admin'], 'test')).token}` };
    expect((await queue(`?walletAddress=${wallet}`, testAdmin)).json().disputes.map((d: { id: string }) => d.id)).toEqual([testId]);
    expect((await queue(`?walletAddress=${wallet}`)).json().disputes.map((d: { id: string }) => d.id)).toEqual([liveId]);
  });
});

describe('GET /audit-log', () => {
  it("shows the queue's action: who changed which dispute from what to what", async () => {
    const id = await file(randomAddress());
    expect((await setStatus(id, 'Under Review')).statusCode).toBe(200);
    const res = await app.inject({ url: `/api/v1/audit-log?target=dispute:${id}`, headers: admin.auth });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ hasMore: false, nextCursor: null });
    expect(res.json().entries).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        actor: expect.stringMatching(new RegExp(`^admin:${admin.address}$`, 'i')),
        action: 'dispute.status',
        target: `dispute:${id}`,
        details: { from: 'Pending', to: 'Under Review', resolutionNotes: 'set to Under Review' },
        createdAt: expect.any(String),
      },
    ]);
  });

  it('filters by action, actor and time, newest first', async () => {
    const owner = await signIn(app);
    const k1 = await createKey(app, 'Free', owner);
    const k2 = await createKey(app, 'Free', owner);
    // a Free key's creation is not audited (anyone may make one); its rotation and revocation are
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k1.id}`, headers: owner.auth })).statusCode).toBe(204);
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/billing/api-keys/${k2.id}/rotate`, headers: owner.auth, payload: {} })).statusCode,
    ).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: `/api/v1/billing/api-keys/${k2.id}`, headers: owner.auth })).statusCode).toBe(204);
    const log = async (q: string) =>
      (await app.inject({ url: `/api/v1/audit-log?actor=${owner.address}${q}`, headers: admin.auth })).json().entries as {
        action: string;
        target: string;
        createdAt: string;
      }[];
    const mine = await log('');
    expect(mine.map((e) => [e.action, e.target])).toEqual([
      ['api_key.revoke', `api_key:${k2.id}`],
      ['api_key.rotate', `api_key:${k2.id}`],
      ['api_key.revoke', `api_key:${k1.id}`],
    ]);
    expect((await log('&action=api_key.rotate')).map((e) => e.target)).toEqual([`api_key:${k2.id}`]);
    expect(await log(`&target=api_key:${k1.id}`)).toHaveLength(1);
    expect(await log(`&since=${encodeURIComponent(new Date(Date.parse(mine[0].createdAt) + 1000).toISOString())}`)).toEqual([]);
    expect(await log(`&until=${encodeURIComponent(new Date(Date.parse(mine[2].createdAt) - 1000).toISOString())}`)).toEqual([]);
    expect((await app.inject({ url: '/api/v1/audit-log?since=yesterday', headers: admin.auth })).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/v1/audit-log?limit=201', headers: admin.auth })).statusCode).toBe(400);
  });

  it('is for live administrators only: 401 without a JWT, 403 for others and for a test sign-in', async () => {
    expect((await app.inject({ url: '/api/v1/audit-log' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/v1/audit-log', headers: (await signIn(app)).auth })).statusCode).toBe(403);
    const testAdmin = { authorization: `Bearer ${(await app.ctx.jwt.issue(admin.address, ['user', 'admin'], 'test')).token}` };
    expect((await app.inject({ url: '/api/v1/audit-log', headers: testAdmin })).statusCode).toBe(403);
  });
});
