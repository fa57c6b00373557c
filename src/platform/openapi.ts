// The OpenAPI 3.0.4 document is generated from the route schemas. Every route gets its security scheme and
// the error responses its auth mode and method can produce, so the document is complete by construction.
import type { FastifyInstance, RouteOptions, onRequestHookHandler } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { PAGE_HEADERS } from './http/page-security.js';
import { Type } from '@sinclair/typebox';
import { ErrorBody, FieldErrorSchema } from './http/schemas.js';
import { PAGINATION_DOC } from './http/pagination.js';
import { defaultAuth, type AuthMode } from './auth/plugin.js';
import { finishDocument, schemaName } from './openapi-document.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid JSON, or a field violating its rule (`validation_failed`, with `fields`).',
  401: 'Missing or bad credentials (`unauthorized`).',
  403: 'Authenticated but not allowed (`forbidden`).',
  404: 'Unknown record or route (`not_found`).',
  409: 'A transition the state machine forbids (`invalid_state`).',
  413: 'Body too large (`payload_too_large`).',
  415: 'The body is not JSON (`unsupported_media_type`).',
  422: 'The statement to prove is false (`proof_unsatisfiable`).',
  429: 'Per-second rate limit (`rate_limited`) or monthly quota (`quota_exceeded`) exceeded; see `Retry-After`.',
  500: 'Unexpected failure (`internal`).',
  502: 'An upstream provider failed (`upstream_unavailable`).',
  503: 'A dependency is not ready, or this instance is shutting down (`unavailable`).',
};

/** The body of a 400: the error plus every offending field. */
export const ValidationErrorBody = Type.Object(
  {
    error: Type.String({ description: 'always `validation_failed`' }),
    details: Type.String({ description: 'human-readable explanation naming every offending field' }),
    fields: Type.Optional(
      Type.Array({ ...FieldErrorSchema, title: 'FieldError' }, { description: 'every offending field, not only the first' }),
    ),
  },
  { title: 'ValidationError', description: DESCRIPTIONS[400] },
);

const { $id: _id, ...ErrorWithoutId } = ErrorBody;

/** An integer with thousands separators for a description (100,000): toLocaleString would load ICU's number
 *  formatting at start (~15 ms) for the three descriptions that use it. */
export const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Error responses for a route schema: `errorResponses(403, 409)`. */
export function errorResponses(...codes: number[]) {
  const out: Record<number, unknown> = {};
  for (const c of codes) out[c] = c === 400 ? ValidationErrorBody : { ...ErrorWithoutId, description: DESCRIPTIONS[c] };
  return out;
}

/** Tag descriptions for the explorer and generated clients; a route may use a tag not listed here. */
const TAGS = [
  { name: 'Auth', description: 'Sign-In with Ethereum (EIP-4361): a nonce, then a signed message for a one-hour JWT.' },
  { name: 'Billing', description: 'API keys, usage, quotas and plan checkout.' },
  { name: 'Reputation', description: 'Scores in nine categories, single and batch.' },
  { name: 'Proofs', description: 'Groth16 proofs about a score or an age, and their verification keys.' },
  { name: 'Identity', description: 'DIDs, DID documents and verifiable credentials.' },
  { name: 'Compliance', description: 'KYC sessions, age verification and OFAC sanctions screening.' },
  { name: 'Disputes', description: 'Disputes about a score, with escalation to on-chain governance.' },
  { name: 'Debt claims', description: 'Debt claims between wallets, which feed the credit-history score.' },
  { name: 'Webhooks', description: 'Signed, retried `score.updated` deliveries.' },
  { name: 'Health', description: 'Liveness, readiness and metrics for operators.' },
];

const SECURITY: Record<AuthMode, Record<string, string[]>[] | undefined> = {
  none: [],
  public: [],
  optionalJwt: [{}, { Bearer: [] }],
  apiKey: [{ ApiKey: [] }],
  jwt: [{ Bearer: [] }],
  admin: [{ Bearer: [] }],
};

function augment(route: RouteOptions) {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (schema.hide) return;
  const mode = route.config?.auth ?? defaultAuth(route.url);
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  // 500 and 503 (a dependency not ready, or the instance shutting down) can answer any route.
  const codes = new Set<number>([500, 503]);
  if (schema.body || schema.querystring || schema.params) codes.add(400);
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) {
    codes.add(413);
    codes.add(415);
  }
  if (schema.params) codes.add(404);
  if (mode !== 'none') codes.add(429);
  // Any route with credentials also reads an X-API-Key sent to it (its environment): a bad one is 401.
  if (mode !== 'none') codes.add(401);
  if (mode === 'admin') codes.add(403);
  // Test credentials (cred_test_ key, test sign-in) get 403 on routes that keep no sandbox apart.
  if (mode !== 'none' && !route.config?.sandbox) codes.add(403);
  const response = (schema.response ??= {}) as Record<string, unknown>;
  for (const [code, body] of Object.entries(errorResponses(...codes))) if (!(code in response)) response[code] = body;
  // routes an owner reads with its session alone: an API key, or the wallet's own sign-in
  if (mode === 'apiKey' && route.config?.owner) {
    if (route.config.owner !== 'any') codes.add(403);
    for (const [code, body] of Object.entries(errorResponses(...codes))) if (!(code in response)) response[code] = body;
    if (schema.security === undefined) schema.security = [{ ApiKey: [] }, { Bearer: [] }];
  }
  if (schema.security === undefined && SECURITY[mode]) schema.security = SECURITY[mode];
}

const SWAGGER_RUNTIME_STYLE = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

const pageHeaders: onRequestHookHandler = (_req, reply, done) => {
  reply.headers(PAGE_HEADERS);
  done();
};

export async function registerOpenApi(app: FastifyInstance, version: string) {
  app.addHook('onRoute', augment);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.4',
      info: {
        title: 'Credence API',
        version,
        description:
          'Reputation scores, zero-knowledge proofs, DIDs and verifiable credentials, compliance (KYC, OFAC sanctions), ' +
          'disputes, debt claims, webhooks and billing for wallets. Every error has the body `{error, details}` ' +
          '(plus `fields` on validation errors). Requests with an API key carry `X-RateLimit-*` headers; all responses carry `X-Response-Time`.\n\n' +
          PAGINATION_DOC,
      },
      servers: [{ url: '/' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          ApiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'Key from POST /api/v1/billing/api-keys (cred_live_...).',
          },
          Bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'JWT from Sign-In with Ethereum (POST /api/v1/auth/verify).',
          },
        },
      },
    },
    // Schemas with an $id nested in route schemas become components named after them (not def-0, def-1, ...).
    refResolver: {
      buildLocalReference: (json: Record<string, unknown>, _base: unknown, _fragment: string, i: number) =>
        schemaName(json) ?? `Schema${i}`,
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject) as never,
  });
  // The API explorer is hardened like every page: swagger-ui's own CSP (hashes of its inline parts), never
  // framed, no Referer, no sniffing; without upgrade-insecure-requests, which would break it on http://localhost.
  await app.register(swaggerUi, {
    routePrefix: '/swagger',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;?/, '')
        // the one <style> swagger-ui-bundle inserts at run time (its hash; the page test fails if a new version changes it)
        .replace("style-src 'self' https:", `style-src 'self' https: '${SWAGGER_RUNTIME_STYLE}'`),
    uiHooks: { onRequest: pageHeaders },
  });
  for (const url of ['/swagger/v1/swagger.json', '/swagger/swagger.json']) {
    app.get(url, { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
  }
}
