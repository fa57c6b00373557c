import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

let app: App;
let key: TestKey;
beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Starter');
});
afterAll(async () => {
  await app?.close();
});

const disputeBody = (over: Record<string, unknown> = {}): Record<string, unknown> & { walletAddress: string; description: string } => ({
  walletAddress: randomAddress(),
  category: 'DEFI_LENDING',
  reason: 'InaccurateScore',
  description: 'My lending history is missing repayments',
  ...over,
});
const file = (over: Record<string, unknown> = {}, headers: Record<string, string> = key.headers) =>
  app.inject({ method: 'POST', url: '/api/v1/dispute', payload: disputeBody(over), headers });
const fieldsOf = (res: { json(): { fields?: { field: string }[] } }) => [...new Set((res.json().fields ?? []).map((f) => f.field))].sort();

describe('POST /dispute', () => {
  it('files a Pending dispute and records the submitting key in its history', async () => {
    const body = disputeBody({ evidence: 'tx 0xabc repaid the loan' });
    const res = await app.inject({ method: 'POST', url: '/api/v1/dispute', payload: body, headers: key.headers });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const d = res.json();
    expect(d).toMatchObject({
      walletAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      category: 'DEFI_LENDING',
      reason: 'InaccurateScore',
      status: 'Pending',
      description: body.description,
      evidence: body.evidence,
      resolutionNotes: null,
      resolvedBy: null,
      revisedScore: null,
      escalation: null,
    });
    expect(d.walletAddress.toLowerCase()).toBe(body.walletAddress);
    expect(d.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.location).toBe(`/api/v1/dispute/${d.id}`);

    const got = await app.inject({ url: `/api/v1/dispute/${d.id}`, headers: key.headers });
    expect(got.statusCode).toBe(200);
    const full = got.json();
    const { history, ...rest } = full;
    expect(rest).toEqual(d);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ fromStatus: null, status: 'Pending', changedBy: `api-key:${key.id}`, note: null });
    expect(Date.parse(history[0].changedAt)).toBeGreaterThan(0);
    const rows = await app.ctx.db.query<{ submitted_by_key: string }>('SELECT submitted_by_key FROM disputes WHERE id = $1', [d.id]);
    expect(rows[0].submitted_by_key).toBe(key.id);
  });

  it('evidence is optional (null when absent), max 5,000', async () => {
    const none = await file();
    expect(none.statusCode).toBe(201);
    expect(none.json().evidence).toBeNull();
    expect((await file({ evidence: 'e'.repeat(5000) })).statusCode).toBe(201);
    expect(fieldsOf(await file({ evidence: 'e'.repeat(5001) }))).toEqual(['evidence']);
  });

  it('description is 10-2,000 characters', async () => {
    expect(fieldsOf(await file({ description: 'd'.repeat(9) }))).toEqual(['description']);
    expect((await file({ description: 'd'.repeat(10) })).statusCode).toBe(201);
    expect((await file({ description: 'd'.repeat(2000) })).statusCode).toBe(201);
    expect(fieldsOf(await file({ description: 'd'.repeat(2001) }))).toEqual(['description']);
  });

  it('reason is one of the eight values; IncorrectData gets 400', async () => {
    for (const r of [
      'InaccurateScore',
      'MissingActivity',
      'IncorrectCategory',
      'DataOutdated',
      'WrongWallet',
      'FraudulentData',
      'ComplianceError',
      'Other',
    ]) {
      expect((await file({ reason: r })).statusCode, r).toBe(201);
    }
    const bad = await file({ reason: 'IncorrectData' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: 'reason' }] });
  });

  it('category is one of the nine exact names', async () => {
    for (const c of ['OVERALL', 'DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER', 'COMPLIANCE']) {
      expect((await file({ category: c })).statusCode, c).toBe(201);
    }
    for (const c of ['defi_lending', 'DeFi_Lending', 'CREDIT', '']) expect(fieldsOf(await file({ category: c })), c).toEqual(['category']);
  });

  it('lists every missing or bad field at once', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/v1/dispute', payload: { walletAddress: '0x12' }, headers: key.headers });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res)).toEqual(['category', 'description', 'reason', 'walletAddress']);
  });

  it('needs a valid API key', async () => {
    const none = await file({}, {});
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    expect((await file({}, { 'x-api-key': 'cred_live_notarealkeynotarealkeynotarealkey00' })).statusCode).toBe(401);
  });
});

