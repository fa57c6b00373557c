// One process per embedded data directory. PGlite is a single process's database: a second process opening the
// same directory (a `credence ingest` beside a running server) writes pages the first never sees and can corrupt
// indexes. The holder writes `<dir>/credence.lock` (pid, host, start) and refreshes its time every few seconds;
// anyone else is refused with a clear message while the holder lives. A lock left by a process that died (same
// host: its pid is gone; another host or container: its time stopped moving) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, utimesSync, writeSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/** A lock whose time has not moved for this long, from another host, is stale. */
const STALE_MS = 30_000;
const HEARTBEAT_MS = 5_000;

export class DataDirLocked extends Error {
  constructor(
    readonly dir: string,
    readonly holder: { pid: number; host: string; startedAt: string },
  ) {
    super(
      `The embedded database in ${dir} is in use by another Credence process (pid ${holder.pid} on ${holder.host}, since ${holder.startedAt}). ` +
        'PGlite serves one process at a time: stop that process first (then run this command again), or send the work through ' +
        'the running server, or use PostgreSQL (DATABASE_URL=postgres://...) to run several processes on one database.',
    );
    this.name = 'DataDirLocked';
  }
}

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

/** Locks held by this process (a second open of the same directory in one process is refused too). */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists, under another user
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    return typeof h.pid === 'number' ? h : null;
  } catch {
    return null; // half-written or unreadable: treated as stale below once it is old enough
  }
}

function isStale(file: string, h: Holder | null): boolean {
  let age: number;
  try {
    age = Date.now() - statSync(file).mtimeMs;
  } catch {
    return true; // gone meanwhile
  }
  if (!h) return age > 2_000;
  if (h.host === hostname()) {
    // Our own pid in a lock this process does not hold: a previous run (a container's pid 1 restarting).
    if (h.pid === process.pid) return true;
    return !alive(h.pid);
  }
  return age > STALE_MS;
}

/** Takes the directory's lock or throws DataDirLocked. Returns the release function. */
export function lockDataDir(dir: string): () => void {
  const file = path.join(dir, 'credence.lock');
  if (held.has(file)) throw new DataDirLocked(dir, { pid: process.pid, host: hostname(), startedAt: 'earlier in this process' });
  const me: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const h = readHolder(file);
      if (attempt >= 3 || !isStale(file, h)) throw new DataDirLocked(dir, h ?? { pid: 0, host: 'unknown', startedAt: 'unknown' });
      try {
        unlinkSync(file);
      } catch {
        /* another process took it over first: the next attempt sees its lock */
      }
    }
  }
  held.add(file);
  const beat = setInterval(() => {
    const t = new Date();
    try {
      utimesSync(file, t, t);
    } catch {
      /* removed under us: nothing to refresh */
    }
  }, HEARTBEAT_MS);
  beat.unref();
  const onExit = () => release();
  process.once('exit', onExit);
  let released = false;
  function release() {
    if (released) return;
    released = true;
    clearInterval(beat);
    process.off('exit', onExit);
    held.delete(file);
    try {
      // only our own lock: never remove one another process took over
      if (readHolder(file)?.pid === me.pid && readHolder(file)?.startedAt === me.startedAt) unlinkSync(file);
    } catch {
      /* already gone */
    }
  }
  return release;
}
