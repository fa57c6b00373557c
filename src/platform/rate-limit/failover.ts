// The Redis limiter while Redis answers, the in-process one while it does not: requests keep being served
// (each instance then enforces the limit on its own) and the shared limit resumes when Redis is back.
import type { LimitResult, RateLimiter } from './index.js';
import type { RedisState } from './redis-state.js';

export function createFailoverLimiter(shared: RateLimiter, local: RateLimiter, state: RedisState): RateLimiter {
  return {
    hit(id, limit, windowMs) {
      if (!state.up()) return local.hit(id, limit, windowMs);
      return (shared.hit(id, limit, windowMs) as Promise<LimitResult>).catch((err) => {
        state.failed(err);
        return local.hit(id, limit, windowMs);
      });
    },
  };
}
