// What an operator reads in the logs when PostgreSQL connections end under the service (a server restart, a
// failover, a proxy or network path cut, pg_terminate_backend): one warning when it starts, then one line per
// 5 s saying how many more went, never one line per connection of a 10-connection pool times every instance.
import type { Db } from './types.js';

const BURST_MS = 5_000;

export function logConnectionLoss(db: Db, log: { warn(obj: object, msg: string): void }): () => void {
  if (!db.onConnectionLost) return () => undefined;
  let more = 0;
  let timer: NodeJS.Timeout | null = null;
  const off = db.onConnectionLost((err) => {
    if (timer) {
      more++;
      return;
    }
    log.warn(
      { err: err.message },
      'PostgreSQL connection lost (server restart, failover or network cut): the statements using it get 503 unavailable, the connection is discarded and new ones open as needed',
    );
    timer = setTimeout(() => {
      timer = null;
      if (more > 0) log.warn({ count: more }, `${more} more PostgreSQL connection(s) lost in the last ${BURST_MS / 1000} s`);
      more = 0;
    }, BURST_MS);
    timer.unref();
  });
  return () => {
    off();
    if (timer) clearTimeout(timer);
  };
}
