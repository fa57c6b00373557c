// An old sanctions list is said to be old (readiness, metric, admin status), and an upload that would
// drop most of the list in force (a one-entry sdn.csv replacing the 152-entry snapshot) is refused unless confirmed.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { createTestApp, signInAdmin, type SignedIn } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { fileText, sdnCsv } from './sdn-files.js';
import { stalenessOf } from './staleness.js';

const TOKEN = 'metrics-token-for-staleness-tests';
const oneEntryCsv = () =>
  fileText(
    sdnCsv([
      { id: 777001, name: 'ONE ENTRY', addresses: [{ ticker: 'ETH', address: getAddress(`0x${randomBytes(20).toString('hex')}`) }] },
    ]),
  );
const upload = (app: App, admin: SignedIn, body: string, query = '') =>
  app.inject({
    method: 'POST',
    url: `/api/v1/compliance/sanctions/import${query}`,
    headers: { 'content-type': 'text/csv', ...admin.auth },
    payload: body,
  });
const metricLine = async (app: App) => {
  const text = (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
  return text.split('\n').find((l) => l.startsWith('credence_sanctions_list_stale{'));
};

describe('the shipped 2024-09-27 snapshot with the default maximum age (30 days)', () => {
  let app: App;
  let admin: SignedIn;
  beforeAll(async () => {
    app = await createTestApp({ config: { sanctionsSnapshot: true, metricsToken: TOKEN } });
    admin = await signInAdmin(app);
  });
  afterAll(() => app.close());

  it('is reported stale by /health/ready (degraded, details saying what to do), the metric and the admin status route', async () => {
    const ready = await app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(200);
    const body = ready.json();
    expect(body.status).toBe('degraded');
    expect(body.checks.sanctions.status).toBe('stale');
    expect(body.checks.sanctions.details).toContain('2024-09-27');
    expect(body.checks.sanctions.details).toContain('CREDENCE_SANCTIONS_MAX_AGE_DAYS=30');
    expect(await metricLine(app)).toBe('credence_sanctions_list_stale{max_age_days="30"} 1');
    const lists = await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: admin.auth });
    expect(lists.statusCode).toBe(200);
    expect(lists.json().staleness).toMatchObject({
      stale: true,
      maxAgeDays: 30,
      warning: expect.stringContaining('import the current OFAC SDN list'),
    });
    expect(lists.json().staleness.ageDays).toBeGreaterThan(30);
  });

  it('a one-entry sdn.csv replacing the 152 entries is refused with 409 naming what it would drop; confirm=true imports it', async () => {
    const before = (await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: admin.auth })).json().current;
    expect(before.entryCount).toBe(152);
    const file = oneEntryCsv();
    const refused = await upload(app, admin, file, '?publishedAt=2026-01-02');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'invalid_state', details: expect.stringContaining('would drop 152 of the 152 entries') });
    expect(refused.json().details).toContain('confirm=true');
    // nothing changed
    const still = (await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: admin.auth })).json().current;
    expect(still.version).toBe(before.version);
    const confirmed = await upload(app, admin, file, '?publishedAt=2026-01-02&confirm=true');
    expect(confirmed.statusCode, confirmed.body).toBe(201);
    expect(confirmed.json().list).toMatchObject({ version: before.version + 1, entryCount: 1 });
  });

  it('confirm is declared in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const params = doc.paths['/api/v1/compliance/sanctions/import'].post.parameters.map((p: { name: string }) => p.name);
    expect(params).toContain('confirm');
  });
});

describe('a list within the configured age', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { sanctionsSnapshot: true, sanctionsMaxAgeDays: 3650, metricsToken: TOKEN } });
  });
  afterAll(() => app.close());

  it('is loaded, not stale, metric 0', async () => {
    const body = (await app.inject({ method: 'GET', url: '/health/ready' })).json();
    expect(body.checks.sanctions.status).toBe('loaded');
    expect(await metricLine(app)).toBe('credence_sanctions_list_stale{max_age_days="3650"} 0');
  });
});

describe('stalenessOf', () => {
  it('is stale only past the maximum age, and without a list never', () => {
    const day = 86_400_000;
    const now = Date.UTC(2026, 0, 31);
    expect(stalenessOf(new Date(now - 30 * day), 30, now)).toMatchObject({ ageDays: 30, stale: false, warning: null });
    expect(stalenessOf(new Date(now - 31 * day), 30, now)).toMatchObject({ ageDays: 31, stale: true });
    expect(stalenessOf(null, 30, now)).toEqual({ ageDays: null, maxAgeDays: 30, stale: false, warning: null });
  });
});
