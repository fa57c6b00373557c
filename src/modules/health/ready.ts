// GET /health/ready: readiness, apart from /health (liveness). A load balancer sends traffic while it answers
// 200: the database answers (without it nothing can be served: 503). Redis away, no sanctions list or no prover
// leave the instance serving in a degraded way (200, status `degraded`, each dependency listed), because the
// service falls back (in-process limits and caches) or answers those routes with their own 503.
import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import { Nullable, Timestamp } from '../../platform/http/schemas.js';
import { stalenessOf } from '../sanctions/index.js';

const Check = (states: string[], description: string) =>
  Type.Object(
    {
      status: Type.Unsafe<string>({ type: 'string', enum: states }),
      latencyMs: Type.Optional(Nullable(Type.Number())),
      details: Type.Optional(Nullable(Type.String())),
    },
    { description },
  );

const ReadyBody = Type.Object({
  status: Type.Unsafe<'ready' | 'degraded' | 'unavailable'>({ type: 'string', enum: ['ready', 'degraded', 'unavailable'] }),
  time: Timestamp(),
  checks: Type.Object({
    database: Check(['up', 'down'], 'PostgreSQL / PGlite: down means 503 on every route that needs it'),
    redis: Check(['up', 'down', 'not_configured'], 'down: limits, quota counters and caches are per instance until it is back'),
    sanctions: Check(
      ['loaded', 'stale', 'missing'],
      'missing: sanctions screening answers 503 (fails closed); stale: the list in force is older than CREDENCE_SANCTIONS_MAX_AGE_DAYS (screening still answers, against it)',
    ),
    prover: Check(['ready', 'unavailable'], 'the proofs module is wired on this instance'),
  }),
});

async function timed(
  fn: () => Promise<unknown>,
  timeoutMs = 2000,
): Promise<{ ok: boolean; latencyMs: number | null; details: string | null }> {
  const t = performance.now();
  try {
    await Promise.race([
      fn(),
      new Promise((_, rej) => setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return { ok: true, latencyMs: Math.round((performance.now() - t) * 1000) / 1000, details: null };
  } catch (e) {
    return { ok: false, latencyMs: null, details: e instanceof Error ? e.message.slice(0, 200) : 'unreachable' };
  }
}

export function registerReadiness(app: App, ctx: AppContext) {
  app.get(
    '/health/ready',
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'health.getReadiness',
        tags: ['Health'],
        summary: 'Readiness (for load balancers)',
        description:
          'Each dependency with its state. 200 while the instance can serve: `ready`, or `degraded` when Redis is unreachable (in-process ' +
          'limits and caches meanwhile), no sanctions list is loaded, the list in force is older than CREDENCE_SANCTIONS_MAX_AGE_DAYS (`stale`, ' +
          'its details say what to do) or the prover is not wired here. 503 `unavailable` when the database ' +
          'does not answer. Liveness (is the process up) is GET /health. Counts no queries and needs no credentials.',
        response: { 200: ReadyBody, 503: ReadyBody },
      },
    },
    async (_req, reply) => {
      const [db, redis] = await Promise.all([
        timed(() => ctx.db.query('SELECT 1')),
        ctx.redis && ctx.redisState?.up() ? timed(() => ctx.redis!.ping()) : Promise.resolve(null),
      ]);
      const redisStatus = !ctx.redis ? 'not_configured' : redis?.ok ? 'up' : 'down';
      let listAt: Date | null;
      try {
        listAt = ctx.services.sanctions.status('0x0000000000000000000000000000000000000000').listPublishedAt ?? null;
      } catch {
        listAt = null;
      }
      const age = stalenessOf(listAt, ctx.config.sanctionsMaxAgeDays);
      const sanctions = !listAt ? 'missing' : age.stale ? 'stale' : 'loaded';
      const prover = ctx.services.proofs ? 'ready' : 'unavailable';
      const status = !db.ok
        ? 'unavailable'
        : redisStatus === 'down' || sanctions !== 'loaded' || prover === 'unavailable'
          ? 'degraded'
          : 'ready';
      reply.code(db.ok ? 200 : 503);
      if (!db.ok) reply.header('Retry-After', 5);
      return {
        status,
        time: new Date().toISOString(),
        checks: {
          database: { status: db.ok ? 'up' : 'down', latencyMs: db.latencyMs, details: db.details },
          redis: {
            status: redisStatus,
            latencyMs: redis?.latencyMs ?? null,
            details: redisStatus === 'down' ? (redis?.details ?? 'connection lost') : null,
          },
          sanctions: {
            status: sanctions,
            details: age.warning ?? (listAt ? `list published ${listAt.toISOString()}` : 'no OFAC SDN list loaded'),
          },
          prover: { status: prover, details: null },
        },
      } as const;
    },
  );
}
