// CORS for browser pages on other origins (a dApp calling /auth/nonce, the hub's negotiate): only the origins in
// CREDENCE_CORS_ORIGINS get Access-Control-Allow-Origin; any other origin gets no CORS headers, so the browser
// keeps the answer from the page. The headers a client needs (request id, rate limits) are exposed.
import type { FastifyCorsOptions } from '@fastify/cors';

export const CORS_ALLOWED_HEADERS = [
  'Content-Type',
  'Authorization',
  'X-API-Key',
  'X-Request-Id',
  'Idempotency-Key',
  'X-SignalR-User-Agent',
  'X-Requested-With',
];
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'X-Response-Time',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Retry-After',
  'Retry-After',
];

export function corsOptions(origins: string[]): FastifyCorsOptions {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return {
    // `*` reflects any origin but without credentials; a listed origin may send credentials (SignalR's default).
    origin: any ? true : (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
    credentials: !any,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    maxAge: 600,
    strictPreflight: false,
  };
}
