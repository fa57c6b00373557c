// A signed-in wallet reads its own scores, history, disputes, DID, KYC status and proofs with its
// session alone (Authorization: Bearer, no API key, no quota of any plan); another wallet's session gets 403 with the
// decisions.md error body; batches and other wallets stay for integrators (API keys).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, signIn, type SignedIn, type TestKey } from '../../../test/helpers/app.js';
import { setScore } from '../../modules/proofs/test-support.js';
import type { App } from '../http/types.js';

let app: App;
let owner: SignedIn;
let other: SignedIn;
let ownersKey: TestKey;
beforeAll(async () => {
  app = await createTestApp();
  owner = await signIn(app);
  other = await signIn(app);
  // a key the owner happens to hold: session reads must not count against its plan
  ownersKey = await createKey(app, 'Free', owner);
});
afterAll(() => app.close());

const get = (url: string, headers: Record<string, string>) => app.inject({ method: 'GET', url, headers });
const post = (url: string, headers: Record<string, string>, payload: object) => app.inject({ method: 'POST', url, headers, payload });
const used = async () => (await get('/api/v1/billing/usage', ownersKey.headers)).json().queriesThisMonth as number;
const did = (a: string) => `did:credence:1:${a.toLowerCase()}`;

function expectForbiddenFor(res: { statusCode: number; json(): { error: string; details: string } }, wallet: string) {
  expect(res.statusCode).toBe(403);
  const body = res.json();
  expect(Object.keys(body).sort()).toEqual(['details', 'error']);
  expect(body.error).toBe('forbidden');
  expect(body.details.toLowerCase()).toContain(wallet.toLowerCase());
  expect(body.details).toContain('API key');
}

describe('reads with the session alone', () => {
  it('own scores, one category, its history and its changes: 200, counting no quota', async () => {
    const before = await used();
    const a = owner.address;
    const scores = await get(`/api/v1/reputation/${a}`, owner.auth);
    expect(scores.statusCode, scores.body).toBe(200);
    expect(scores.json()).toMatchObject({ address: a });
    expect(scores.json().scores).toHaveLength(9);
    const one = await get(`/api/v1/reputation/${a}/OVERALL`, owner.auth);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().category).toBe('OVERALL');
    // lowercase path: the same wallet
    expect((await get(`/api/v1/reputation/${a.toLowerCase()}/SOCIAL`, owner.auth)).statusCode).toBe(200);
    const history = await get(`/api/v1/reputation/${a}/OVERALL/history`, owner.auth);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().address).toBe(a);
    const changes = await get(`/api/v1/reputation/changes?address=${a}`, owner.auth);
    expect(changes.statusCode, changes.body).toBe(200);
    // no rate-limit headers of a key; the session is limited per client address
    expect(scores.headers['x-ratelimit-limit']).toBe(String(app.ctx.config.ipRateLimit));
    expect(await used()).toBe(before);
  });

  it('own DID and own KYC status (none yet: 404), no key', async () => {
    const reg = await post('/api/v1/identity/register', {}, { walletAddress: owner.address });
    expect(reg.statusCode, reg.body).toBe(201);
    const res = await get(`/api/v1/identity/${encodeURIComponent(did(owner.address))}`, owner.auth);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().did).toBe(did(owner.address));
    const kyc = await get(`/api/v1/compliance/kyc/${encodeURIComponent(did(owner.address))}/status`, owner.auth);
    expect(kyc.statusCode, kyc.body).toBe(404);
    // decisions.md keeps 404 for no session; its details say "not verified yet" and the way on
    expect(kyc.json().details).toContain('not verified yet');
    expect(kyc.json().details).toContain('POST /api/v1/compliance/kyc/initiate');
  });

  it('own disputes: file one, list them, read it, escalate it, withdraw another', async () => {
    const body = {
      walletAddress: owner.address,
      category: 'SOCIAL',
      reason: 'InaccurateScore',
      description: 'My social score misses my transfers.',
    };
    const filed = await post('/api/v1/dispute', owner.auth, body);
    expect(filed.statusCode, filed.body).toBe(201);
    const id = filed.json().id;
    const list = await get(`/api/v1/dispute/wallet/${owner.address}`, owner.auth);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().disputes.map((d: { id: string }) => d.id)).toContain(id);
    const one = await get(`/api/v1/dispute/${id}`, owner.auth);
    expect(one.statusCode, one.body).toBe(200);
    // the history names the wallet that filed it, not "anonymous"
    expect(one.json().history[0].changedBy).toBe(`wallet:${owner.address.toLowerCase()}`);
    const esc = await post(`/api/v1/dispute/${id}/escalate`, owner.auth, { reason: 'No answer after two weeks of waiting.' });
    expect(esc.statusCode, esc.body).toBe(200);
    const second = (await post('/api/v1/dispute', owner.auth, body)).json().id;
    const w = await post(`/api/v1/dispute/${second}/withdraw`, owner.auth, { walletAddress: owner.address });
    expect(w.statusCode, w.body).toBe(204);
    // another wallet's session cannot read or act on them
    expectForbiddenFor(await get(`/api/v1/dispute/${id}`, other.auth), owner.address);
    expectForbiddenFor(await get(`/api/v1/dispute/wallet/${owner.address}`, other.auth), owner.address);
    expectForbiddenFor(
      await post(`/api/v1/dispute/${id}/escalate`, other.auth, { reason: 'Not my dispute to escalate at all.' }),
      owner.address,
    );
    // an unknown id is still 404 with a session
    expect((await get('/api/v1/dispute/00000000-0000-4000-8000-000000000000', owner.auth)).statusCode).toBe(404);
  });

  it('proves about itself with the session alone; a proof about another wallet is 403', async () => {
    await setScore(app, owner.address.toLowerCase(), 'DEFI_LENDING', 700);
    const before = await used();
    const res = await post('/api/v1/reputation/prove', owner.auth, {
      subject: owner.address,
      proofType: 'ScoreAboveThreshold',
      category: 'DEFI_LENDING',
      threshold: 600,
    });
    expect(res.statusCode, res.body).toBe(200);
    const v = await post('/api/v1/reputation/verify', other.auth, { proof: res.json().proof });
    expect(v.statusCode, v.body).toBe(200);
    expect(v.json()).toMatchObject({ valid: true });
    expect(await used()).toBe(before);
    expectForbiddenFor(
      await post('/api/v1/reputation/prove', other.auth, {
        subject: owner.address,
        proofType: 'ScoreAboveThreshold',
        category: 'DEFI_LENDING',
        threshold: 600,
      }),
      owner.address,
    );
  }, 60_000);
});

