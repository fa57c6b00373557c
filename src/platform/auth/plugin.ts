// Per-route authentication, rate limiting and query accounting, attached at route registration from the
// route's `config` (auth mode and query cost) so routes that need none of it pay nothing.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import { AppError, forbidden, unauthorized } from '../errors.js';
import { hashApiKey, type ApiKeyPrincipal } from './api-key.js';
import type { JwtUser } from './jwt.js';
import type { AppContext } from '../context.js';
import type { LimitResult } from '../rate-limit/index.js';
import type { QuotaResult } from '../rate-limit/quota.js';
import { runInEnvironment, type Environment } from './environment.js';

/**
 * none: no credentials and no limit (health, docs). public: no credentials, limited per client IP.
 * optionalJwt: public, and a JWT when sent must be valid. apiKey: X-API-Key, limited per key.
 * jwt: a valid JWT. admin: a JWT with the admin role.
 */
export type AuthMode = 'none' | 'public' | 'optionalJwt' | 'apiKey' | 'jwt' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthMode;
    /** Queries this call counts against the monthly quota (the spec's "What counts as a query"). */
    cost?: number | ((req: FastifyRequest) => number);
    /**
     * The route keeps live and test apart: test credentials (a cred_test_ key, or a JWT signed in for the
     * test environment) see and change only test data through it. Every other route refuses test credentials (403),
     * so a route that has not said so never serves a live record to them.
     */
    sandbox?: boolean;
    /**
     * On an apiKey route about one wallet's own records: the wallet the request is about. The route then
     * also takes that wallet's session alone (Authorization: Bearer, no API key, no quota of any plan); a session of
     * another wallet gets 403. null: no such record, the route answers its 404 itself. May throw its own error.
     * `'any'` (not a function): any signed-in wallet may call the route with its session (nothing owned is read).
     */
    owner?: ((req: FastifyRequest) => string | null | Promise<string | null>) | 'any';
  }
  interface FastifyRequest {
    apiKey?: ApiKeyPrincipal;
    user?: JwtUser;
    quotaCost?: number;
    /** live or test, from the credentials; also readable by repos through currentEnvironment() */
    environment?: Environment;
  }
}

type HookDone = (err?: Error) => void;

/**
 * A rate-limit decision already taken for this request (by a route answered before Fastify's router, see
 * platform/http/fast-path.ts) that then handed the request over: the API-key hook uses it instead of counting the
 * request a second time.
 */
export const DECIDED_LIMIT = Symbol('credence.decidedLimit');
type WithDecidedLimit = { [DECIDED_LIMIT]?: LimitResult };

function setLimitHeaders(reply: FastifyReply, r: LimitResult) {
  reply.header('X-RateLimit-Limit', r.limit);
  reply.header('X-RateLimit-Remaining', r.remaining);
  reply.header('X-RateLimit-Reset', r.resetAt);
  if (!r.allowed) {
    reply.header('Retry-After', r.retryAfter);
    reply.header('X-RateLimit-Retry-After', r.retryAfter);
  }
}

function rateLimited(r: LimitResult, who: string): AppError {
  return new AppError('rate_limited', `Rate limit of ${r.limit} requests per second exceeded for this ${who}; retry in ${r.retryAfter} s.`);
}

/** The environment of the API key a request carried, kept for the comparison with its bearer token. */
const KEY_ENVIRONMENT = Symbol('credence.keyEnvironment');
type WithKeyEnvironment = { [KEY_ENVIRONMENT]?: Environment };

const ENV_NAMES: Record<Environment, string> = { live: 'a live key (cred_live_...)', test: 'a test key (cred_test_...)' };

/**
 * A key of one environment beside a sign-in of the other: refused, never settled silently (a live key
 * once answered sandbox scores because a test token came with it).
 */
export function mixedEnvironments(keyEnv: Environment, tokenEnv: Environment): AppError {
  return unauthorized(
    `Mixed environments: the API key is ${ENV_NAMES[keyEnv]} but the bearer token was signed in for the ${tokenEnv} environment. ` +
      `Send credentials of one environment: ${keyEnv === 'live' ? 'a live sign-in with a live key, or a test key with a test sign-in' : 'a test sign-in (environment: "test") with a test key, or a live key with a live sign-in'}, or only one of them.`,
  );
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : '';
}

