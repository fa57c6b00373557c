// What a benchmark reads of this machine: the load average, and the CPU of the database server's processes.
import { readFileSync } from 'node:fs';
import type { Db } from '../src/platform/db/index.js';

/** The 1, 5 and 15 minute load averages, as /proc/loadavg prints them. */
export const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** CPU seconds used so far by the server processes of the database's current connections (a server on this
 *  machine: /proc; 0 on PGlite or elsewhere), so a run's CPU splits into this process's and the database's. */
export async function backendsCpuSeconds(db: Db): Promise<number> {
  if (db.kind !== 'postgres') return 0;
  const pids = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()');
  let ticks = 0;
  for (const { pid } of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15), in USER_HZ (100)
    } catch {
      // not on this machine, or gone
    }
  }
  return ticks / 100;
}
