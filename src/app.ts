// Builds the whole service as a Fastify app without listening, so tests boot the real thing and inject.
import { lazySerializerFactory, lazyValidator } from './platform/http/lazy-schemas.js';
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Redis } from 'ioredis';
import type { Config } from './platform/config.js';
import type { AppContext } from './platform/context.js';
import { openDatabase, type Db } from './platform/db/index.js';
import { migrate } from './platform/db/migrate.js';
import { checkSharedKeys, sharedKeys } from './platform/db/key-checks.js';
import { createEventBus } from './platform/events/bus.js';
import { createCacheFactory } from './platform/cache/index.js';
import { awaitRedis, createLimits } from './platform/rate-limit/shared.js';
import { createCipher, loadOrCreateSecret } from './platform/secrets.js';
import { createJwtService } from './platform/auth/jwt.js';
import { registerAuth } from './platform/auth/plugin.js';
import { registerIdempotency } from './platform/idempotency/index.js';
import { registerEns } from './platform/ens.js';
import { registerErrorHandling } from './platform/http/error-handler.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerMetrics } from './platform/metrics.js';
import { registerDatabaseMetrics, registerDomainMetrics } from './platform/metrics-sources.js';
import { logConnectionLoss } from './platform/db/watch.js';
import { corsOptions } from './platform/http/cors.js';
import cors from '@fastify/cors';
import { ajvFormats } from './platform/http/schemas.js';
import { loggerOptions } from './platform/http/log-redaction.js';
import { requestIdOf } from './platform/http/request-id.js';
import { installFastPaths } from './platform/http/fast-path.js';
import { hardenedServerOptions, registerHostileInput } from './platform/http/hostile-input.js';
import type { App } from './platform/http/types.js';
import { registerModules, unregisteredServices } from './modules/index.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { VERSION } from './version.js';

export interface BuildOptions {
  /** An already-open database (tests start each one from a migrated template). */
  db?: Db;
  logger?: FastifyBaseLogger | boolean;
  /** Where the logger writes (tests capture it); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** Secrets for a data-dir-less run (tests); otherwise generated into the data dir. */
  secrets?: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
  interface FastifyRequest {
    startedAt: number;
  }
}

function makeAjv(coerceTypes: boolean | 'array') {
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: true, removeAdditional: false, strict: false });
  addFormats.default(ajv);
  for (const [name, validate] of Object.entries(ajvFormats)) ajv.addFormat(name, { type: 'string', validate });
  return ajv;
}

/** Fastify's request lines, at debug instead of info (same fields and serializers: keys and tokens stay redacted). */
class DebugRequestLogs extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(...args: Parameters<LogController['requestCompleted']>) {
    const [error, , reply] = args;
    // a request that errored keeps Fastify's own line (at error)
    if (error) return super.requestCompleted(...args);
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const app = createFastify(config, opts);
  const closers: (() => Promise<void> | void)[] = [];
  const db = opts.db ?? (await openDatabase(config.databaseUrl, config.dataDir));
  closers.push(() => db.close());
  closers.push(logConnectionLoss(db, app.log));
  await migrate(db);
  const shared = await connectShared(app, config, db, closers);
  const secrets = secretSource(config, opts);
  const ctx: AppContext = {
    config,
    log: app.log,
    instanceId: shared.instanceId,
    publicUrl: () => config.publicUrl ?? `http://localhost:${config.port}`,
    db,
    redis: shared.redis,
    redisConnection: shared.redisConnection,
    bus: shared.bus,
    caches: shared.caches,
    limiter: shared.limiter,
    quota: shared.quota,
    redisState: shared.redisState,
    cipher: createCipher(config.encryptionKey ?? secrets.secret('encryption-key')),
    jwt: createJwtService(config.jwtSecret ?? secrets.secret('jwt-secret')),
    apiKeys: { resolve: async () => null, invalidate: () => undefined },
    secret: secrets.secret,
    services: unregisteredServices(),
    workers: [],
    onClose: (fn) => closers.push(fn),
  };
  app.decorate('ctx', ctx);

  const metrics = await registerPlatform(app, ctx);
  await registerModules(app, ctx);
  registerDomainMetrics(metrics, ctx);
  registerDatabaseMetrics(metrics, ctx);
  // Refuse to start beside instances holding other keys (what they encrypt or sign, this one could not read).
  try {
    await checkSharedKeys(db, sharedKeys(config, secrets.resolved));
  } catch (e) {
    await app.close().catch(() => undefined);
    throw e;
  }
  addLifecycle(app, ctx, closers);
  return app;
}