describe('what a session may not do', () => {
  it("another wallet's scores, history, DID and KYC: 403 naming the wallet", async () => {
    const stranger = randomAddress();
    for (const url of [
      `/api/v1/reputation/${stranger}`,
      `/api/v1/reputation/${stranger}/OVERALL`,
      `/api/v1/reputation/${stranger}/OVERALL/history`,
      `/api/v1/reputation/changes?address=${stranger}`,
      `/api/v1/identity/${encodeURIComponent(did(stranger))}`,
      `/api/v1/compliance/kyc/${encodeURIComponent(did(stranger))}/status`,
    ])
      expectForbiddenFor(await get(url, owner.auth), stranger);
  });

  it('the feed of every wallet and batches stay for API keys', async () => {
    const feed = await get('/api/v1/reputation/changes', owner.auth);
    expect(feed.statusCode).toBe(403);
    expect(feed.json().details).toContain('address=');
    const batch = await post('/api/v1/reputation/batch', owner.auth, { addresses: [owner.address], category: 'OVERALL' });
    expect(batch.statusCode).toBe(401);
  });

  it('no credentials: 401 naming both ways; a bad token: 401', async () => {
    const none = await get(`/api/v1/reputation/${owner.address}`, {});
    expect(none.statusCode).toBe(401);
    expect(none.json().details).toContain('X-API-Key');
    expect(none.json().details).toContain('Authorization: Bearer');
    const bad = await get(`/api/v1/reputation/${owner.address}`, { authorization: 'Bearer not-a-token' });
    expect(bad.statusCode).toBe(401);
  });

  it('an API key still reads any wallet and counts against its plan', async () => {
    const before = await used();
    const res = await get(`/api/v1/reputation/${randomAddress()}/OVERALL`, ownersKey.headers);
    expect(res.statusCode).toBe(200);
    expect(await used()).toBe(before + 1);
  });
});

describe('the OpenAPI document', () => {
  it('declares the session (Bearer) beside the API key on exactly the owner routes', async () => {
    const doc = (await get('/swagger/v1/swagger.json', {})).json();
    const security = (path: string, method: string) => JSON.stringify(doc.paths[path][method].security);
    const both = JSON.stringify([{ ApiKey: [] }, { Bearer: [] }]);
    for (const [path, method] of [
      ['/api/v1/reputation/{address}', 'get'],
      ['/api/v1/reputation/{address}/{category}', 'get'],
      ['/api/v1/reputation/{address}/{category}/history', 'get'],
      ['/api/v1/reputation/changes', 'get'],
      ['/api/v1/reputation/prove', 'post'],
      ['/api/v1/reputation/verify', 'post'],
      ['/api/v1/dispute', 'post'],
      ['/api/v1/dispute/{id}', 'get'],
      ['/api/v1/dispute/wallet/{address}', 'get'],
      ['/api/v1/dispute/{id}/escalate', 'post'],
      ['/api/v1/dispute/{id}/withdraw', 'post'],
      ['/api/v1/identity/{did}', 'get'],
      ['/api/v1/compliance/kyc/{did}/status', 'get'],
    ]) {
      expect(security(path, method), `${method} ${path}`).toBe(both);
      if (path !== '/api/v1/reputation/verify') expect(doc.paths[path][method].responses['403'], `${method} ${path}`).toBeDefined();
    }
    expect(security('/api/v1/reputation/batch', 'post')).toBe(JSON.stringify([{ ApiKey: [] }]));
  });
});
