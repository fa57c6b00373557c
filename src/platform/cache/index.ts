// In-process TTL caches whose invalidations reach every instance through the event bus, so reads stay
// in memory (microseconds) while a write on instance A still evicts the entry on instance B.
import type { EventBus } from '../events/bus.js';

export interface Cache<T> {
  get(key: string): T | undefined;
  set(key: string, value: T, ttlMs?: number): void;
  /** Evicts the key here and on every other instance. */
  invalidate(key: string): void;
  clear(): void;
  readonly size: number;
}

export interface CacheFactory {
  create<T>(name: string, opts: { ttlMs: number; maxEntries?: number }): Cache<T>;
  /**
   * Empties every cache of this instance only. Called when Redis comes back after an outage: invalidations
   * other instances published meanwhile never arrived, so nothing cached here can be trusted.
   */
  clearLocal(): void;
}

const INVALIDATE = 'cache.invalidate';

export function createCacheFactory(bus: EventBus): CacheFactory {
  const caches = new Map<string, Map<string, unknown>>();
  bus.subscribe<{ name: string; key: string | null }>(INVALIDATE, ({ name, key }) => {
    const c = caches.get(name);
    if (!c) return;
    if (key === null) c.clear();
    else c.delete(key);
  });
  return {
    clearLocal() {
      for (const c of caches.values()) c.clear();
    },
    create<T>(name: string, { ttlMs, maxEntries = 100_000 }: { ttlMs: number; maxEntries?: number }): Cache<T> {
      const map = new Map<string, { v: T; exp: number }>();
      caches.set(name, map as Map<string, unknown>);
      return {
        get(key) {
          const e = map.get(key);
          if (!e) return undefined;
          if (e.exp < Date.now()) {
            map.delete(key);
            return undefined;
          }
          return e.v;
        },
        set(key, v, ttl = ttlMs) {
          if (map.size >= maxEntries) {
            // Evict the oldest insertion; Map iterates in insertion order.
            const first = map.keys().next();
            if (!first.done) map.delete(first.value);
          }
          map.set(key, { v, exp: Date.now() + ttl });
        },
        invalidate(key) {
          bus.publish(INVALIDATE, { name, key });
        },
        clear() {
          bus.publish(INVALIDATE, { name, key: null });
        },
        get size() {
          return map.size;
        },
      };
    },
  };
}
