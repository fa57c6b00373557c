import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { createKey, createTestApp, eventually, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { CATEGORIES } from '../scoring/contracts.js';

let app: App;
type LightMyRequestResponse = Awaited<ReturnType<App['inject']>>;
let key: TestKey;

beforeAll(async () => {
  app = await createTestApp();
  key = await createKey(app, 'Growth');
});
afterAll(async () => {
  await app?.close();
});

const get = (url: string, headers: Record<string, string> = key.headers) => app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
const batch = (payload: unknown, headers: Record<string, string> = key.headers, qs = '') =>
  app.inject({ method: 'POST', url: `/api/v1/reputation/batch${qs}`, headers, payload: payload as object });
/** A Free key allows 10 requests/s: retry what the per-second limiter refused (refused calls count no queries). */
async function paced(call: () => Promise<LightMyRequestResponse>): Promise<LightMyRequestResponse> {
  let res: LightMyRequestResponse | undefined;
  await eventually(async () => {
    res = await call();
    return !(res.statusCode === 429 && res.json().error === 'rate_limited');
  });
  return res!;
}
const usage = async (k: TestKey) => (await paced(() => get('/billing/usage', k.headers))).json().queriesThisMonth as number;

function expectEntry(e: Record<string, unknown>) {
  expect(Number.isInteger(e.score)).toBe(true);
  expect(e.score as number).toBeGreaterThanOrEqual(0);
  expect(e.score as number).toBeLessThanOrEqual(1000);
  expect(e.confidence as number).toBeGreaterThanOrEqual(0);
  expect(e.confidence as number).toBeLessThanOrEqual(1);
  expect(['Very Low', 'Low', 'Medium', 'High', 'Very High']).toContain(e.tier);
  expect(new Date(e.calculatedAt as string).toISOString()).toBe(e.calculatedAt);
  expect(e.modelVersion).toBe('4.1.0');
}

describe('auth', () => {
  it.each([
    ['GET', `/api/v1/reputation/${'0x' + '1'.repeat(40)}`],
    ['GET', `/api/v1/reputation/${'0x' + '1'.repeat(40)}/OVERALL`],
    ['POST', '/api/v1/reputation/batch'],
  ])('%s %s needs a valid API key', async (method, url) => {
    const payload = method === 'POST' ? { addresses: [randomAddress()], category: 'OVERALL' } : undefined;
    const missing = await app.inject({ method: method as 'GET', url, payload });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toBe('unauthorized');
    const bad = await app.inject({
      method: method as 'GET',
      url,
      payload,
      headers: { 'x-api-key': 'cred_live_notarealkeynotarealkeynotarealkey00' },
    });
    expect(bad.statusCode).toBe(401);
  });
});

describe('GET /reputation/{address}', () => {
  it('returns the checksummed address, a null DID and nine entries without factors', async () => {
    const addr = randomAddress();
    const res = await get(`/reputation/${addr}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeDefined();
    const body = res.json();
    expect(body.address).toBe(getAddress(addr));
    expect(body.did).toBeNull();
    expect(body.scores.map((s: { category: string }) => s.category)).toEqual([...CATEGORIES]);
    for (const s of body.scores) {
      expectEntry(s);
      expect(s.factors).toBeUndefined();
    }
  });
  it('adds factors with explain=true; a wallet with no evidence is low with low confidence', async () => {
    const res = await get(`/reputation/${randomAddress()}?explain=true`);
    expect(res.statusCode).toBe(200);
    const scores = res.json().scores as {
      category: string;
      score: number;
      confidence: number;
      factors: { code: string; impact: number }[];
    }[];
    for (const s of scores) expect(Array.isArray(s.factors)).toBe(true);
    const lending = scores.find((s) => s.category === 'DEFI_LENDING')!;
    expect(lending.score).toBe(0);
    expect(lending.confidence).toBeLessThan(0.5);
    // No chain source in a default install: nothing was read, so "no lending history" is not stated as a fact.
    expect(lending.factors.map((f) => f.code)).toEqual(['NO_CHAIN_SOURCE']);
    expect(scores.find((s) => s.category === 'IDENTITY')!.factors.map((f) => f.code)).toContain('NO_IDENTITY_EVIDENCE');
    expect(scores.find((s) => s.category === 'COMPLIANCE')!.score).toBeGreaterThan(0);
  });
  it('accepts any case, refuses a bad checksum or a malformed address', async () => {
    const addr = randomAddress();
    expect((await get(`/reputation/${addr.toUpperCase().replace('0X', '0x')}`)).statusCode).toBe(200);
    expect((await get(`/reputation/${getAddress(addr)}`)).statusCode).toBe(200);
    const mixedWrong = getAddress(addr)
      .replace(/[a-f]/, (c) => c.toUpperCase())
      .replace(/[A-F]/, (c) => c.toLowerCase());
    for (const bad of ['0x123', 'nothex', `${addr}00`, mixedWrong === getAddress(addr) ? 'x' : mixedWrong]) {
      const res = await get(`/reputation/${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error).toBe('validation_failed');
      expect(res.json().fields[0].field).toBe('address');
    }
  });
});

describe('GET /reputation/{address}/{category}', () => {
  it('returns one entry with factors by default, without them on explain=false', async () => {
    const addr = randomAddress();
    for (const category of CATEGORIES) {
      const res = await get(`/reputation/${addr}/${category}`);
      expect(res.statusCode).toBe(200);
      const e = res.json();
      expect(e.category).toBe(category);
      expectEntry(e);
      expect(e.factors.length).toBeGreaterThan(0);
      expect(Object.keys(e.factors[0]).sort()).toEqual(['code', 'description', 'impact']);
    }
    const bare = (await get(`/reputation/${addr}/OVERALL?explain=false`)).json();
    expect(bare.factors).toBeUndefined();
  });
  it.each(['overall', 'Overall', 'FOO', 'DEFI-LENDING', ''])('refuses category %j', async (category) => {
    const res = await get(`/reputation/${randomAddress()}/${category}`);
    if (category === '') {
      // "/reputation/<address>/" is the wallet route with a trailing slash or 404, never a score entry
      expect(res.json().category).toBeUndefined();
      return;
    }
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[0].field).toBe('category');
  });
  it('serves repeated reads from memory without touching the database', async () => {
    const addr = randomAddress();
    expect((await get(`/reputation/${addr}/GOVERNANCE`)).statusCode).toBe(200);
    const db = app.ctx.db;
    const original = db.query;
    let queries = 0;
    db.query = ((sql: string, params?: unknown[]) => {
      if (/\bscores\b/.test(sql)) queries++;
      return original.call(db, sql, params);
    }) as typeof db.query;
    try {
      for (let i = 0; i < 5; i++) expect((await get(`/reputation/${addr}/GOVERNANCE`)).statusCode).toBe(200);
      expect((await get(`/reputation/${addr}/NFT`)).statusCode).toBe(200);
    } finally {
      db.query = original;
    }
    expect(queries).toBe(0);
  });
  it('is evicted from the cache when the score changes (dispute revision)', async () => {
    const addr = randomAddress();
    const before = (await get(`/reputation/${addr}/DEFI_TRADING`)).json();
    expect(before.score).toBe(0);
    const changes = await app.ctx.services.scoring!.applyRevisedScore(addr, 'DEFI_TRADING', 650, 'wallet:0xadmin', 'dispute-1');
    expect(changes.map((c) => c.category).sort()).toEqual(['DEFI_TRADING', 'OVERALL']);
    const after = (await get(`/reputation/${addr}/DEFI_TRADING`)).json();
    expect(after.score).toBe(650);
    expect(after.tier).toBe('High');
    expect(after.factors[0]).toMatchObject({ code: 'DISPUTE_REVISION', impact: 650 });
    const overall = (await get(`/reputation/${addr}/OVERALL`)).json();
    const oldOverall = changes.find((c) => c.category === 'OVERALL')!;
    expect(overall.score).toBe(oldOverall.newScore);
    expect(overall.score).toBe(oldOverall.oldScore! + Math.round(0.12 * 650));
  });
});