/** Fastify with our server options, the two validators (strict bodies, coerced parameters) and JSON-only bodies. */
function createFastify(config: Config, opts: BuildOptions): App {
  // Bodies are validated strictly (a string is not silently turned into a number or an array);
  // path and query parameters are text on the wire and are coerced to their declared types.
  const bodyAjv = makeAjv(false);
  const paramAjv = makeAjv('array');
  const validatorCompiler = ({ schema, httpPart }: { schema: object; httpPart?: string }) =>
    lazyValidator(() => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema));
  const app = Fastify({
    // keys and tokens are redacted from request logs (query string and headers)
    logger: opts.logger ?? loggerOptions(config.logLevel, opts.logStream),
    // one line per request at debug, not info: at the default level a terminal shows the start banner and what needs
    // attention, not every request; LOG_LEVEL=debug shows them
    logController: new DebugRequestLogs(),
    bodyLimit: 1024 * 1024,
    // DIDs (max 200 characters) and proofs travel in path segments.
    routerOptions: { maxParamLength: 1000 },
    trustProxy: config.trustProxy,
    // A sane X-Request-Id from the caller or a load balancer is kept (and echoed), anything else replaced by ours.
    requestIdHeader: false,
    genReqId: requestIdOf,
    return503OnClosing: true,
    // response serializers compiled on a route's first use (platform/http/lazy-schemas.ts): a faster start. The
    // validators given here rather than by setValidatorCompiler: Fastify then never loads its own ajv compiler
    // (@fastify/ajv-compiler and ajv's JTD build, ~30 ms of every start for nothing)
    schemaController: {
      compilersFactory: { buildSerializer: lazySerializerFactory() as never, buildValidator: (() => validatorCompiler) as never },
    },
    // router and HTTP-parser errors in the {error, details} body (security area)
    ...hardenedServerOptions(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Only JSON bodies: a text/plain POST gets 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');
  return app;
}

/** What instances share: Redis connections (when configured), the limits and quotas, the event bus and the caches. */
async function connectShared(app: App, config: Config, db: Db, closers: (() => Promise<void> | void)[]) {
  // ioredis is loaded only when Redis is configured (an embedded instance never needs it)
  const RedisClient = config.redisUrl ? (await import('ioredis')).Redis : null;
  const redisConnection = (commands = true): Redis | null => {
    if (!config.redisUrl || !RedisClient) return null;
    // A Redis that goes silent on an open connection must not hold requests: commands give up after a bound (then
    // the in-process limiter and caches answer, see platform/rate-limit/failover.ts). The subscriber only listens.
    const r = new RedisClient(config.redisUrl, {
      maxRetriesPerRequest: 2,
      enableAutoPipelining: true,
      lazyConnect: false,
      ...(commands ? { commandTimeout: 3000 } : {}),
    });
    // Each failed reconnect emits an error: debug only, the outage itself is logged once (platform/rate-limit/redis-state.ts).
    r.on('error', (e) => app.log.debug({ err: e }, 'redis error'));
    closers.push(() => void r.disconnect());
    return r;
  };
  const redis = redisConnection();
  if (redis && !(await awaitRedis(redis)))
    app.log.warn('Redis not reachable at start: serving with in-process limits and caches until it is');
  const { limiter, quota, redisState } = createLimits({ db, redis, prefix: config.redisPrefix, log: app.log });
  const instanceId = randomUUID();
  const bus = createEventBus({
    instanceId,
    channel: `${config.redisPrefix}events`,
    redis,
    subscriber: redisConnection(false),
    onError: (err, topic) => app.log.error({ err, topic }, 'event handler failed'),
    redisUp: redisState ? () => redisState.up() : undefined,
  });
  closers.push(() => bus.close());
  const caches = createCacheFactory(bus);
  // Invalidations published while Redis was away never arrived: drop what this instance cached meanwhile.
  redisState?.onChange((up) => up && caches.clearLocal());
  return { redis, redisConnection, limiter, quota, redisState, instanceId, bus, caches };
}

/** Secrets from the test's map or generated once into the data dir; the ones in use are remembered for the start-up
 *  key check (src/platform/db/key-checks.ts). */
function secretSource(config: Config, opts: BuildOptions) {
  const resolved = new Map<string, string>();
  const secret = (name: string, generate = () => randomBytes(32).toString('hex')) => {
    const v = opts.secrets ? (opts.secrets[name] ??= generate()) : loadOrCreateSecret(config.dataDir, name, generate);
    resolved.set(name, v);
    return v;
  };
  return { secret, resolved };
}

/** The platform's hooks and plugins every module's routes run behind, in order; returns the metrics registry. */
async function registerPlatform(app: App, ctx: AppContext) {
  const { config } = ctx;
  registerErrorHandling(app);
  // NUL / lone surrogates refused, h2c served as HTTP/1.1, per-client connection caps (before any module's hooks)
  registerHostileInput(app, config);
  await registerOpenApi(app, VERSION);
  registerAuth(app, ctx);
  // after auth, so a key is scoped to the caller the auth hooks identified
  registerIdempotency(app, ctx);
  // ENS names in fields that take them resolved to addresses before the handler (after the key and quota checks)
  registerEns(app, ctx);
  // X-Response-Time on every response, in milliseconds (fastify's own timer only runs with a logger).
  app.decorateRequest('startedAt', 0);
  app.addHook('onRequest', (req, _reply, done) => {
    req.startedAt = performance.now();
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Response-Time', (performance.now() - req.startedAt).toFixed(3));
    reply.header('X-Request-Id', req.id);
    done(null, payload);
  });
  // Browsers on the configured origins (CREDENCE_CORS_ORIGINS) may call the API and read its headers.
  if (config.corsOrigins.length) await app.register(cors, corsOptions(config.corsOrigins));
  const metrics = registerMetrics(app, ctx, VERSION);
  ctx.fastPaths = installFastPaths(app, { metrics: metrics.requests, log: app.log, trustProxy: config.trustProxy });
  return metrics;
}

/** Workers start when the app is ready (with the `workers` role) and stop first at close; then the closers, newest first. */
function addLifecycle(app: App, ctx: AppContext, closers: (() => Promise<void> | void)[]) {
  const runWorkers = ctx.config.roles.includes('workers');
  app.addHook('onReady', async () => {
    if (runWorkers) for (const w of ctx.workers) await w.start();
  });
  app.addHook('onClose', async () => {
    if (runWorkers) for (const w of [...ctx.workers].reverse()) await w.stop();
    await ctx.quota.close().catch((err) => app.log.error({ err }, 'quota flush failed at shutdown'));
    for (const c of closers.reverse()) await c();
  });
}
