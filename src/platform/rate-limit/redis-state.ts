// Whether Redis is usable right now, and one warning per outage. Everything Redis backs (limits, quota
// counters, cache invalidation, hub fan-out) asks `up()` first and falls back to its in-process form while
// Redis is away, so an outage degrades sharing between instances instead of failing requests.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

export interface RedisState {
  /** true while the command connection is ready */
  up(): boolean;
  /** A Redis call failed: note the outage (warning logged once) until the connection is ready again. */
  failed(err: unknown): void;
  /** Called with true when Redis comes back after an outage, false when it goes away. */
  onChange(fn: (up: boolean) => void): void;
}

export function createRedisState(redis: Redis, log: Pick<FastifyBaseLogger, 'warn' | 'info'>): RedisState {
  let down = false;
  const listeners: ((up: boolean) => void)[] = [];
  const goDown = (err?: unknown) => {
    if (down) return;
    down = true;
    log.warn({ err }, 'Redis unreachable: rate limits, quota counters and caches are per instance until it is back (readiness: degraded)');
    for (const l of listeners) l(false);
  };
  redis.on('close', () => goDown());
  redis.on('end', () => goDown());
  const comeBack = () => {
    if (!down) return;
    down = false;
    log.info('Redis reachable again: limits, quota counters and caches are shared again');
    for (const l of listeners) l(true);
  };
  redis.on('ready', comeBack);
  // A call that failed while the connection stayed up (a timeout, a server busy loading its data) brings no new
  // 'ready' event: ask Redis every second until it answers, rather than staying degraded until a reconnect.
  let probing = false;
  const probe = () => {
    if (probing) return;
    probing = true;
    const tick = () => {
      if (!down || redis.status !== 'ready') {
        // back already, or reconnecting: its 'ready' event ends the outage
        probing = false;
        return;
      }
      redis.ping().then(
        () => {
          probing = false;
          comeBack();
        },
        () => void setTimeout(tick, 1000).unref(),
      );
    };
    setTimeout(tick, 1000).unref();
  };
  return {
    up: () => !down && redis.status === 'ready',
    failed: (err) => {
      goDown(err);
      probe();
    },
    onChange: (fn) => void listeners.push(fn),
  };
}
