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
import { explainedEntry } from './bodies.js';

const PREFIX = '/api/v1/reputation/';
const ROUTE = '/api/v1/reputation/:address/:category';
const JSON_TYPE = 'application/json; charset=utf-8';
const categories = new Set<string>(CATEGORIES);

/** What a request URL names: the wallet (lower case) and the category; null when the URL is not this read's. */
interface Target {
  address: string;
  category: Category;
}
const MAX_TARGETS = 10_000;

/** exactly /api/v1/reputation/0x<40 hex>/<CATEGORY>: a query string, an encoded character or a name goes to Fastify */
function parseTarget(url: string): Target | null {
  if (url.charCodeAt(PREFIX.length + 42) !== 47 /* / */) return null;
  const address = url.slice(PREFIX.length, PREFIX.length + 42);
  const category = url.slice(PREFIX.length + 43);
  if (!categories.has(category) || !isAddress(address)) return null;
  return { address: address.toLowerCase(), category: category as Category };
}

export function fastCategoryRead(ctx: AppContext, paths: FastPaths): FastRoute {
  // The URLs of this read seen lately, parsed (an address checked against its checksum) once each rather than per
  // request; emptied when full, so URLs no one repeats cost no memory for long.
  const targets = new Map<string, Target | null>();
  function targetOf(url: string): Target | null {
    let t = targets.get(url);
    if (t === undefined) {
      t = parseTarget(url);
      if (targets.size >= MAX_TARGETS) targets.clear();
      targets.set(url, t);
    }
    return t;
  }
  // the rate limiter's id of each key, made once per principal instead of a new string per request
  const limitIds = new WeakMap<ApiKeyPrincipal, string>();
  function limitIdOf(key: ApiKeyPrincipal): string {
    let id = limitIds.get(key);
    if (id === undefined) limitIds.set(key, (id = `key:${key.keyId}`));
    return id;
  }

  // Named once here, not per request: the hot path creates no closures (each one also costs a name under tsx).
  function afterLimit(
    req: IncomingMessage,
    res: ServerResponse,
    startedAt: number,
    key: ApiKeyPrincipal,
    entry: ScoreEntry,
    l: LimitResult,
  ) {
    if (!l.allowed) return handOver(req, res, l);
    // the quota in memory, or (Redis up: exact across instances) one round trip
    const q = ctx.quota.consumeCached(key.keyId, key.monthlyLimit, 1);
    if (q) return answer(req, res, startedAt, key, entry, l, q);
    ctx.quota.consume(key.keyId, key.monthlyLimit, 1).then(
      (r) => answer(req, res, startedAt, key, entry, l, r),
      () => handOver(req, res, l),
    );
  }

  function answer(
    req: IncomingMessage,
    res: ServerResponse,
    startedAt: number,
    key: ApiKeyPrincipal,
    entry: ScoreEntry,
    l: LimitResult,
    q: QuotaResult,
  ) {
    // refused: the Fastify route answers (a refused reservation counted nothing, so it is asked again there)
    if (!q.allowed) return handOver(req, res, l);
    ctx.apiKeys.touch?.(key.keyId);
    const headers: Record<string, string | number> = {
      'content-type': JSON_TYPE,
      'x-ratelimit-limit': l.limit,
      'x-ratelimit-remaining': l.remaining,
      'x-ratelimit-reset': l.resetAt,
    };
    if (cors === 'listed') headers.vary = 'Origin';
    const body = explainedEntry(entry);
    paths.send(req, res, startedAt, { route: ROUTE, status: 200, headers, body: body.full, bodyBytes: body.fullBytes });
  }

  /** The Fastify route takes over with this request's rate-limit decision, so the request is not counted twice. */
  function handOver(req: IncomingMessage, res: ServerResponse, l: LimitResult) {
    (req as { [DECIDED_LIMIT]?: LimitResult })[DECIDED_LIMIT] = l;
    paths.fallback(req, res);
  }

  const cors = ctx.config.corsOrigins.length === 0 ? 'none' : ctx.config.corsOrigins.includes('*') ? 'any' : 'listed';

  return function categoryRead(req, res, startedAt) {
    const url = req.url!;
    if (!url.startsWith(PREFIX)) return false;
    const target = targetOf(url);
    if (target === null) return false;
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
    const entry = ctx.services.scoring.peekScore(target.address, target.category);
    if (!entry) return false;
    const l = ctx.limiter.hit(limitIdOf(key), key.rateLimit);
    if (l instanceof Promise)
      l.then(
        (r) => afterLimit(req, res, startedAt, key, entry, r),
        () => paths.fallback(req, res),
      );
    else afterLimit(req, res, startedAt, key, entry, l);
    return true;
  };
}
