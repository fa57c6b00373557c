// /metrics scraped like Prometheus does, the request id echoed, and CORS headers only for the configured origins.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers/app.js';
import type { App } from './http/types.js';

const TOKEN = 'metrics-token-for-tests';
const ALLOWED = 'http://127.0.0.1:5701';
let app: App;
beforeAll(async () => {
  app = await createTestApp({ config: { metricsToken: TOKEN, corsOrigins: [ALLOWED] } });
});
afterAll(() => app.close());

/** The value of one sample line, e.g. `credence_webhook_outbox_depth 0`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[4]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('needs the bearer token when CREDENCE_METRICS_TOKEN is set', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe('unauthorized');
  });

  it('counts requests by route and status, with latency histograms and the operational gauges', async () => {
    for (let i = 0; i < 3; i++) expect((await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/no/such/route/xyz' })).statusCode).toBe(404);
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(sample(text, 'credence_http_requests_total', { method: 'GET', route: '/api/v1/auth/nonce', status: '200' })).toBe(3);
    // unmatched URLs are one series, not one per URL
    expect(sample(text, 'credence_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(text).not.toContain('/no/such/route');
    expect(sample(text, 'credence_http_request_duration_seconds_count', { route: '/api/v1/auth/nonce', status: '200' })).toBe(3);
    expect(sample(text, 'credence_http_request_duration_seconds_bucket', { route: '/api/v1/auth/nonce', status: '200', le: '+Inf' })).toBe(
      3,
    );
    expect(sample(text, 'credence_webhook_outbox_depth')).toBe(0);
    expect(sample(text, 'credence_webhook_outbox_oldest_age_seconds')).toBe(0);
    for (const name of [
      'credence_score_updates_total',
      'credence_ingestion_lag_seconds',
      'credence_proof_queue',
      'credence_sanctions_list_age_seconds',
      'credence_process_cpu_user_seconds_total',
    ]) {
      expect(text, name).toContain(`# HELP ${name}`);
    }
    expect(sample(text, 'credence_build_info')).toBe(1);
  });

  it('counts the score changes this instance computed, by category', async () => {
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
    const before = sample(await scrape(), 'credence_score_updates_total', { category: 'NFT' }) ?? 0;
    const wallet = `0x${randomBytes(20).toString('hex')}`;
    const scoring = app.ctx.services.scoring!;
    await scoring.getScore(wallet, 'NFT'); // first scores: no change
    await scoring.applyRevisedScore(wallet, 'NFT', 640, 'metrics test', randomUUID());
    expect(sample(await scrape(), 'credence_score_updates_total', { category: 'NFT' })).toBe(before + 1);
  });
});

describe('X-Request-Id', () => {
  it('echoes a sane id, and replaces a missing or hostile one with a generated id', async () => {
    const sane = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-0af7651916cd43dd8448eb211c80319c' } });
    expect(sane.headers['x-request-id']).toBe('trace-0af7651916cd43dd8448eb211c80319c');
    const none = await app.inject({ method: 'GET', url: '/health' });
    expect(none.headers['x-request-id']).toMatch(/^[\w-]+$/);
    const other = await app.inject({ method: 'GET', url: '/health' });
    expect(other.headers['x-request-id']).not.toBe(none.headers['x-request-id']);
    for (const hostile of ['a b\nforged log line', 'x'.repeat(500), '<script>']) {
      const res = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': hostile } });
      expect(res.headers['x-request-id']).not.toBe(hostile);
      expect(res.headers['x-request-id']).toMatch(/^[\w-]{1,64}$/);
    }
    // errors carry it too (the 500 body names it; every error is logged with it)
    const err = await app.inject({ method: 'GET', url: '/api/v1/nope', headers: { 'x-request-id': 'abc-123' } });
    expect(err.headers['x-request-id']).toBe('abc-123');
  });
});

describe('CORS', () => {
  it('answers a preflight from an allowed origin and exposes the rate-limit and request-id headers', async () => {
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/nonce',
      headers: { origin: ALLOWED, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(pre.headers['access-control-allow-headers']).toLowerCase()).toContain('x-api-key');
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/nonce', headers: { origin: ALLOWED } });
    expect(res.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(String(res.headers['access-control-expose-headers'])).toContain('X-RateLimit-Remaining');
  });

  it('gives another origin no CORS headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/auth/nonce', headers: { origin: 'http://127.0.0.1:5702' } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const pre = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/auth/nonce',
      headers: { origin: 'http://127.0.0.1:5702', 'access-control-request-method': 'GET' },
    });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
});