export function registerAuth(app: FastifyInstance, ctx: AppContext) {
  const keyCache = ctx.caches.create<ApiKeyPrincipal | null>('api-keys', { ttlMs: 60_000 });
  ctx.apiKeys = {
    resolve: async () => null,
    invalidate: (hash) => keyCache.invalidate(hash),
    // The key when it is already known here, live and unexpired; undefined sends the caller through the full hook.
    cached: (raw) => {
      if (raw === '') return undefined;
      const p = keyCache.get(hashOf(raw));
      return p && (p.expiresAt == null || p.expiresAt > Date.now()) ? p : undefined;
    },
  };

  const admins = new Set(ctx.config.adminAddresses);

  async function limitIp(req: FastifyRequest, reply: FastifyReply) {
    const r = await ctx.limiter.hit(`ip:${req.ip}`, ctx.config.ipRateLimit);
    setLimitHeaders(reply, r);
    if (!r.allowed) throw rateLimited(r, 'client address');
  }

  async function readJwt(req: FastifyRequest, required: boolean) {
    const token = bearer(req);
    if (token === null) {
      if (required) throw unauthorized('This operation needs a JWT: send Authorization: Bearer <token> from POST /api/v1/auth/verify.');
      return;
    }
    const user = token ? await ctx.jwt.verify(token) : null;
    if (!user) throw unauthorized('The bearer token is invalid or expired; sign in again with POST /api/v1/auth/verify.');
    if (user.environment === 'test') req.environment = 'test';
    // The admin role is whatever the settings say now, not what the token said when issued: an address
    // removed from CREDENCE_ADMIN_ADDRESSES loses admin at once, even with an unexpired token.
    const isAdmin = admins.has(user.address);
    if (isAdmin !== user.roles.includes('admin')) user.roles = isAdmin ? [...user.roles, 'admin'] : user.roles.filter((r) => r !== 'admin');
    req.user = user;
  }

  /**
   * On routes that do not take an API key, a key sent anyway still says which environment the caller works in: a
   * test key makes the request a test request (it must be a valid key; the request is not counted against it).
   */
  async function keyEnvironment(req: FastifyRequest) {
    const raw = req.headers['x-api-key'];
    if (raw === undefined) return;
    if (typeof raw !== 'string' || raw === '') throw unauthorized('The API key is not valid.');
    const hash = hashOf(raw);
    let p = keyCache.get(hash);
    if (p === undefined) {
      p = await ctx.apiKeys.resolve(hash);
      keyCache.set(hash, p, p ? undefined : 5_000);
    }
    if (!p || (p.expiresAt != null && p.expiresAt <= Date.now())) throw unauthorized('The API key is not valid.');
    const keyEnv = p.environment ?? 'live';
    if (req.user && req.user.environment !== keyEnv) throw mixedEnvironments(keyEnv, req.user.environment);
    (req as WithKeyEnvironment)[KEY_ENVIRONMENT] = keyEnv;
    if (keyEnv === 'test') req.environment = 'test';
  }

  /**
   * On routes that do not take a JWT (public, apiKey), a JWT sent anyway says which environment the caller works in
   * too: one signed in for the test environment makes the request a test request, as a test key would. A token that
   * does not verify is not a credential these routes take, and is ignored as before.
   */
  async function jwtEnvironment(req: FastifyRequest) {
    const token = bearer(req);
    if (!token) return;
    const user = await ctx.jwt.verify(token);
    if (!user) return;
    const keyEnv = (req as WithKeyEnvironment)[KEY_ENVIRONMENT];
    if (keyEnv && keyEnv !== user.environment) throw mixedEnvironments(keyEnv, user.environment);
    if (user.environment === 'test') req.environment = 'test';
  }

  const hooks: Record<AuthMode, onRequestHookHandler | null> = {
    none: null,
    public: async (req, reply) => {
      await limitIp(req, reply);
      await keyEnvironment(req);
      await jwtEnvironment(req);
    },
    optionalJwt: async (req, reply) => {
      await limitIp(req, reply);
      await readJwt(req, false);
      await keyEnvironment(req);
    },
    jwt: async (req, reply) => {
      await limitIp(req, reply);
      await readJwt(req, true);
      await keyEnvironment(req);
    },
    admin: async (req, reply) => {
      await limitIp(req, reply);
      await readJwt(req, true);
      if (!req.user!.roles.includes('admin')) throw forbidden('This operation is for administrators only.');
      await keyEnvironment(req);
    },
    // Callback style with a synchronous fast path: a cached key and an in-process limiter need no promise.
    apiKey: (req, reply, done) => {
      const raw = req.headers['x-api-key'];
      if (typeof raw !== 'string' || raw === '') return done(unauthorized('Missing API key: send it in the X-API-Key header.'));
      const hash = hashOf(raw);
      const cached = keyCache.get(hash);
      if (cached !== undefined) return admitKey(req, reply, done, cached);
      ctx.apiKeys.resolve(hash).then((p) => {
        // Unknown keys are remembered briefly so a flood of bad keys does not reach the database.
        keyCache.set(hash, p, p ? undefined : 5_000);
        admitKey(req, reply, done, p);
      }, done);
    },
  };

  /**
   * apiKey routes with an `owner`: an API key when one is sent (integrators, counted against its plan),
   * else the signed-in wallet's session (owners read their own records with no key). Which wallet the session may
   * read is checked once the request is parsed (registerOwnerSessions).
   */
  const apiKeyOrSession: onRequestHookHandler = (req, reply, done) => {
    if (req.headers['x-api-key'] !== undefined) return hooks.apiKey!.call(app, req, reply, done);
    if (req.headers.authorization === undefined) {
      return done(
        unauthorized(
          'Missing credentials: send an API key in the X-API-Key header, or sign in as the wallet (Authorization: Bearer <token> from POST /api/v1/auth/verify) to read its own records.',
        ),
      );
    }
    limitIp(req, reply)
      .then(() => readJwt(req, true))
      .then(() => done(), done);
  };

  // The hashes of recently seen keys: a Map lookup costs a tenth of hashing again. Only hashes are ever stored;
  // the raw keys held here are the ones that already pass through this process with every request.
  const hashes = new Map<string, string>();
  function hashOf(raw: string): string {
    let h = hashes.get(raw);
    if (h === undefined) {
      h = hashApiKey(raw);
      if (hashes.size >= 10_000) hashes.clear();
      hashes.set(raw, h);
    }
    return h;
  }

  // Named steps, made once per app rather than as closures per request: the hot path allocates as little as it can.
  function admitKey(req: FastifyRequest, reply: FastifyReply, done: HookDone, p: ApiKeyPrincipal | null) {
    if (!p) return done(unauthorized('The API key is not valid.'));
    // A cached principal outlives neither its key's expiry nor a rotated secret's grace period.
    if (p.expiresAt != null && p.expiresAt <= Date.now()) return done(unauthorized('The API key has expired.'));
    req.apiKey = p;
    const keyEnv = p.environment ?? 'live';
    (req as WithKeyEnvironment)[KEY_ENVIRONMENT] = keyEnv;
    if (keyEnv === 'test') req.environment = 'test';
    // a sign-in beside the key must be of the key's environment (only then is a promise needed)
    if (req.headers.authorization !== undefined) return void jwtEnvironment(req).then(() => limitKey(req, reply, done, p), done);
    limitKey(req, reply, done, p);
  }

  function limitKey(req: FastifyRequest, reply: FastifyReply, done: HookDone, p: ApiKeyPrincipal) {
    ctx.apiKeys.touch?.(p.keyId);
    const decided = (req.raw as WithDecidedLimit)[DECIDED_LIMIT];
    const r = decided ?? ctx.limiter.hit(`key:${p.keyId}`, p.rateLimit);
    if (r instanceof Promise) r.then((l) => finishLimit(reply, done, l), done);
    else finishLimit(reply, done, r);
  }

  function finishLimit(reply: FastifyReply, done: HookDone, l: LimitResult) {
    setLimitHeaders(reply, l);
    done(l.allowed ? undefined : rateLimited(l, 'API key'));
  }

  const consumeQuota: preHandlerHookHandler = (req, reply, done) => {
    const key = req.apiKey;
    if (!key) return done();
    const cost = req.routeOptions.config.cost;
    const n = typeof cost === 'function' ? cost(req) : (cost ?? 0);
    if (n <= 0) return done();
    // Test requests (a test key, or a test sign-in) count against no quota, so they may only reach
    // routes that answer sandbox data.
    if (req.environment === 'test') return done(req.routeOptions.config.sandbox ? undefined : testKeyRefused());
    const fast = ctx.quota.consumeCached(key.keyId, key.monthlyLimit, n);
    if (fast) return decideQuota(req, reply, done, n, fast);
    ctx.quota.consume(key.keyId, key.monthlyLimit, n).then((q) => decideQuota(req, reply, done, n, q), done);
  };

  const testKeyRefused = () =>
    forbidden('Test keys (cred_test_...) read sandbox scores only; this operation needs a live key (cred_live_...).');

  function decideQuota(req: FastifyRequest, reply: FastifyReply, done: HookDone, n: number, q: QuotaResult) {
    if (q.allowed) {
      req.quotaCost = n;
      return done();
    }
    reply.header('Retry-After', q.resetInSeconds);
    done(
      new AppError(
        'quota_exceeded',
        `Monthly query quota of ${q.limit} exhausted (${q.used} used, this call needs ${n}); it resets at 00:00 UTC on the first of next month.`,
      ),
    );
  }

  // Calls that fail do not count: the reservation is returned before the answer leaves, so a usage
  // request that follows it already sees the refund.
  const refund = (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, p: unknown) => void) => {
    if (req.quotaCost && req.apiKey && reply.statusCode >= 400) {
      ctx.quota.refund(req.apiKey.keyId, req.quotaCost);
      req.quotaCost = 0;
    }
    done(null, payload);
  };

  // Test credentials reach only routes that keep live and test apart; the rest answer 403 before reading anything.
  const gateEnvironment: onRequestHookHandler = (req, _reply, done) => {
    if (req.environment === 'test' && !req.routeOptions.config.sandbox) {
      return done(
        forbidden(
          'Test keys (cred_test_...) and test sign-ins work only with sandbox data, which this operation does not have; use live credentials (cred_live_...).',
        ),
      );
    }
    done();
  };
  // Everything the route does from here runs in the request's environment (repos read it with currentEnvironment()).
  const enterEnvironment: preHandlerHookHandler = (req, _reply, done) => runInEnvironment(req.environment ?? 'live', done);

  app.addHook('onRoute', (route: RouteOptions) => {
    const mode = route.config?.auth ?? defaultAuth(route.url);
    const hook = mode === 'apiKey' && route.config?.owner ? apiKeyOrSession : hooks[mode];
    if (!hook) return;
    route.onRequest = [hook, gateEnvironment, ...toArray(route.onRequest)];
    route.preHandler = [...toArray(route.preHandler), enterEnvironment];
    if (mode === 'apiKey' && route.config?.cost !== undefined) {
      route.preHandler = [consumeQuota, ...toArray(route.preHandler)];
      route.onSend = [...toArray(route.onSend), refund as never];
    }
  });
}

