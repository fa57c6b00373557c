import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, signIn, signInAdmin, type SignedIn, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { SCORE_UPDATED, type ScoreChange } from '../scoring/contracts.js';

let app: App;
let key: TestKey;
let otherKey: TestKey;
let admin: SignedIn;
beforeAll(async () => {
  app = await createTestApp();
  admin = await signInAdmin(app);
  key = await createKey(app, 'Starter', admin);
  otherKey = await createKey(app, 'Free');
});
afterAll(async () => {
  await app?.close();
});

const STATUSES = ['Pending', 'Under Review', 'Evidence Requested', 'Resolved', 'Rejected', 'Escalated', 'Withdrawn'] as const;
type Status = (typeof STATUSES)[number];

async function fileDispute(wallet = randomAddress(), headers: Record<string, string> = key.headers) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/dispute',
    headers,
    payload: { walletAddress: wallet, category: 'DEFI_LENDING', reason: 'MissingActivity', description: 'Repayments on Aave are missing' },
  });
  expect(res.statusCode).toBe(201);
  return { id: res.json().id as string, wallet };
}
const setStatus = (id: string, payload: Record<string, unknown>, headers: Record<string, string> = admin.auth) =>
  app.inject({ method: 'PUT', url: `/api/v1/dispute/${id}/status`, payload, headers });
const escalate = (id: string, reason = 'The off-chain review ignored my evidence', headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: `/api/v1/dispute/${id}/escalate`, payload: { reason }, headers });
const withdraw = (id: string, walletAddress: string, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: `/api/v1/dispute/${id}/withdraw`, payload: { walletAddress }, headers });
const get = async (id: string) => (await app.inject({ url: `/api/v1/dispute/${id}`, headers: key.headers })).json();

async function inState(status: Status) {
  const d = await fileDispute();
  if (status !== 'Pending') expect((await setStatus(d.id, { status })).statusCode).toBe(200);
  return d;
}

