// GET /health (outside /api/v1): liveness plus database (and Redis) reachability, for load balancers and people.
import { Type } from '@sinclair/typebox';
import type { Module } from '../../platform/http/types.js';
import { Nullable, Timestamp } from '../../platform/http/schemas.js';
import { VERSION } from '../../version.js';
import { registerReadiness } from './ready.js';

const Dependency = Type.Object({ reachable: Type.Boolean(), latencyMs: Nullable(Type.Number()) });

const HealthBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  time: Timestamp(),
  uptimeSeconds: Type.Number(),
  database: Type.Object({ kind: Type.String(), reachable: Type.Boolean(), latencyMs: Nullable(Type.Number()) }),
  redis: Nullable(Dependency),
  // proofs area: who took part in the trusted setup of the proof keys, and whether commitments are published
  proofSetup: Type.Optional(
    Type.Object({
      kind: Type.Union([Type.Literal('dev'), Type.Literal('ceremony')]),
      label: Type.String(),
      phase1Contributors: Type.Integer(),
      phase2Contributors: Type.Integer(),
      contributors: Type.Array(Type.String()),
      beacon: Type.Boolean(),
      publishing: Type.Union([Type.Literal('off'), Type.Literal('connecting'), Type.Literal('on'), Type.Literal('refused')]),
      refusal: Nullable(Type.String()),
    }),
  ),
});

async function timed(fn: () => Promise<unknown>): Promise<{ reachable: boolean; latencyMs: number | null }> {
  const t = performance.now();
  try {
    await Promise.race([fn(), new Promise((_, rej) => setTimeout(() => rej(new Error('timeout')), 2000).unref())]);
    return { reachable: true, latencyMs: Math.round((performance.now() - t) * 1000) / 1000 };
  } catch {
    return { reachable: false, latencyMs: null };
  }
}

export const healthModule: Module = {
  name: 'health',
  register(app, ctx) {
    registerReadiness(app, ctx);
    app.get(
      '/health',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'health.get',
          tags: ['Health'],
          summary: 'Service health',
          description:
            'Liveness: 200 while the process serves HTTP, with the reachability of its database and Redis in the body (`status: degraded` when ' +
            'one does not answer within 2 s). Restarting the process would not bring a dependency back, so this never fails for one: route ' +
            'traffic by `GET /health/ready` (readiness), which answers 503 while the database is down. Counts no queries and needs no credentials.',
          response: { 200: HealthBody },
        },
      },
      async () => {
        const [database, redis] = await Promise.all([
          timed(() => ctx.db.query('SELECT 1')),
          ctx.redis ? timed(() => ctx.redis!.ping()) : Promise.resolve(null),
        ]);
        const ok = database.reachable && (redis === null || redis.reachable);
        return {
          status: ok ? 'ok' : 'degraded',
          version: VERSION,
          time: new Date().toISOString(),
          uptimeSeconds: Math.round(process.uptime()),
          database: { kind: ctx.db.kind, ...database },
          redis,
          proofSetup: ctx.services.proofsSetup(),
        } as const;
      },
    );
  },
};
