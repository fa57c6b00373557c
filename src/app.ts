// Builds the whole service as a Fastify app without listening, so tests boot the real thing and inject.
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Redis } from 'ioredis';
import type { Config } from './platform/config.js';
import type { AppContext } from './platform/context.js';
import { openDatabase, type Db } from './platform/db/index.js';
import { migrate } from './platform/db/migrate.js';
import { createEventBus } from './platform/events/bus.js';
import { createCacheFactory } from './platform/cache/index.js';
import { createMemoryLimiter, createRedisLimiter } from './platform/rate-limit/index.js';
import { createQuotaStore } from './platform/rate-limit/quota.js';
import { createCipher, loadOrCreateSecret } from './platform/secrets.js';
import { createJwtService } from './platform/auth/jwt.js';
import { registerAuth } from './platform/auth/plugin.js';
import { registerErrorHandling } from './platform/http/error-handler.js';
import { registerOpenApi } from './platform/openapi.js';
import { ajvFormats } from './platform/http/schemas.js';
import type { App } from './platform/http/types.js';
import { modules } from './modules/index.js';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { VERSION } from './version.js';

export interface BuildOptions {
  /** An already-open database (tests start each one from a migrated template). */
  db?: Db;
  logger?: FastifyBaseLogger | boolean;
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

const requestIdPrefix = `${randomBytes(6).toString('base64url')}-`;
let requestCount = 0;
const nextRequestId = () => requestIdPrefix + (++requestCount).toString(36);

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    // DIDs (max 200 characters) and proofs travel in path segments.
    routerOptions: { maxParamLength: 1000 },
    trustProxy: config.trustProxy,
    requestIdHeader: 'x-request-id',
    // unique across instances and cheap: a random prefix per process and a counter
    genReqId: nextRequestId,
    return503OnClosing: true,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Bodies are validated strictly (a string is not silently turned into a number or an array);
  // path and query parameters are text on the wire and are coerced to their declared types.
  const bodyAjv = makeAjv(false);
  const paramAjv = makeAjv('array');
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema));
  // Only JSON bodies: a text/plain POST gets 415 rather than a confusing validation error.
  app.removeContentTypeParser('text/plain');

  const closers: (() => Promise<void> | void)[] = [];
  const db = opts.db ?? (await openDatabase(config.databaseUrl, config.dataDir));
  closers.push(() => db.close());
  await migrate(db);

  const redisConnection = () => {
    if (!config.redisUrl) return null;
    const r = new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableAutoPipelining: true, lazyConnect: false });
    r.on('error', (e) => app.log.warn({ err: e }, 'redis error'));
    closers.push(() => void r.disconnect());
    return r;
  };
  const redis = redisConnection();
  const instanceId = randomUUID();
  const bus = createEventBus({ instanceId, channel: `${config.redisPrefix}events`, redis, subscriber: redisConnection(), onError: (err, topic) => app.log.error({ err, topic }, 'event handler failed') });
  closers.push(() => bus.close());

  const secret = (name: string, generate = () => randomBytes(32).toString('hex')) =>
    opts.secrets ? (opts.secrets[name] ??= generate()) : loadOrCreateSecret(config.dataDir, name, generate);
  const quota = createQuotaStore(db);

  const ctx: AppContext = {
    config,
    log: app.log,
    instanceId,
    publicUrl: () => config.publicUrl ?? `http://localhost:${config.port}`,
    db,
    redis,
    redisConnection,
    bus,
    caches: createCacheFactory(bus),
    limiter: redis ? createRedisLimiter(redis, `${config.redisPrefix}rl:`) : createMemoryLimiter(),
    quota,
    cipher: createCipher(config.encryptionKey ?? secret('encryption-key')),
    jwt: createJwtService(config.jwtSecret ?? secret('jwt-secret')),
    apiKeys: { resolve: async () => null, invalidate: () => undefined },
    secret,
    services: {},
    workers: [],
    onClose: (fn) => closers.push(fn),
  };
  app.decorate('ctx', ctx);

  registerErrorHandling(app);
  await registerOpenApi(app, VERSION);
  registerAuth(app, ctx);
  // X-Response-Time on every response, in milliseconds (fastify's own timer only runs with a logger).
  app.decorateRequest('startedAt', 0);
  app.addHook('onRequest', (req, _reply, done) => {
    req.startedAt = performance.now();
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('X-Response-Time', (performance.now() - req.startedAt).toFixed(3));
    done(null, payload);
  });

  for (const m of modules) await m.register(app, ctx);

  const runWorkers = config.roles.includes('workers');
  app.addHook('onReady', async () => {
    if (runWorkers) for (const w of ctx.workers) await w.start();
  });
  app.addHook('onClose', async () => {
    if (runWorkers) for (const w of [...ctx.workers].reverse()) await w.stop();
    await quota.close().catch((err) => app.log.error({ err }, 'quota flush failed at shutdown'));
    for (const c of closers.reverse()) await c();
  });
  return app;
}