describe('PUT /dispute/{id}/status (admin)', () => {
  it('walks the lifecycle, stores the resolution fields and keeps a history of who and when', async () => {
    const { id } = await fileDispute();
    const r1 = await setStatus(id, { status: 'UnderReview' });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().status).toBe('Under Review');
    expect((await setStatus(id, { status: 'EvidenceRequested', resolutionNotes: 'Send the repayment tx' })).json().status).toBe(
      'Evidence Requested',
    );
    const done = await setStatus(id, {
      status: 'Rejected',
      resolutionNotes: 'The repayments were on another wallet',
      resolvedBy: 'Ops team',
    });
    expect(done.statusCode).toBe(200);
    const body = done.json();
    expect(body).toMatchObject({
      id,
      status: 'Rejected',
      resolutionNotes: 'The repayments were on another wallet',
      resolvedBy: 'Ops team',
      revisedScore: null,
    });
    expect(body.history.map((h: { fromStatus: string | null; status: string }) => [h.fromStatus, h.status])).toEqual([
      [null, 'Pending'],
      ['Pending', 'Under Review'],
      ['Under Review', 'Evidence Requested'],
      ['Evidence Requested', 'Rejected'],
    ]);
    expect(body.history[1].changedBy).toBe(`admin:${admin.address.toLowerCase()}`);
    expect(body.history[2].note).toBe('Send the repayment tx');
    const times = body.history.map((h: { changedAt: string }) => Date.parse(h.changedAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(await get(id)).toEqual(body);
    const audit = await app.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log WHERE target = $1 AND action = 'dispute.status'`,
      [`dispute:${id}`],
    );
    expect(audit[0].n).toBe(3);
  });

  it('accepts every status, with and without spaces, from any status', async () => {
    const { id } = await fileDispute();
    for (const s of [...STATUSES, 'UnderReview', 'EvidenceRequested', 'Pending']) {
      const res = await setStatus(id, { status: s });
      expect(res.statusCode, s).toBe(200);
      expect(res.json().status).toBe(s.replace('UnderReview', 'Under Review').replace('EvidenceRequested', 'Evidence Requested'));
    }
  });

  it('validates the body', async () => {
    const { id } = await fileDispute();
    for (const bad of [
      { status: 'Closed' },
      { status: 'under review' },
      {},
      { status: 'Resolved', resolutionNotes: 'n'.repeat(2001) },
      { status: 'Resolved', resolvedBy: 'r'.repeat(201) },
      { status: 'Resolved', revisedScore: -1 },
      { status: 'Resolved', revisedScore: 1001 },
      { status: 'Resolved', revisedScore: 500.5 },
    ]) {
      expect((await setStatus(id, bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await setStatus(id, { status: 'Resolved', resolutionNotes: 'n'.repeat(2000), resolvedBy: 'r'.repeat(200) })).statusCode).toBe(
      200,
    );
    expect((await get(id)).status).toBe('Resolved');
  });

  it('is for admins only: 401 without or with a bad JWT (an API key is not enough), 403 for a non-admin; 404 unknown', async () => {
    const { id } = await fileDispute();
    expect((await setStatus(id, { status: 'Resolved' }, {})).statusCode).toBe(401);
    expect((await setStatus(id, { status: 'Resolved' }, key.headers)).statusCode).toBe(401);
    expect((await setStatus(id, { status: 'Resolved' }, { authorization: 'Bearer abc.def.ghi' })).statusCode).toBe(401);
    const user = await signIn(app);
    const res = await setStatus(id, { status: 'Resolved' }, user.auth);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
    expect((await get(id)).status).toBe('Pending');
    expect((await setStatus('7d9b3a1c-2e4f-4a6b-8c0d-1e2f3a4b5c6d', { status: 'Resolved' })).statusCode).toBe(404);
  });
});

describe('revisedScore', () => {
  it('with status Resolved replaces the category score through scoring, audited, and emits a score change', async (t) => {
    if (!app.ctx.services.scoring) return t.skip();
    const { id, wallet } = await fileDispute();
    const seen: ScoreChange[] = [];
    const off = app.ctx.bus.subscribe<ScoreChange>(SCORE_UPDATED, (c) => void seen.push(c));
    try {
      const res = await setStatus(id, {
        status: 'Resolved',
        revisedScore: 777,
        resolutionNotes: 'Missing repayments confirmed',
        resolvedBy: 'Risk desk',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'Resolved', revisedScore: 777, resolvedBy: 'Risk desk' });
      expect((await app.ctx.services.scoring.getScore(wallet, 'DEFI_LENDING', { explain: false })).score).toBe(777);
      const change = seen.find((c) => c.address === wallet && c.category === 'DEFI_LENDING');
      expect(change).toMatchObject({ newScore: 777, cause: 'dispute_revision' });
      const audit = await app.ctx.db.query<{ actor: string; details: { disputeId: string; newScore: number } }>(
        `SELECT actor, details FROM audit_log WHERE action = 'score.revised' AND target = $1`,
        [`wallet:${wallet}`],
      );
      expect(audit).toHaveLength(1);
      expect(audit[0].actor).toBe(`admin:${admin.address.toLowerCase()}`);
      expect(audit[0].details).toMatchObject({ disputeId: id, newScore: 777 });
    } finally {
      off();
    }
  });

  it('with another status is stored but changes no score', async (t) => {
    if (!app.ctx.services.scoring) return t.skip();
    const { id, wallet } = await fileDispute();
    const before = (await app.ctx.services.scoring.getScore(wallet, 'DEFI_LENDING', { explain: false })).score;
    const res = await setStatus(id, { status: 'Under Review', revisedScore: 900 });
    expect(res.json()).toMatchObject({ status: 'Under Review', revisedScore: 900 });
    expect((await app.ctx.services.scoring.getScore(wallet, 'DEFI_LENDING', { explain: false })).score).toBe(before);
    const audit = await app.ctx.db.query(`SELECT 1 FROM audit_log WHERE action = 'score.revised' AND target = $1`, [`wallet:${wallet}`]);
    expect(audit).toHaveLength(0);
  });
});

describe('POST /dispute/{id}/escalate', () => {
  it('escalates from every state except Withdrawn and Escalated (409), recording the reason', async () => {
    for (const s of STATUSES) {
      const { id } = await inState(s);
      const res = await escalate(id);
      if (s === 'Withdrawn' || s === 'Escalated') {
        expect(res.statusCode, s).toBe(409);
        expect(res.json().error).toBe('invalid_state');
        expect((await get(id)).status).toBe(s);
        continue;
      }
      expect(res.statusCode, s).toBe(200);
      const d = res.json();
      expect(d.status).toBe('Escalated');
      // No oracle in this app: recorded off-chain only.
      expect(d.escalation).toMatchObject({
        reason: 'The off-chain review ignored my evidence',
        onChainStatus: 'not_configured',
        txHash: null,
      });
      const hist = (await get(id)).history;
      expect(hist[hist.length - 1]).toMatchObject({
        fromStatus: s,
        status: 'Escalated',
        changedBy: `api-key:${key.id}`,
        note: 'The off-chain review ignored my evidence',
      });
    }
  });

  it('validates the reason (10-2,000), the id and the key; a second concurrent escalation gets 409', async () => {
    const { id } = await fileDispute();
    expect((await escalate(id, 'r'.repeat(9))).statusCode).toBe(400);
    expect((await escalate(id, 'r'.repeat(2001))).statusCode).toBe(400);
    expect((await escalate(id, undefined, {})).statusCode).toBe(401);
    expect((await escalate('1b2c3d4e-5f60-4718-9a0b-c1d2e3f4a5b6')).statusCode).toBe(404);
    const both = await Promise.all([escalate(id, 'r'.repeat(10)), escalate(id, 'r'.repeat(2000))]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });
});

describe('POST /dispute/{id}/withdraw', () => {
  it('the submitter withdraws from Pending, Under Review or Evidence Requested: 204, status Withdrawn', async () => {
    for (const s of ['Pending', 'Under Review', 'Evidence Requested'] as const) {
      const { id, wallet } = await inState(s);
      const res = await withdraw(id, wallet);
      expect(res.statusCode, s).toBe(204);
      expect(res.body).toBe('');
      const d = await get(id);
      expect(d.status).toBe('Withdrawn');
      expect(d.history[d.history.length - 1]).toMatchObject({ fromStatus: s, status: 'Withdrawn', changedBy: `api-key:${key.id}` });
    }
  });

  it('409 from Resolved, Rejected, Escalated and Withdrawn', async () => {
    for (const s of ['Resolved', 'Rejected', 'Escalated', 'Withdrawn'] as const) {
      const { id, wallet } = await inState(s);
      const res = await withdraw(id, wallet);
      expect(res.statusCode, s).toBe(409);
      expect(res.json().error).toBe('invalid_state');
    }
  });

  it('only the original submitter: another wallet, another key or another JWT gets 403', async () => {
    const { id, wallet } = await fileDispute();
    expect((await withdraw(id, randomAddress())).statusCode).toBe(403);
    // The right wallet named by a caller who is not it: a different API key, no JWT.
    expect((await withdraw(id, wallet, otherKey.headers)).statusCode).toBe(403);
    // A JWT of some other wallet.
    const stranger = await signIn(app);
    expect((await withdraw(id, wallet, { ...key.headers, ...stranger.auth })).statusCode).toBe(403);
    expect((await withdraw(id, wallet, { ...key.headers, authorization: 'Bearer bad' })).statusCode).toBe(401);
    expect((await withdraw(id, wallet, {})).statusCode).toBe(401);
    expect((await get(id)).status).toBe('Pending');
  });

  it("the wallet's own JWT works with any key; a double withdraw lets exactly one through", async () => {
    const me = await signIn(app);
    const { id } = await fileDispute(me.address.toLowerCase());
    const [a, b] = await Promise.all([
      withdraw(id, me.address, { ...otherKey.headers, ...me.auth }),
      withdraw(id, me.address, { ...otherKey.headers, ...me.auth }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([204, 409]);
    const d = await get(id);
    expect(d.history[d.history.length - 1].changedBy).toBe(`wallet:${me.address.toLowerCase()}`);
  });

  it('validates the body and id', async () => {
    const { id } = await fileDispute();
    expect((await withdraw(id, '0x1')).statusCode).toBe(400);
    expect((await withdraw('nope', randomAddress())).statusCode).toBe(400);
    expect((await withdraw('5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d', randomAddress())).statusCode).toBe(404);
  });
});

describe('CREDENCE_STRICT_OWNERSHIP=true', () => {
  it('withdrawal needs the submitter JWT', async () => {
    const strict = await createTestApp({ config: { strictOwnership: true } });
    try {
      const me = await signIn(strict);
      const k = await createKey(strict, 'Free', me);
      const res = await strict.inject({
        method: 'POST',
        url: '/api/v1/dispute',
        headers: k.headers,
        payload: { walletAddress: me.address, category: 'NFT', reason: 'Other', description: 'NFT score ignores my mints' },
      });
      const id = res.json().id;
      const w = (headers: Record<string, string>) =>
        strict.inject({ method: 'POST', url: `/api/v1/dispute/${id}/withdraw`, payload: { walletAddress: me.address }, headers });
      expect((await w(k.headers)).statusCode).toBe(401);
      expect((await w({ ...k.headers, ...me.auth })).statusCode).toBe(204);
    } finally {
      await strict.close();
    }
  });
});
