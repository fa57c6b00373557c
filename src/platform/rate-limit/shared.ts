// Picks the limiter and the quota store: in-process without REDIS_URL; with it, Redis-backed (shared by every
// instance) with the in-process forms as the fallback while Redis is unreachable.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Db } from '../db/types.js';
import { createMemoryLimiter, createRedisLimiter, type RateLimiter } from './index.js';
import { createQuotaStore, type QuotaStore } from './quota.js';
import { createRedisQuotaStore } from './redis-quota.js';
import { createRedisState, type RedisState } from './redis-state.js';
import { createFailoverLimiter } from './failover.js';

export function createLimits(o: { db: Db; redis: Redis | null; prefix: string; log: FastifyBaseLogger }): {
  limiter: RateLimiter;
  quota: QuotaStore;
  redisState: RedisState | null;
} {
  const local = createQuotaStore(o.db);
  if (!o.redis) return { limiter: createMemoryLimiter(), quota: local, redisState: null };
  const state = createRedisState(o.redis, o.log);
  return {
    redisState: state,
    limiter: createFailoverLimiter(createRedisLimiter(o.redis, `${o.prefix}rl:`), createMemoryLimiter(), state),
    quota: createRedisQuotaStore({
      redis: o.redis,
      prefix: o.prefix,
      state,
      local,
      async stored(keyId, month) {
        const rows = await o.db.query<{ query_count: number }>(
          'SELECT query_count FROM api_key_usage WHERE api_key_id = $1 AND month = $2',
          [keyId, month],
        );
        return Number(rows[0]?.query_count ?? 0);
      },
    }),
  };
}

/** Waits (bounded) for Redis at start, so the first requests already share limits; starts degraded otherwise. */
export async function awaitRedis(redis: Redis, timeoutMs = 5000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const t = setTimeout(() => {
      redis.off('ready', ok);
      resolve(false);
    }, timeoutMs);
    const ok = () => {
      clearTimeout(t);
      resolve(true);
    };
    redis.once('ready', ok);
  });
}
