// Monthly query quotas. Counters live in memory on the hot path and are written behind to PostgreSQL
// every second and at shutdown, so a crash loses at most the last second of counts (in the customer's favour).
// Each flush reads back the stored total, which also folds in what other instances counted.
import type { Db } from '../db/types.js';

export interface QuotaResult {
  allowed: boolean;
  used: number;
  limit: number | null;
  remaining: number | null;
  /** seconds until the quota resets (start of next UTC month) */
  resetInSeconds: number;
}

export interface QuotaStore {
  /** Reserves `cost` queries if they fit; a request that does not fit is refused whole and counts nothing. */
  consume(keyId: string, limit: number | null, cost: number): Promise<QuotaResult>;
  /** The same without a promise when the key's counter is already in memory (the hot path); null otherwise. */
  consumeCached(keyId: string, limit: number | null, cost: number): QuotaResult | null;
  refund(keyId: string, cost: number): void;
  used(keyId: string): Promise<number>;
  /** Counts admitted here and not yet written to PostgreSQL. */
  pendingOf(keyId: string): Promise<number>;
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function monthOf(d: Date): string {
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export function secondsToNextMonth(d: Date): number {
  const next = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - d.getTime()) / 1000));
}

export function dayOf(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** The UTC day of `t`, or the last day of `month` when `t` is past it (a late flush of last month's counts). */
function dayIn(month: string, t: number): string {
  const day = dayOf(new Date(t));
  if (day.slice(0, 7) === month.slice(0, 7)) return day;
  const [y, m] = month.split('-').map(Number);
  return dayOf(new Date(Date.UTC(y, m, 0)));
}

interface Counter {
  month: string;
  base: number;
  pending: number;
}

export function createQuotaStore(db: Db, opts: { flushMs?: number; now?: () => Date } = {}): QuotaStore {
  const counters = new Map<string, Counter>();
  const loading = new Map<string, Promise<Counter>>();

  async function counter(keyId: string): Promise<Counter> {
    const month = currentMonth();
    const c = counters.get(keyId);
    if (c && c.month === month) return c;
    if (c && c.pending !== 0) await flush();
    const id = `${keyId}:${month}`;
    let p = loading.get(id);
    if (!p) {
      p = (async () => {
        const rows = await db.query<{ query_count: number }>('SELECT query_count FROM api_key_usage WHERE api_key_id = $1 AND month = $2', [
          keyId,
          month,
        ]);
        const fresh: Counter = { month, base: Number(rows[0]?.query_count ?? 0), pending: 0 };
        counters.set(keyId, fresh);
        return fresh;
      })().finally(() => loading.delete(id));
      loading.set(id, p);
    }
    return p;
  }

  let flushing: Promise<void> | null = null;
  async function flush(): Promise<void> {
    if (flushing) await flushing;
    const batch: { keyId: string; c: Counter; delta: number }[] = [];
    for (const [keyId, c] of counters) if (c.pending !== 0) batch.push({ keyId, c, delta: c.pending });
    if (batch.length === 0) return;
    for (const b of batch) {
      b.c.pending -= b.delta;
      b.c.base += b.delta;
    }
    flushing = (async () => {
      try {
        // The day's count (the usage chart) in the same statement: a flush every second puts at most a second's
        // queries on the wrong side of midnight.
        const t = clock();
        const rows = await db.query<{ api_key_id: string; query_count: number }>(
          `WITH daily AS (
             INSERT INTO api_key_usage_daily (api_key_id, day, query_count)
             SELECT * FROM unnest($1::uuid[], $4::date[], $3::bigint[])
             ON CONFLICT (api_key_id, day) DO UPDATE SET query_count = GREATEST(0, api_key_usage_daily.query_count + excluded.query_count)
           )
           INSERT INTO api_key_usage (api_key_id, month, query_count)
           SELECT * FROM unnest($1::uuid[], $2::date[], $3::bigint[])
           ON CONFLICT (api_key_id, month) DO UPDATE SET query_count = api_key_usage.query_count + excluded.query_count,
             updated_at = now()
           RETURNING api_key_id, query_count`,
          [batch.map((b) => b.keyId), batch.map((b) => b.c.month), batch.map((b) => b.delta), batch.map((b) => dayIn(b.c.month, t))],
        );
        const totals = new Map(rows.map((r) => [r.api_key_id, Number(r.query_count)]));
        for (const b of batch) {
          const t = totals.get(b.keyId);
          if (t !== undefined && counters.get(b.keyId) === b.c) b.c.base = t;
        }
      } catch (e) {
        // Put the counts back so the next flush retries them.
        for (const b of batch) {
          b.c.pending += b.delta;
          b.c.base -= b.delta;
        }
        throw e;
      } finally {
        flushing = null;
      }
    })();
    await flushing;
  }

  // The month and its end, worked out once a month: the hot path only compares numbers.
  let monthCache = { until: 0, month: '' };
  const clock = opts.now ? () => opts.now!().getTime() : Date.now;
  function currentMonth(t = clock()): string {
    if (t >= monthCache.until) {
      const d = new Date(t);
      monthCache = { until: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1), month: monthOf(d) };
    }
    return monthCache.month;
  }

  function take(c: Counter, limit: number | null, cost: number, t = clock()): QuotaResult {
    const used = c.base + c.pending;
    currentMonth(t);
    const reset = Math.max(1, Math.ceil((monthCache.until - t) / 1000));
    if (limit !== null && used + cost > limit) {
      return { allowed: false, used, limit, remaining: Math.max(0, limit - used), resetInSeconds: reset };
    }
    c.pending += cost;
    return { allowed: true, used: used + cost, limit, remaining: limit === null ? null : limit - used - cost, resetInSeconds: reset };
  }

  const timer = setInterval(() => void flush().catch(() => undefined), opts.flushMs ?? 1000);
  timer.unref();

  return {
    async consume(keyId, limit, cost) {
      return take(await counter(keyId), limit, cost);
    },
    consumeCached(keyId, limit, cost) {
      const c = counters.get(keyId);
      const t = clock();
      return c && c.month === currentMonth(t) ? take(c, limit, cost, t) : null;
    },
    refund(keyId, cost) {
      const c = counters.get(keyId);
      if (c) c.pending -= cost;
    },
    async used(keyId) {
      const c = await counter(keyId);
      return c.base + c.pending;
    },
    async pendingOf(keyId) {
      const c = counters.get(keyId);
      return c && c.month === currentMonth() ? c.pending : 0;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