describe('GET /dispute/{id} and /dispute/wallet/{address}', () => {
  it('404 for an unknown id, 400 for a non-GUID, 401 without a key', async () => {
    const nf = await app.inject({ url: '/api/v1/dispute/3f2b8a4c-1d2e-4f5a-9b8c-7d6e5f4a3b2c', headers: key.headers });
    expect(nf.statusCode).toBe(404);
    expect(nf.json().error).toBe('not_found');
    const bad = await app.inject({ url: '/api/v1/dispute/12345', headers: key.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('id');
    expect((await app.inject({ url: '/api/v1/dispute/3f2b8a4c-1d2e-4f5a-9b8c-7d6e5f4a3b2c' })).statusCode).toBe(401);
  });

  it("lists a wallet's disputes newest first", async () => {
    const wallet = randomAddress();
    const ids: string[] = [];
    for (const category of ['NFT', 'SOCIAL', 'GOVERNANCE']) ids.push((await file({ walletAddress: wallet, category })).json().id);
    await file(); // someone else's
    const res = await app.inject({ url: `/api/v1/dispute/wallet/${wallet.toUpperCase().replace('0X', '0x')}`, headers: key.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.address.toLowerCase()).toBe(wallet);
    expect(body.address).not.toBe(wallet); // checksummed
    expect(body.count).toBe(3);
    expect(body.disputes.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    expect(body.disputes[0].history).toBeUndefined();
    const empty = await app.inject({ url: `/api/v1/dispute/wallet/${randomAddress()}`, headers: key.headers });
    expect(empty.json()).toMatchObject({ count: 0, disputes: [] });
    expect((await app.inject({ url: '/api/v1/dispute/wallet/0xnope', headers: key.headers })).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents every dispute route with its state rules', async () => {
    const doc = (await app.inject({ url: '/swagger/v1/swagger.json' })).json();
    const ops: Record<string, { description: string; responses: Record<string, unknown>; security?: unknown[] }> = {};
    for (const item of Object.values<Record<string, { operationId?: string; description: string; responses: Record<string, unknown> }>>(
      doc.paths,
    )) {
      for (const op of Object.values(item)) if (op.operationId?.startsWith('disputes.')) ops[op.operationId] = op;
    }
    expect(Object.keys(ops).sort()).toEqual(
      [
        'createDispute',
        'escalateDispute',
        'getDispute',
        'listDisputeQueue',
        'listWalletDisputes',
        'updateDisputeStatus',
        'withdrawDispute',
      ].map((o) => `disputes.${o}`),
    );
    expect(ops['disputes.escalateDispute'].description).toMatch(/every state except Withdrawn and Escalated/);
    expect(ops['disputes.withdrawDispute'].description).toMatch(/only from Pending, Under Review or Evidence Requested/i);
    expect(ops['disputes.withdrawDispute'].description).toMatch(/original submitter/);
    expect(ops['disputes.updateDisputeStatus'].description).toMatch(/revisedScore/);
    expect(Object.keys(ops['disputes.withdrawDispute'].responses)).toEqual(expect.arrayContaining(['204', '401', '403', '404', '409']));
    expect(Object.keys(ops['disputes.escalateDispute'].responses)).toEqual(expect.arrayContaining(['200', '401', '404', '409']));
    expect(ops['disputes.updateDisputeStatus'].security).toEqual([{ Bearer: [] }]);
    expect(ops['disputes.listDisputeQueue'].security).toEqual([{ Bearer: [] }]);
    // an API key, or the disputed wallet's own session
    expect(ops['disputes.createDispute'].security).toEqual([{ ApiKey: [] }, { Bearer: [] }]);
  });
});
