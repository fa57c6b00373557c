// GET /api/v1/reputation/{address}/{category} answered before Fastify's router when everything it needs is in
// memory: a known live API key, an in-process rate-limit and quota decision, the score in the 60 s cache. The
// steps are the Fastify route's (platform/auth/plugin.ts, routes.ts) through the same functions; anything else
// (an unknown key, a miss, an error to report, a query string, ENS names, test keys) goes to the Fastify route.
import type { AppContext } from '../../platform/context.js';
import { DECIDED_LIMIT } from '../../platform/auth/plugin.js';
import { isAddress } from '../../platform/http/address.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import type { FastPaths, FastRoute } from '../../platform/http/fast-path.js';
import type { LimitResult } from '../../platform/rate-limit/index.js';
import type { QuotaResult } from '../../platform/rate-limit/quota.js';
import { CATEGORIES, type Category, type ScoreEntry } from '../scoring/contracts.js';
import { serializedEntry } from './bodies.js';

const PREFIX = '/api/v1/reputation/';
const ROUTE = '/api/v1/reputation/:address/:category';
const JSON_TYPE = 'application/json; charset=utf-8';
const categories = new Set<string>(CATEGORIES);

export function fastCategoryRead(ctx: AppContext, paths: FastPaths): FastRoute {
  // Named once here, not per request: the hot path creates no closures (each one also costs a name under tsx).
  function afterLimit(req: IncomingMessage, res: ServerResponse, startedAt: number, key: ApiKeyPrincipal, entry: ScoreEntry, l: LimitResult) {
    if (!l.allowed) return handOver(req, res, l);
    // the quota in memory, or (Redis up: exact across instances) one round trip
    const q = ctx.quota.consumeCached(key.keyId, key.monthlyLimit, 1);
    if (q) return answer(req, res, startedAt, key, entry, l, q);
    ctx.quota.consume(key.keyId, key.monthlyLimit, 1).then(
      (r) => answer(req, res, startedAt, key, entry, l, r),
      () => handOver(req, res, l),
    );
  }

  function answer(req: IncomingMessage, res: ServerResponse, startedAt: number, key: ApiKeyPrincipal, entry: ScoreEntry, l: LimitResult, q: QuotaResult) {
    // refused: the Fastify route answers (a refused reservation counted nothing, so it is asked again there)
    if (!q.allowed) return handOver(req, res, l);
    ctx.apiKeys.touch?.(key.keyId);
    const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'x-ratelimit-limit': l.limit, 'x-ratelimit-remaining': l.remaining, 'x-ratelimit-reset': l.resetAt };
    if (cors === 'listed') headers.vary = 'Origin';
    paths.send(req, res, startedAt, { route: ROUTE, status: 200, headers, body: serializedEntry(entry, true) });
  }

  /** The Fastify route takes over with this request's rate-limit decision, so the request is not counted twice. */
  function handOver(req: IncomingMessage, res: ServerResponse, l: LimitResult) {
    (req as { [DECIDED_LIMIT]?: LimitResult })[DECIDED_LIMIT] = l;
    paths.fallback(req, res);
  }

  const cors = ctx.config.corsOrigins.length === 0 ? 'none' : ctx.config.corsOrigins.includes('*') ? 'any' : 'listed';

  return function categoryRead(req, res, startedAt) {
    const url = req.url!;
    // exactly /api/v1/reputation/0x<40 hex>/<CATEGORY>: a query string, an encoded character or a name goes to Fastify
    if (!url.startsWith(PREFIX) || url.charCodeAt(PREFIX.length + 42) !== 47 /* / */) return false;
    const address = url.slice(PREFIX.length, PREFIX.length + 42);
    const category = url.slice(PREFIX.length + 43);
    if (!categories.has(category) || !isAddress(address)) return false;
    const h = req.headers;
    // a bearer token beside the key must be of its environment (else 401, mixed environments): the router decides that
    if (h['content-length'] !== undefined || h['transfer-encoding'] !== undefined || h.authorization !== undefined) return false;
    // browsers (and any origin under `*`) get their CORS headers from the route; without an Origin header the
    // route adds only `Vary: Origin` (cors.ts), as below
    if (cors !== 'none' && (cors === 'any' || h.origin !== undefined)) return false;
    const raw = h['x-api-key'];
    if (typeof raw !== 'string') return false;
    const key = ctx.apiKeys.cached?.(raw);
    if (!key || key.environment === 'test') return false;
    const entry = ctx.services.scoring?.peekScore?.(address, category as Category);
    if (!entry) return false;
    const l = ctx.limiter.hit(`key:${key.keyId}`, key.rateLimit);
    if (l instanceof Promise) l.then((r) => afterLimit(req, res, startedAt, key, entry, r), () => paths.fallback(req, res));
    else afterLimit(req, res, startedAt, key, entry, l);
    return true;
  };
}