/**
 * A session reads only its own wallet's records: on routes with an `owner`, a request made with a session and no API
 * key must be about the session's wallet (403 otherwise). Registered after ENS resolution, so a name in the path is
 * compared as the address it resolves to.
 */
export function registerOwnerSessions(app: FastifyInstance) {
  app.addHook('onRoute', (route: RouteOptions) => {
    const owner = route.config?.owner;
    if (!owner || owner === 'any') return;
    const check: preHandlerHookHandler = (req, _reply, done) => {
      const user = req.user;
      if (!user || req.apiKey) return done();
      Promise.resolve()
        .then(() => owner(req))
        .then((wallet) => {
          if (wallet === null || wallet.toLowerCase() === user.address) return done();
          done(
            forbidden(
              `Signed in as ${user.sub}, this session reads only that wallet's own records; this request is about ${wallet}. ` +
                'Reading other wallets needs an API key (X-API-Key).',
            ),
          );
        }, done);
    };
    route.preHandler = [...toArray(route.preHandler), check];
  });
}

/** API routes are limited per IP unless they say otherwise; docs and static pages are not. */
export function defaultAuth(url: string): AuthMode {
  return url.startsWith('/api/') ? 'public' : 'none';
}

function toArray<T>(v: T | T[] | undefined): T[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}
