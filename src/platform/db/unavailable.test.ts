// The outage helpers the workers lean on: what counts as the database being away, waiting it out while
// the caller runs, and the log an operator reads when connections end (one line per burst, not one per connection).
import { describe, expect, it, vi } from 'vitest';
import { AppError, unavailable } from '../errors.js';
import type { Db } from './types.js';
import { DatabaseUnavailable, isUnavailable, mapConnectionError, retryWhileUnavailable } from './unavailable.js';
import { logConnectionLoss } from './watch.js';

const cut = () => Object.assign(new Error('Connection terminated unexpectedly'), {});

describe('isUnavailable', () => {
  it("is the database's own outage: a mapped 503 or a raw connection error, not another dependency's 503 or a statement's error", () => {
    expect(isUnavailable(new DatabaseUnavailable())).toBe(true);
    expect(isUnavailable(cut())).toBe(true);
    expect(isUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isUnavailable(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isUnavailable(unavailable('no sanctions list is loaded'))).toBe(false);
    expect(isUnavailable(new AppError('internal', 'x'))).toBe(false);
    expect(isUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  it('maps a connection error to 503 unavailable with Retry-After, and leaves others as they are', () => {
    const e = (() => {
      try {
        mapConnectionError(cut());
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(DatabaseUnavailable);
    expect((e as AppError).statusCode).toBe(503);
    expect((e as AppError).extra.headers).toEqual({ 'Retry-After': 5 });
    const other = new Error('syntax error');
    expect(() => mapConnectionError(other)).toThrow(other);
  });
});

describe('retryWhileUnavailable', () => {
  it('tries again while the database is away, and returns what the call returns once it answers', async () => {
    let calls = 0;
    const waits: number[] = [];
    const out = await retryWhileUnavailable(
      async () => {
        if (++calls < 4) throw new DatabaseUnavailable(cut());
        return 'done';
      },
      { active: () => true, onRetry: (_e, ms) => waits.push(ms), maxWaitMs: 200 },
    );
    expect(out).toBe('done');
    expect(calls).toBe(4);
    // backing off, to the bound
    expect(waits).toEqual([100, 200, 200]);
  });

  it('throws at once an error that is not an outage', async () => {
    let calls = 0;
    const bad = new Error('violates check constraint');
    await expect(
      retryWhileUnavailable(
        async () => {
          calls++;
          throw bad;
        },
        { active: () => true },
      ),
    ).rejects.toBe(bad);
    expect(calls).toBe(1);
  });

  it('gives up with the outage once the caller stops (shutdown during an outage)', async () => {
    let running = true;
    let calls = 0;
    const p = retryWhileUnavailable(
      async () => {
        calls++;
        if (calls === 2) running = false;
        throw new DatabaseUnavailable(cut());
      },
      { active: () => running },
    );
    await expect(p).rejects.toBeInstanceOf(DatabaseUnavailable);
    expect(calls).toBe(2);
  });
});

describe('logConnectionLoss', () => {
  it('says the first loss at once and the rest of the burst in one line', async () => {
    const listeners = new Set<(e: Error) => void>();
    const db = { onConnectionLost: (fn: (e: Error) => void) => (listeners.add(fn), () => void listeners.delete(fn)) } as unknown as Db;
    const lines: { obj: object; msg: string }[] = [];
    vi.useFakeTimers();
    try {
      const stop = logConnectionLoss(db, { warn: (obj, msg) => lines.push({ obj, msg }) });
      for (let i = 0; i < 10; i++) for (const l of listeners) l(cut());
      expect(lines).toHaveLength(1);
      expect(lines[0].msg).toMatch(/^PostgreSQL connection lost/);
      expect(lines[0].obj).toEqual({ err: 'Connection terminated unexpectedly' });
      vi.advanceTimersByTime(5_000);
      expect(lines).toHaveLength(2);
      expect(lines[1]).toEqual({ obj: { count: 9 }, msg: '9 more PostgreSQL connection(s) lost in the last 5 s' });
      // a later outage is said again
      for (const l of listeners) l(cut());
      expect(lines).toHaveLength(3);
      stop();
      expect(listeners.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does nothing on a database without connections to lose (PGlite)', () => {
    const stop = logConnectionLoss({} as Db, { warn: () => expect.unreachable() });
    stop();
  });
});
