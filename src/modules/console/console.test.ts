// The console's files as the service serves them: landing at /, the SPA at /console and its routes, hashed
// assets cached for good, HTML revalidated, a CSP allowing only this origin, and /api 404s unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { createTestApp } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { DEFAULT_DIR, loadFiles } from './files.js';
import { sourceHash } from '../../../console/source-hash.js';

let app: App;
const files = loadFiles();
const asset = [...(files?.keys() ?? [])].find((k) => k.startsWith('assets/') && k.endsWith('.js'));

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('console files', () => {
  it('are built (console/dist is committed build output)', () => {
    expect(files).not.toBeNull();
    expect(asset).toBeTruthy();
  });

  it('are built from the current console sources (else: npm run build:console, and commit console/dist)', () => {
    const info = JSON.parse(files!.get('build-info.json')!.body.toString()) as { sourceHash: string };
    expect(info.sourceHash).toBe(sourceHash(path.resolve(DEFAULT_DIR, '..')));
  });

  it('all of its JavaScript together is at most 250 KB gzipped', () => {
    const js = [...files!.entries()].filter(([k]) => k.endsWith('.js'));
    const gz = js.reduce((n, [, f]) => n + (f.gzip ?? f.body).length, 0);
    expect(gz).toBeLessThanOrEqual(250_000);
  });

  it('/ is the landing page, with a CSP that allows only self', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('/console/');
    expect(res.body).toContain('/swagger');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('/console and any of its routes answer the app (SPA fallback)', async () => {
    for (const url of ['/console', '/console/', '/console/developer', '/console/admin', '/console/verify?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(files!.get('index.html')!.body.toString());
    }
  });

  it('hashed assets are immutable, gzip when asked, 304 on a matching ETag', async () => {
    const res = await app.inject({ method: 'GET', url: `/console/${asset}`, headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).equals(files!.get(asset!)!.body)).toBe(true);
    const again = await app.inject({ method: 'GET', url: `/console/${asset}`, headers: { 'if-none-match': String(res.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const plain = await app.inject({ method: 'GET', url: `/console/${asset}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(files!.get(asset!)!.body)).toBe(true);
  });

  it('a missing asset is a JSON 404, never the HTML page', async () => {
    const res = await app.inject({ method: 'GET', url: '/console/assets/nope-123.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', details: 'No file /console/assets/nope-123.js.' });
  });

  it('serves only its own files: no way out of console/dist', async () => {
    for (const url of ['/console/../package.json', '/console/..%2f..%2fpackage.json', '/console/assets/..%2f..%2f..%2fpackage.json', '/console/%2e%2e/%2e%2e/package.json']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('"dependencies"');
      expect([200, 404], url).toContain(res.statusCode);
      if (res.statusCode === 200) expect(res.body, url).toBe(files!.get('index.html')!.body.toString());
    }
  });

  it('unknown /api paths and other paths keep the JSON 404', async () => {
    for (const url of ['/api/v1/nope', '/api/nope', '/consoles', '/favicon.ico']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toBe('not_found');
    }
  });

  it('the routes are not in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p === '/' || p.startsWith('/console'))).toEqual([]);
  });
});
