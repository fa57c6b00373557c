// Monthly quota counters in Redis (REDIS_URL): one counter per key and month that every instance checks and
// increments in one atomic step, so a quota of 100 admits at most 100 queries across all instances and usage
// reads the same everywhere. PostgreSQL stays the record: each instance writes its own admitted counts behind
// (the in-process store below, every second and at shutdown), and a counter Redis does not have (first use this
// month, Redis restarted) is seeded from PostgreSQL. While Redis is down the in-process store decides alone
// (each instance from the last stored total) and the counts it admitted are added to Redis when it is back.
import type { Redis } from 'ioredis';
import type { QuotaResult, QuotaStore } from './quota.js';
import { monthOf, secondsToNextMonth } from './quota.js';
import type { RedisState } from './redis-state.js';

// KEYS[1] counter; ARGV limit (-1: none), cost. Returns {-1} when the counter must be seeded first,
// {0, used} when refused, {1, used} when admitted.
const TAKE_LUA = `
local v = redis.call('GET', KEYS[1])
if not v then return {-1, 0} end
local used = tonumber(v)
local limit = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
if limit >= 0 and used + cost > limit then return {0, used} end
return {1, redis.call('INCRBY', KEYS[1], cost)}
`;

export function createRedisQuotaStore(o: {
  redis: Redis;
  prefix: string;
  state: RedisState;
  /** the write-behind store: records what Redis admitted, and decides alone while Redis is down */
  local: QuotaStore;
  /** the stored total of a key this month (PostgreSQL) */
  stored(keyId: string, month: string): Promise<number>;
  now?: () => Date;
}): QuotaStore {
  const now = o.now ?? (() => new Date());
  const keyOf = (keyId: string, month: string) => `${o.prefix}quota:${keyId}:${month}`;
  // Counts admitted while Redis was away, added to its counters when it is back.
  const missed = new Map<string, number>();
  o.state.onChange((up) => {
    if (!up) return;
    for (const [k, n] of missed) {
      missed.delete(k);
      void o.redis.incrby(k, n).catch(() => missed.set(k, (missed.get(k) ?? 0) + n));
    }
  });

  async function seed(keyId: string, month: string): Promise<void> {
    // The stored total plus what this instance counted but has not written yet; other instances' unwritten
    // counts (at most a second's worth) are lost only if Redis itself lost the counter.
    const base = (await o.stored(keyId, month)) + (await o.local.pendingOf(keyId));
    const expire = secondsToNextMonth(now()) + 7 * 86_400;
    await o.redis.set(keyOf(keyId, month), String(base), 'EX', expire, 'NX');
  }

  async function take(keyId: string, limit: number | null, cost: number): Promise<QuotaResult> {
    const d = now();
    const month = monthOf(d);
    const k = keyOf(keyId, month);
    for (let i = 0; i < 3; i++) {
      const [ok, used] = (await o.redis.eval(TAKE_LUA, 1, k, limit ?? -1, cost)) as [number, number];
      if (ok === -1) {
        await seed(keyId, month);
        continue;
      }
      const reset = secondsToNextMonth(d);
      if (ok === 0) return { allowed: false, used, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetInSeconds: reset };
      // Admitted: record it for the write-behind to PostgreSQL (no limit: Redis decided).
      await o.local.consume(keyId, null, cost);
      return { allowed: true, used, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetInSeconds: reset };
    }
    throw new Error('quota counter could not be seeded');
  }

  function fallback(keyId: string, r: QuotaResult, cost: number): QuotaResult {
    if (r.allowed) {
      const k = keyOf(keyId, monthOf(now()));
      missed.set(k, (missed.get(k) ?? 0) + cost);
    }
    return r;
  }

  return {
    async consume(keyId, limit, cost) {
      if (o.state.up()) {
        try {
          return await take(keyId, limit, cost);
        } catch (err) {
          o.state.failed(err);
        }
      }
      return fallback(keyId, await o.local.consume(keyId, limit, cost), cost);
    },
    consumeCached(keyId, limit, cost) {
      // With Redis up every check is a Redis round trip (exact across instances); down, the in-process fast path.
      if (o.state.up()) return null;
      const r = o.local.consumeCached(keyId, limit, cost);
      return r && fallback(keyId, r, cost);
    },
    refund(keyId, cost) {
      o.local.refund(keyId, cost);
      const k = keyOf(keyId, monthOf(now()));
      if (o.state.up()) {
        void o.redis.decrby(k, cost).catch((err) => {
          o.state.failed(err);
          missed.set(k, (missed.get(k) ?? 0) - cost);
        });
      } else missed.set(k, (missed.get(k) ?? 0) - cost);
    },
    async used(keyId) {
      if (o.state.up()) {
        try {
          const month = monthOf(now());
          let v = await o.redis.get(keyOf(keyId, month));
          if (v === null) {
            await seed(keyId, month);
            v = await o.redis.get(keyOf(keyId, month));
          }
          return Number(v ?? 0);
        } catch (err) {
          o.state.failed(err);
        }
      }
      return o.local.used(keyId);
    },
    pendingOf: (keyId) => o.local.pendingOf(keyId),
    flush: () => o.local.flush(),
    close: () => o.local.close(),
  };
}
