// The OpenAPI 3.0.4 document is generated from the route schemas. Every route gets its security scheme and
// the error responses its auth mode and method can produce, so the document is complete by construction.
import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorBody } from './http/schemas.js';
import { defaultAuth, type AuthMode } from './auth/plugin.js';

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
  503: 'A dependency is not ready (`unavailable`).',
};

/** Error responses for a route schema: `errorResponses(403, 409)`. */
export function errorResponses(...codes: number[]) {
  const out: Record<number, unknown> = {};
  for (const c of codes) out[c] = { ...ErrorBody, description: DESCRIPTIONS[c] };
  return out;
}

const SECURITY: Record<AuthMode, Record<string, string[]>[] | undefined> = {
  none: [],
  public: [],
  optionalJwt: [{}, { Bearer: [] }],
  apiKey: [{ ApiKey: [] }],
  jwt: [{ Bearer: [] }],
  admin: [{ Bearer: [] }],
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { type: 'integer', description: 'requests allowed per second' },
  'X-RateLimit-Remaining': { type: 'integer', description: 'requests left in the current window' },
  'X-RateLimit-Reset': { type: 'integer', description: 'Unix time (seconds) when the window frees up' },
  'X-Response-Time': { type: 'string', description: 'server time spent on the request, in milliseconds' },
};

function augment(route: RouteOptions) {
  const schema = (route.schema ??= {}) as Record<string, unknown>;
  if (schema.hide) return;
  const mode = route.config?.auth ?? defaultAuth(route.url);
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const codes = new Set<number>([500]);
  if (schema.body || schema.querystring || schema.params) codes.add(400);
  if (methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH')) {
    codes.add(413);
    codes.add(415);
  }
  if (schema.params) codes.add(404);
  if (mode !== 'none') codes.add(429);
  if (mode === 'apiKey' || mode === 'jwt' || mode === 'admin' || mode === 'optionalJwt') codes.add(401);
  if (mode === 'admin') codes.add(403);
  const response = (schema.response ??= {}) as Record<string, unknown>;
  for (const [code, body] of Object.entries(errorResponses(...codes))) if (!(code in response)) response[code] = body;
  if (mode === 'apiKey') {
    for (const [code, body] of Object.entries(response)) {
      // A copy: response schemas are often shared objects (also used as array items elsewhere).
      if (/^2/.test(code) && body && typeof body === 'object' && !('headers' in body)) response[code] = { ...body, headers: RATE_HEADERS };
    }
  }
  if (schema.security === undefined && SECURITY[mode]) schema.security = SECURITY[mode];
}

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
          '(plus `fields` on validation errors). Requests with an API key carry `X-RateLimit-*` headers; all responses carry `X-Response-Time`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Key from POST /api/v1/billing/api-keys (cred_live_...).' },
          Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'JWT from Sign-In with Ethereum (POST /api/v1/auth/verify).' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/swagger', uiConfig: { docExpansion: 'list', deepLinking: true } });
  for (const url of ['/swagger/v1/swagger.json', '/swagger/swagger.json']) {
    app.get(url, { schema: { hide: true }, config: { auth: 'none' } }, async () => app.swagger());
  }
}
