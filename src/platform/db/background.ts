// Background work (bulk jobs) gives way to requests at every query. PGlite runs in this process: its queries
// execute on the event loop, one at a time, and a batch step that queues hundreds of them (a Promise.all over 100
// wallets) chains them through microtasks, so no socket is read until the last one is done: a 2,000-address job
// held /health for 22 s. Queries made inside `inBackground()`:
// - start only after a macrotask turn (setImmediate), so the event loop reads sockets and timers between them;
// - run at most `limit` at a time (PGlite 1; PostgreSQL a few, leaving the rest of the pool to requests);
// - wait while request queries are in flight, for at most `maxWaitMs` each (a fair share: never starved).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db, Queryable, QueryOptions } from './types.js';

const background = new AsyncLocalStorage<true>();

/** Runs fn with every query it makes (through a Db made by `withBackgroundLane`) in the background lane. */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

export const isBackground = () => background.getStore() === true;

/** Background work runs at most this long without letting the event loop turn. */
const TURN_MS = 10;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function withBackgroundLane(db: Db, opts: { limit: number; maxWaitMs?: number }): Db {
  const maxWaitMs = opts.maxWaitMs ?? 20;
  let foreground = 0;
  let running = 0;
  const waiting: (() => void)[] = [];
  let idle: (() => void)[] = [];
  let lastTurn = 0;

  async function acquire() {
    // a freed slot is handed straight to the next waiter (release does not count it free)
    if (running >= opts.limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    // The turn comes after the slot: queries queued together (a Promise.all) would otherwise pass their turns at
    // once and then run back to back in one chain of microtasks, with no socket read in between. One turn per
    // TURN_MS of background work at most: a turn per query would cost more than the queries.
    if (performance.now() - lastTurn >= TURN_MS) {
      await turn();
      lastTurn = performance.now();
    }
    // Requests first: wait while any of their queries is in flight, bounded so bulk work always moves.
    const until = Date.now() + maxWaitMs;
    while (foreground > 0 && Date.now() < until) {
      await Promise.race([
        new Promise<void>((resolve) => idle.push(resolve)),
        new Promise<void>((resolve) => setTimeout(resolve, until - Date.now())),
      ]);
    }
  }
  function release() {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
  async function lane<T>(run: () => Promise<T>): Promise<T> {
    if (!isBackground()) {
      foreground++;
      try {
        return await run();
      } finally {
        if (--foreground === 0) {
          const wake = idle;
          idle = [];
          for (const w of wake) w();
        }
      }
    }
    await acquire();
    try {
      // what a background transaction's body asks of the outer handle is part of the slot it holds (no self-wait)
      return await background.exit(run);
    } finally {
      release();
    }
  }
  return {
    ...db,
    query<T>(sql: string, params?: unknown[], opts?: QueryOptions) {
      return lane(() => db.query<T>(sql, params, opts));
    },
    tx<T>(fn: (q: Queryable) => Promise<T>) {
      return lane(() => db.tx(fn));
    },
    exec(sql: string) {
      return lane(() => db.exec(sql));
    },
    close: () => db.close(),
  };
}
