import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { createTestApp, signIn } from '../../../test/helpers/app.js';
import { apiRoutes, type App } from './types.js';
import { EthAddress } from './schemas.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp({
    beforeReady: (a) =>
      apiRoutes(a, (s) => {
        s.get('/test/boom', { config: { auth: 'public' } }, async () => {
          throw new Error('secret connection string postgres://u:p@db');
        });
        const Echo = Type.Object({ address: EthAddress(), n: Type.Integer({ minimum: 1, maximum: 5 }), s: Type.String({ maxLength: 3 }) });
        s.post('/test/echo', { config: { auth: 'public' }, schema: { body: Echo, response: { 200: Echo } } }, async (req) => req.body);
      }),
  });
});
afterAll(() => app.close());

describe('error bodies', () => {
  it('unknown route: 404 not_found', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', details: expect.stringContaining('/api/v1/nope') });
    expect(res.headers['x-response-time']).toBeDefined();
  });

  it('malformed JSON: 400 validation_failed', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"address": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed', details: expect.stringContaining('JSON') });
  });

  it('a body that is not JSON: 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await app.inject({ method: 'POST', url: '/api/v1/test/echo', headers: { 'content-type': type }, payload: 'a=b' });
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toBe('unsupported_media_type');
    }
  });

  it('an oversized body: 413 payload_too_large, while a 50,000-character document fits', async () => {
    const huge = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ s: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload_too_large');
    // worst case for a 50,000-character DID document: every character escaped as \uXXXX
    const doc = JSON.stringify({ s: '\u0001'.repeat(50_000) });
    const fits = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: doc,
    });
    expect(fits.statusCode).toBe(400); // reaches validation (s is too long for this test route), not 413
  });

  it('validation lists every offending field, with address checksum rules', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { address: '0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045', n: 9, s: 'toolong' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error).toBe('validation_failed');
    expect(body.fields.map((f: { field: string }) => f.field).sort()).toEqual(['address', 'n', 's']);
    expect(body.fields.find((f: { field: string }) => f.field === 'address').message).toContain('EIP-55');
    const types = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { address: '0xd8da6bf26964af9d7eed9e03e53415d37aa96045', n: '3', s: 1 },
    });
    expect(
      types
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(['n', 's']);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/test/echo',
      payload: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', n: 3, s: 'abc', extra: 'ignored' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('unexpected failures: 500 internal without internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'internal', details: expect.stringContaining('request') });
    expect(res.body).not.toContain('postgres://');
  });

  it('admin-only check answers 403 forbidden for a signed-in non-admin', async () => {
    // the api-key creation route is JWT-only; a non-admin asking for a paid tier is refused with 403
    const user = await signIn(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: user.auth,
      payload: { organizationName: 'Org', contactEmail: 'a@b.co', tier: 'Enterprise' },
    });
    expect(res.statusCode).toBe(403);
    expect(Object.keys(res.json()).sort()).toEqual(['details', 'error']);
  });
});
