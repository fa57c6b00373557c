// Start-up of `npm start` (bin/credence.mjs serve on the embedded database): time from spawn to /health/ready,
// CPU the process spent to get there, and what an idle instance holds in memory. Compares the compiled dist/
// (what `npm ci` builds) with the TypeScript sources through tsx (CREDENCE_FROM_SOURCE=1) in the same run, on a new
// data directory (database created and migrated) and on a restart. CPU time is reported beside the wall time
// because a busy machine stretches the wall clock far more than the work.
// Run: node --import tsx bench/startup.ts   (BENCH_ROUNDS, default 3)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TICK = 100; // USER_HZ on Linux

// the build of the sources as they are now (CREDENCE_FROM_SOURCE=0 then runs it even if a file changes meanwhile)
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });

/** user + system CPU seconds of a process, from /proc */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

interface Start {
  wallMs: number;
  cpuMs: number;
  rssMb?: number;
  heapMb?: number;
  externalMb?: number;
}

async function start(dataDir: string, fromSource: boolean, idle: boolean): Promise<Start> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, ['bin/credence.mjs', 'serve'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, CREDENCE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CREDENCE_FROM_SOURCE: fromSource ? '1' : '0' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const result: Start = { wallMs: performance.now() - began, cpuMs: cpuSeconds(child.pid!) * 1000 };
    if (idle) {
      await new Promise((r) => setTimeout(r, 3000));
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      const read = (name: string) => Number(metrics.match(new RegExp(`^${name} (\\S+)`, 'm'))?.[1] ?? NaN) / 2 ** 20;
      result.rssMb = read('credence_process_resident_memory_bytes');
      result.heapMb = read('credence_nodejs_heap_size_used_bytes');
      result.externalMb = read('credence_nodejs_external_memory_bytes');
    }
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Start[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  // alternate the order so neither variant always runs on a warmer machine
  for (const fromSource of round % 2 ? [true, false] : [false, true]) {
    const label = fromSource ? 'tsx (sources)' : 'compiled dist/';
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-startup-'));
    try {
      (rows[`${label}, new data dir`] ??= []).push(await start(dir, fromSource, false));
      (rows[`${label}, restart`] ??= []).push(await start(dir, fromSource, true));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

console.log(`start-up to /health/ready, median of ${ROUNDS} (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`);
for (const [label, runs] of Object.entries(rows)) {
  console.log(`  ${label.padEnd(34)} wall ${(median(runs.map((r) => r.wallMs)) / 1000).toFixed(2)} s   cpu ${(median(runs.map((r) => r.cpuMs)) / 1000).toFixed(2)} s`);
}
for (const kind of ['new data dir', 'restart']) {
  const c = rows[`compiled dist/, ${kind}`]!;
  const s = rows[`tsx (sources), ${kind}`]!;
  console.log(`  ${kind}: compiled/tsx wall ratio ${(median(c.map((r) => r.wallMs)) / median(s.map((r) => r.wallMs))).toFixed(2)}, cpu ratio ${(median(c.map((r) => r.cpuMs)) / median(s.map((r) => r.cpuMs))).toFixed(2)}`);
}
const idle = rows['compiled dist/, restart']!;
console.log(
  `idle instance (compiled, 3 s after ready): rss ${median(idle.map((r) => r.rssMb!)).toFixed(0)} MB, JS heap used ${median(idle.map((r) => r.heapMb!)).toFixed(0)} MB, external (ArrayBuffers: PGlite's WebAssembly memory) ${median(idle.map((r) => r.externalMb!)).toFixed(0)} MB`,
);
