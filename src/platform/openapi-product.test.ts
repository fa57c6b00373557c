// The OpenAPI document as a product: named schemas, examples that match their schemas, per-status errors,
// declared headers, optional defaults, real descriptions; and the response check every test app runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createTestApp, createKey } from '../../test/helpers/app.js';
import { toJsonSchema } from '../../test/helpers/openapi-check.js';
import { ajvFormats } from './http/schemas.js';
import { codesFor } from './openapi-examples.js';
import { apiRoutes, type App } from './http/types.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let app: App;
let doc: Json;
const ops = () =>
  Object.entries<Json>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${path}`, op })),
  );

beforeAll(async () => {
  app = await createTestApp({
    beforeReady: (a) =>
      apiRoutes(a, (s) => {
        // A route whose handler sends a pre-serialized body that breaks its own schema (as a hand-written fast path could).
        s.get(
          '/test/contract-breaker',
          {
            config: { auth: 'public' },
            schema: { operationId: 'test.breakContract', tags: ['Test'], response: { 200: Type.Object({ n: Type.Integer() }) } },
          },
          async (_req, reply) => reply.type('application/json').send('{"n":"not a number"}' as never),
        );
      }),
  });
  doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
});
afterAll(async () => {
  // the deliberate mismatch above was claimed by its inject (rejected), so close succeeds
  await app.close();
});

describe('OpenAPI as a product', () => {
  it('names the domain schemas as components, and every request and success body is a named schema', () => {
    for (const name of [
      'ScoreEntry',
      'WalletScores',
      'Dispute',
      'DebtClaim',
      'Error',
      'ValidationError',
      'Webhook',
      'ApiKey',
      'Usage',
      'SanctionsResult',
      'DidRecord',
      'Credential',
      'KycSession',
    ]) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    for (const name of Object.keys(doc.components.schemas)) {
      expect(name, 'component names are identifiers').toMatch(/^[A-Za-z][A-Za-z0-9_.-]*$/);
      expect(name, 'no generated def-N names').not.toMatch(/^def-\d+$/);
      // Name2, Name3: one name for two different structures
      const base = /^(.*[A-Za-z])(\d+)$/.exec(name)?.[1];
      expect(
        base && !/Response$/.test(base) && doc.components.schemas[base] ? `${name} vs ${base}` : null,
        'conflicting schema names',
      ).toBeNull();
    }
    for (const { where, op } of ops()) {
      for (const media of Object.values<Json>(op.requestBody?.content ?? {}))
        expect(media.schema.$ref, `${where} request body`).toBeDefined();
      for (const [code, res] of Object.entries<Json>(op.responses)) {
        const json = res.content?.['application/json'];
        if (json && json.schema.type !== 'array')
          expect(json.schema.$ref ?? json.schema.allOf?.[0]?.$ref, `${where} ${code}`).toBeDefined();
      }
    }
  });

  it('has an example for every request and response, and each example matches its schema', () => {
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    addFormats.default(ajv);
    for (const [n, v] of Object.entries(ajvFormats)) ajv.addFormat(n, { type: 'string', validate: v });
    ajv.addSchema(toJsonSchema(doc) as Json, 'doc');
    const failures: string[] = [];
    const check = (where: string, schema: Json, value: unknown) => {
      const v = ajv.compile(toJsonSchema(schema) as Json & { $ref?: string });
      if (!v(value)) failures.push(`${where}: ${JSON.stringify(v.errors?.slice(0, 3))} in ${JSON.stringify(value).slice(0, 300)}`);
    };
    const withDoc = (schema: Json) =>
      schema.$ref ? { $ref: `doc${schema.$ref}` } : JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    for (const { where, op } of ops()) {
      const medias: [string, Json][] = [
        ...Object.entries<Json>(op.requestBody?.content ?? {}).map(([t, m]) => [`${where} request ${t}`, m] as [string, Json]),
        ...Object.entries<Json>(op.responses).flatMap(([c, r]) =>
          Object.entries<Json>(r.content ?? {}).map(([t, m]) => [`${where} ${c} ${t}`, m] as [string, Json]),
        ),
      ];
      for (const [label, media] of medias) {
        const examples = media.example !== undefined ? [media.example] : Object.values<Json>(media.examples ?? {}).map((e) => e.value);
        expect(examples.length, `${label} has no example`).toBeGreaterThan(0);
        if (label.includes('json')) for (const e of examples) check(label, withDoc(media.schema), e);
      }
    }
    expect(failures).toEqual([]);
  });

  it('gives each error status its own codes in the examples', () => {
    const byStatus: Record<string, string[]> = {
      400: ['validation_failed'],
      401: ['unauthorized'],
      403: ['forbidden'],
      404: ['not_found'],
      409: ['invalid_state'],
      413: ['payload_too_large'],
      415: ['unsupported_media_type'],
      422: ['proof_unsatisfiable'],
      429: ['rate_limited', 'quota_exceeded'],
      500: ['internal'],
      502: ['upstream_unavailable'],
      503: ['unavailable'],
    };
    const seen = new Set<string>();
    for (const { where, op } of ops()) {
      for (const [code, res] of Object.entries<Json>(op.responses)) {
        if (!byStatus[code]) continue;
        seen.add(code);
        const media = res.content?.['application/json'];
        if (!['#/components/schemas/Error', '#/components/schemas/ValidationError'].includes(media?.schema.$ref)) continue;
        const codes = media.example ? [media.example.error] : Object.values<Json>(media.examples).map((e) => e.value.error);
        // every code the shared map gives this status (errors.ts), which includes the usual ones
        expect(codes.sort(), `${where} ${code}`).toEqual(codesFor(Number(code)).sort());
        expect(codes, `${where} ${code}`).toEqual(expect.arrayContaining(byStatus[code]));
        expect(res.description, `${where} ${code}`).not.toBe('Default Response');
      }
    }
    expect([...seen].sort()).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409', '413', '415', '429', '500', '503']));
    expect(doc.components.schemas.Error.properties.error.enum).toEqual(expect.arrayContaining(['not_found', 'quota_exceeded', 'internal']));
  });

  it('declares Retry-After and X-RateLimit-* (429 everywhere, success of API-key routes) and X-Request-Id', () => {
    expect(doc.components.headers.RetryAfter.required).toBe(true);
    for (const { where, op } of ops()) {
      const apiKey = (op.security ?? []).some((s: Json) => 'ApiKey' in s);
      for (const [code, res] of Object.entries<Json>(op.responses)) {
        expect(res.headers['X-Request-Id'], `${where} ${code}`).toBeDefined();
        if (code === '429') {
          expect(res.headers['Retry-After'], `${where} 429`).toEqual({ $ref: '#/components/headers/RetryAfter' });
          expect(res.headers['X-RateLimit-Limit'], `${where} 429`).toBeDefined();
        }
        if (apiKey && /^2/.test(code))
          for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
            expect(res.headers[h], `${where} ${code} ${h}`).toBeDefined();
      }
    }
  });

  it('never marks a parameter or body field with a default as required, and describes every response', () => {
    for (const { where, op } of ops()) {
      for (const p of op.parameters ?? []) if (p.schema?.default !== undefined) expect(p.required, `${where} ?${p.name}`).toBe(false);
      for (const [code, res] of Object.entries<Json>(op.responses)) {
        expect(res.description, `${where} ${code}`).not.toBe('Default Response');
        expect(res.description.length, `${where} ${code}`).toBeGreaterThan(3);
      }
    }
    const explain = doc.paths['/api/v1/reputation/{address}/{category}'].get.parameters.find((p: Json) => p.name === 'explain');
    expect(explain).toMatchObject({ in: 'query', required: false, schema: { default: true } });
  });

  it('checks every response against the document: a body that breaks its schema fails the request in tests', async () => {
    await expect(app.inject({ method: 'GET', url: '/api/v1/test/contract-breaker' })).rejects.toThrow(
      /does not match the published schema.*\/n must be integer/,
    );
    // and the real routes pass: an API-key call with its rate headers, an error, an unknown route
    const key = await createKey(app);
    const usage = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers });
    expect(usage.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: { 'x-api-key': 'cred_live_nope' } })).statusCode).toBe(
      401,
    );
    expect((await app.inject({ method: 'GET', url: '/api/v1/no-such-route' })).statusCode).toBe(404);
  });
});
