// Sliding-window rate limiting (exact sliding log), in-process by default and in Redis when REDIS_URL is
// set so that every instance behind a load balancer shares one limit per key.
import type { Redis } from 'ioredis';

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when a slot next frees up. */
  resetAt: number;
  /** Seconds to wait before retrying (only meaningful when not allowed). */
  retryAfter: number;
}

export interface RateLimiter {
  hit(id: string, limit: number, windowMs?: number): LimitResult | Promise<LimitResult>;
}

/**
 * A ring buffer of the last `limit` request times per id: the request is allowed when the oldest of them
 * left the window. Exact, O(1) per hit, and memory bounded by the limit.
 */
export function createMemoryLimiter(now: () => number = Date.now): RateLimiter {
  // times[tail..] (count entries, wrapping) are the request times still inside the window, oldest first: each hit
  // drops those that left it (amortized O(1)), then admits if fewer than `limit` remain.
  const rings = new Map<string, { times: Float64Array; tail: number; count: number; limit: number }>();
  let lastSweep = now();
  return {
    hit(id, limit, windowMs = 1000) {
      const t = now();
      const windowStart = t - windowMs;
      if (t - lastSweep > 60_000) {
        lastSweep = t;
        for (const [k, r] of rings) if (r.count === 0 || r.times[(r.tail + r.count - 1) % r.limit] <= windowStart) rings.delete(k);
      }
      let r = rings.get(id);
      if (!r || r.limit !== limit) {
        r = { times: new Float64Array(limit), tail: 0, count: 0, limit };
        rings.set(id, r);
      }
      while (r.count > 0 && r.times[r.tail] <= windowStart) {
        r.tail = r.tail + 1 === limit ? 0 : r.tail + 1;
        r.count--;
      }
      if (r.count >= limit) {
        const oldest = r.times[r.tail];
        return {
          allowed: false,
          limit,
          remaining: 0,
          resetAt: Math.ceil((oldest + windowMs) / 1000),
          retryAfter: Math.max(1, Math.ceil((oldest + windowMs - t) / 1000)),
        };
      }
      r.times[(r.tail + r.count) % limit] = t;
      r.count++;
      // a slot frees when the oldest request leaves the window; with slots to spare, a full window from now
      const resetMs = r.count === limit ? r.times[r.tail] + windowMs : t + windowMs;
      return { allowed: true, limit, remaining: limit - r.count, resetAt: Math.ceil(resetMs / 1000), retryAfter: 0 };
    },
  };
}

const SLIDING_LUA = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count >= limit then
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  return {0, count, tonumber(oldest[2])}
end
redis.call('ZADD', key, now, member)
redis.call('PEXPIRE', key, window)
local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
return {1, count + 1, tonumber(oldest[2])}
`;

export function createRedisLimiter(redis: Redis, prefix: string): RateLimiter {
  let seq = 0;
  const tag = Math.random().toString(36).slice(2, 8);
  return {
    async hit(id, limit, windowMs = 1000) {
      const t = Date.now();
      const member = `${t}-${tag}-${seq++}`;
      const [ok, count, oldest] = (await redis.eval(SLIDING_LUA, 1, prefix + id, t, windowMs, limit, member)) as [number, number, number];
      const resetMs = (oldest ?? t) + windowMs;
      return {
        allowed: ok === 1,
        limit,
        remaining: Math.max(0, limit - count),
        resetAt: Math.ceil(resetMs / 1000),
        retryAfter: ok === 1 ? 0 : Math.max(1, Math.ceil((resetMs - t) / 1000)),
      };
    },
  };
}