describe('POST /reputation/batch', () => {
  it('answers in request order with checksummed addresses, duplicates included', async () => {
    const a = randomAddress();
    const b = randomAddress();
    const c = randomAddress();
    await app.ctx.services.scoring!.applyRevisedScore(b, 'GOVERNANCE', 420, 'wallet:0xadmin', 'dispute-2');
    const addresses = [a, getAddress(b), c, a.toUpperCase().replace('0X', '0x')];
    const res = await batch({ addresses, category: 'GOVERNANCE' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.category).toBe('GOVERNANCE');
    expect(body.count).toBe(4);
    expect(body.results.map((r: { address: string }) => r.address)).toEqual([a, b, c, a].map((x) => getAddress(x)));
    expect(body.results.map((r: { score: number }) => r.score)).toEqual([0, 420, 0, 0]);
    for (const r of body.results) {
      expectEntry(r);
      expect(Object.keys(r).sort()).toEqual([
        'address',
        'backingUsd',
        'calculatedAt',
        'conduct',
        'confidence',
        'coverage',
        'modelVersion',
        'score',
        'tier',
      ]);
    }
    const explained = (await batch({ addresses: [b], category: 'GOVERNANCE' }, key.headers, '?explain=true')).json();
    expect(explained.results[0].factors[0].code).toBe('DISPUTE_REVISION');
  });
  it('answers each entry as the single read does (stored values to the millisecond, nulls, factors or not)', async () => {
    const [a, b] = [randomAddress(), randomAddress()];
    expect((await batch({ addresses: [a, b], category: 'OVERALL' })).statusCode).toBe(200);
    // stored values the model never writes itself: microseconds, no decay anchor, a long fraction, a backing in cents
    await app.ctx.db.query(
      `UPDATE scores SET calculated_at = '2026-01-02T03:04:05.678912Z', decay_anchor = NULL, confidence = 0.123456789 WHERE address = $1`,
      [a.toLowerCase()],
    );
    await app.ctx.db.query(
      `UPDATE scores SET backing_usd = 1234.56, conduct = 777, decay_anchor = '2025-06-01T00:00:00.5Z' WHERE address = $1`,
      [b.toLowerCase()],
    );
    for (const category of ['DEFI_LENDING', 'IDENTITY']) {
      for (const explain of [false, true]) {
        const results = (await batch({ addresses: [a, b], category }, key.headers, `?explain=${explain}`)).json().results;
        for (const [i, w] of [a, b].entries()) {
          const single = (await get(`/reputation/${w}/${category}?explain=${explain}`)).json();
          const { address, coverage, ...entry } = results[i];
          expect(address).toBe(getAddress(w));
          expect({ ...entry, category }).toEqual({ ...single, coverage: undefined });
          expect(coverage.status).toBe(single.coverage.status);
        }
      }
    }
  });
  it('takes 100 addresses and refuses 101 or none', async () => {
    const hundred = Array.from({ length: 100 }, randomAddress);
    const ok = await batch({ addresses: hundred, category: 'OVERALL' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().count).toBe(100);
    expect(ok.json().results.map((r: { address: string }) => r.address.toLowerCase())).toEqual(hundred);
    const tooMany = await batch({ addresses: [...hundred, randomAddress()], category: 'OVERALL' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().fields).toEqual([{ field: 'addresses', message: 'must have at most 100 items' }]);
    const none = await batch({ addresses: [], category: 'OVERALL' });
    expect(none.statusCode).toBe(400);
    expect(none.json().fields[0].field).toBe('addresses');
  });
  it('names every invalid field', async () => {
    const res = await batch({ addresses: [randomAddress(), '0x1234', randomAddress(), 'zz'], category: 'overall' });
    expect(res.statusCode).toBe(400);
    const fields = res
      .json()
      .fields.map((f: { field: string }) => f.field)
      .sort();
    expect(fields).toEqual(['addresses[1]', 'addresses[3]', 'category']);
    expect((await batch({ addresses: [randomAddress()] })).json().fields).toEqual([{ field: 'category', message: 'is required' }]);
    expect((await batch({ category: 'OVERALL' })).json().fields).toEqual([{ field: 'addresses', message: 'is required' }]);
    const text = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: { ...key.headers, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
  });
});

describe('query counting', () => {
  it('counts 1 per read and 1 per batch address; a batch that does not fit is refused whole', async () => {
    const free = await createKey(app, 'Free');
    expect(await usage(free)).toBe(0);
    expect((await paced(() => get(`/reputation/${randomAddress()}`, free.headers))).statusCode).toBe(200);
    expect((await paced(() => get(`/reputation/${randomAddress()}/NFT`, free.headers))).statusCode).toBe(200);
    expect(await usage(free)).toBe(2);
    expect(
      (await paced(() => batch({ addresses: [randomAddress(), randomAddress(), randomAddress()], category: 'NFT' }, free.headers)))
        .statusCode,
    ).toBe(200);
    expect(await usage(free)).toBe(5);
    // invalid requests count nothing
    expect((await paced(() => batch({ addresses: ['0x1'], category: 'NFT' }, free.headers))).statusCode).toBe(400);
    expect((await paced(() => get(`/reputation/${randomAddress()}/nft`, free.headers))).statusCode).toBe(400);
    expect(await usage(free)).toBe(5);
    const fill = Array.from({ length: 94 }, randomAddress);
    expect((await paced(() => batch({ addresses: fill, category: 'NFT' }, free.headers))).statusCode).toBe(200);
    expect(await usage(free)).toBe(99);
    const over = await paced(() => batch({ addresses: [randomAddress(), randomAddress()], category: 'NFT' }, free.headers));
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toBe('quota_exceeded');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await usage(free)).toBe(99);
    expect((await paced(() => batch({ addresses: [randomAddress()], category: 'NFT' }, free.headers))).statusCode).toBe(200);
    expect(await usage(free)).toBe(100);
    expect((await paced(() => get(`/reputation/${randomAddress()}/NFT`, free.headers))).statusCode).toBe(429);
  });
});

describe('OpenAPI', () => {
  it('documents the three routes with their operation ids', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    expect(doc.paths['/api/v1/reputation/{address}'].get.operationId).toBe('reputation.getWalletScores');
    expect(doc.paths['/api/v1/reputation/{address}/{category}'].get.operationId).toBe('reputation.getCategoryScore');
    expect(doc.paths['/api/v1/reputation/batch'].post.operationId).toBe('reputation.getBatchScores');
  });
});
