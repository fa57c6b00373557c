// Monthly quota counters in Redis (REDIS_URL): one counter per key and month that every instance checks and
// increments in one atomic step, so a quota of 100 admits at most 100 queries across all instances and usage
// reads the same everywhere. PostgreSQL stays the record: each instance writes its own admitted counts behind
// (the in-process store below, every second and at shutdown), and a counter Redis does not have (first use this
// month, Redis restarted) is seeded from PostgreSQL. While Redis is down the in-process store decides alone
// (each instance from the last stored total) and the counts it admitted are added to Redis when it is back:
// onto the counter Redis kept; or, when Redis lost it (restarted empty) or it was seeded again after this
// instance lost Redis, the seed from PostgreSQL already holds them (written behind meanwhile) and nothing is
// added: adding them to a missing counter would restart the month's count from the outage's few calls.
import type { Redis } from 'ioredis';
import type { QuotaResult, QuotaStore } from './quota.js';
import { monthOf, secondsToNextMonth } from './quota.js';
import type { RedisState } from './redis-state.js';
import { AppError } from '../errors.js';

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

const REFUND_LUA = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECRBY', KEYS[1], ARGV[1]) end
return false
`;

// KEYS[1] counter, KEYS[2] its seed time; ARGV base, expiry (s). Creates the counter only if it is missing and
// notes when (Redis's own clock, microseconds), so an instance back from an outage can tell a counter seeded from
// PostgreSQL after its outage began (holds its counts) from one Redis kept throughout (does not).
const SEED_LUA = `
if redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'NX') then
  local t = redis.call('TIME')
  redis.call('SET', KEYS[2], t[1] .. string.format('%06d', tonumber(t[2])), 'EX', ARGV[2])
  return 1
end
return 0
`;

// KEYS[1] counter, KEYS[2] its seed time; ARGV missed count, start of the outage (Redis clock, microseconds).
// Returns 0 when the counter is missing (seeded at its next use), 2 when it was seeded after the outage began (nothing to
// add), 1 when the missed count was added.
const RECOVER_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local seeded = redis.call('GET', KEYS[2])
if seeded and tonumber(seeded) >= tonumber(ARGV[2]) then return 2 end
redis.call('INCRBY', KEYS[1], ARGV[1])
return 1
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
  const seedKeyOf = (keyId: string, month: string) => `${o.prefix}quota-seeded:${keyId}:${month}`;
  // Counts admitted while Redis was away, per counter, added to Redis when it is back.
  const missed = new Map<string, { keyId: string; month: string; n: number }>();
  const miss = (keyId: string, month: string, n: number) => {
    const k = keyOf(keyId, month);
    const m = missed.get(k);
    if (m) m.n += n;
    else missed.set(k, { keyId, month, n });
  };
  // Redis's clock minus ours (microseconds), measured whenever Redis is reachable: the outage's start in Redis time.
  let clockOffsetUs = 0;
  const measureClock = () =>
    void o.redis.time().then(
      ([sec, usec]) => void (clockOffsetUs = Number(sec) * 1e6 + Number(usec) - Date.now() * 1000),
      () => undefined,
    );
  if (o.state.up()) measureClock();
  let downSinceUs = 0;
  o.state.onChange((up) => {
    if (!up) {
      downSinceUs = Date.now() * 1000 + clockOffsetUs;
      return;
    }
    // Sent at once, before any request can reach Redis again (commands keep their order on the connection).
    const since = downSinceUs;
    for (const [k, m] of missed) {
      missed.delete(k);
      void reconcile(m, since).catch((err) => {
        o.state.failed(err);
        miss(m.keyId, m.month, m.n);
      });
    }
    measureClock();
  });

  async function reconcile(m: { keyId: string; month: string; n: number }, since: number): Promise<void> {
    // Missing (0): Redis lost it; its next use seeds it from PostgreSQL plus what is not written yet, which hold
    // the missed counts. Seeded after the outage began (2): the seed held them already.
    await o.redis.eval(RECOVER_LUA, 2, keyOf(m.keyId, m.month), seedKeyOf(m.keyId, m.month), m.n, Math.floor(since));
  }

  async function seed(keyId: string, month: string): Promise<void> {
    // The stored total plus what this instance counted but has not written yet; other instances' unwritten
    // counts (at most a second's worth) are lost only if Redis itself lost the counter. A write-behind in
    // between moves counts from one to the other: read again then, so none is missed or taken twice.
    let base = 0;
    for (let i = 0; i < 5; i++) {
      const before = await o.local.pendingOf(keyId);
      const stored = await o.stored(keyId, month);
      const after = await o.local.pendingOf(keyId);
      base = stored + after;
      if (after >= before) break;
    }
    const expire = secondsToNextMonth(now()) + 7 * 86_400;
    await o.redis.eval(SEED_LUA, 2, keyOf(keyId, month), seedKeyOf(keyId, month), base, expire);
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
      if (ok === 0)
        return { allowed: false, used, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetInSeconds: reset };
      // Admitted: record it for the write-behind to PostgreSQL (no limit: Redis decided).
      await o.local.consume(keyId, null, cost);
      return { allowed: true, used, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetInSeconds: reset };
    }
    throw new Error('quota counter could not be seeded');
  }

  function fallback(keyId: string, r: QuotaResult, cost: number): QuotaResult {
    if (r.allowed) miss(keyId, monthOf(now()), cost);
    return r;
  }

  return {
    async consume(keyId, limit, cost) {
      if (o.state.up()) {
        try {
          return await take(keyId, limit, cost);
        } catch (err) {
          // The database failing while a counter is seeded is no Redis outage (503 from the database layer).
          if (err instanceof AppError) throw err;
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
      const month = monthOf(now());
      if (o.state.up()) {
        // Only onto a counter Redis has: a missing one is seeded later from the totals, which hold the refund.
        void o.redis.eval(REFUND_LUA, 1, keyOf(keyId, month), cost).catch((err) => {
          o.state.failed(err);
          miss(keyId, month, -cost);
        });
      } else miss(keyId, month, -cost);
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
          if (err instanceof AppError) throw err;
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
