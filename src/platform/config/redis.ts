// Redis, shared by several instances: the event bus, rate limits, caches and hub fan-out. Unset: all in-process.
import { str, url, type Env } from './env.js';

export interface RedisSettings {
  redisUrl: string | null;
  /** Namespace for every Redis key and channel, so deployments (and test runs) can share one Redis. */
  redisPrefix: string;
}

export function redisSettings(env: Env): RedisSettings {
  return {
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'CREDENCE_REDIS_PREFIX') ?? 'credence:',
  };
}
