// What every module receives: the platform's shared machinery, plus the registry of module services.
// Modules add their service types to `Services` by declaration merging, and call each other only through it.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db } from './db/types.js';
import type { EventBus } from './events/bus.js';
import type { CacheFactory } from './cache/index.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { QuotaStore } from './rate-limit/quota.js';
import type { RedisState } from './rate-limit/redis-state.js';
import type { Cipher } from './secrets.js';
import type { JwtService } from './auth/jwt.js';
import type { ApiKeyPrincipal, ApiKeyResolver } from './auth/api-key.js';
import type { FastPaths } from './http/fast-path.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

export interface Worker {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export interface AppContext {
  config: Config;
  log: FastifyBaseLogger;
  instanceId: string;
  /** The base URL clients reach this service at (CREDENCE_PUBLIC_URL, else http://localhost:PORT). */
  publicUrl(): string;
  db: Db;
  /** Command connection when REDIS_URL is set. */
  redis: Redis | null;
  /** Opens another Redis connection (pub/sub needs its own). */
  redisConnection(): Redis | null;
  /** Redis reachability (null without REDIS_URL): what Redis backs falls back to in-process forms while it is down. */
  redisState: RedisState | null;
  bus: EventBus;
  caches: CacheFactory;
  limiter: RateLimiter;
  quota: QuotaStore;
  cipher: Cipher;
  jwt: JwtService;
  /** Set by the billing module. */
  apiKeys: ApiKeyResolver & { invalidate(hash: string): void; cached?(raw: string): ApiKeyPrincipal | undefined };
  /** Secrets from settings or, when unset, generated once into the data dir. */
  secret(name: string, generate?: () => string): string;
  services: Services;
  /** Routes answered before Fastify's router (platform/http/fast-path.ts); absent in bare test contexts. */
  fastPaths?: FastPaths;
  /** Background work; started only when the `workers` role is on. */
  workers: Worker[];
  /** Hooks run at shutdown, in reverse order of registration. */
  onClose(fn: () => Promise<void> | void): void;
}
