import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createTestApp } from '../../test/helpers/app.js';
import type { App } from './http/types.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

describe('OpenAPI document', () => {
  it('is served at both paths and passes swagger-parser validation', async () => {
    const a = await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' });
    const b = await app.inject({ method: 'GET', url: '/swagger/swagger.json' });
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual(a.json());
    const doc = a.json();
    expect(doc.openapi).toBe('3.0.4');
    await SwaggerParser.validate(structuredClone(doc));
  });

  it('describes every route with an operationId, tags, responses, errors and its security scheme', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.Bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const ids = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, Record<string, unknown>>>(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-z][\w-]*\.[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId as string), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId as string);
        expect((op.tags as string[])?.length, where).toBeGreaterThan(0);
        const responses = op.responses as Record<string, unknown>;
        expect(
          Object.keys(responses).some((c) => /^2/.test(c)),
          `${where} has no success response`,
        ).toBe(true);
        expect(responses['500'], `${where} lacks 500`).toBeDefined();
        if (path.startsWith('/api/v1/') && !path.endsWith('/stripe/webhook')) expect(responses['429'], `${where} lacks 429`).toBeDefined();
      }
    }
    const usage = doc.paths['/api/v1/billing/usage'].get;
    expect(usage.security).toEqual([{ ApiKey: [] }]);
    expect(usage.responses['401']).toBeDefined();
    expect(usage.responses['200'].headers['X-RateLimit-Limit']).toBeDefined();
    const keys = doc.paths['/api/v1/billing/api-keys'].post;
    expect(keys.security).toEqual([{ Bearer: [] }]);
    expect(keys.responses['403']).toBeDefined();
    expect(keys.responses['400'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ValidationError' });
    expect(doc.components.schemas.ValidationError.properties.fields).toBeDefined();
    expect(doc.paths['/health'].get.operationId).toBe('health.get');
  });

  it('serves the interactive explorer at /swagger', async () => {
    const res = await app.inject({ method: 'GET', url: '/swagger' });
    const page = res.statusCode === 302 ? await app.inject({ method: 'GET', url: res.headers.location as string }) : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });
});
