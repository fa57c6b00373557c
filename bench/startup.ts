// Start-up of `npm start` (bin/credence.mjs serve on the embedded database): time from spawn to /health/ready, the
// CPU the process spent to get there, and what an idle instance holds in memory, on a new data directory (database
// created and migrated) and on a restart. The same-run baseline is a bare Fastify server started the same way
// (`node -e`, one /health/ready route, nothing else): every figure is printed beside it and as a ratio to it, so a
// busy machine, which stretches wall times far more than the work, is seen in the baseline too.
// Idle memory is read twice: 5 s after ready, and BENCH_IDLE_SECONDS (default 30) after it, once V8's memory
// reducer has given back the young generation the start grew (it runs only after some idle seconds).
// Run: node --import tsx bench/startup.ts   (BENCH_ROUNDS, default 3; BENCH_TSX=1 adds the sources through tsx)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/helpers/ports.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const IDLE_LATE_S = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const WITH_TSX = process.env.BENCH_TSX === '1';
const TICK = 100; // USER_HZ on Linux
// node's flags in `npm start` (package.json's start script), so the server runs as `npm start` runs it; the baseline
// gets them too (started the same way)
const START = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
const startFlags = /^node\s+(.*?)\s*bin\/credence\.mjs serve$/.exec(START)?.[1];
if (startFlags === undefined) throw new Error(`package.json's start script is not \`node [flags] bin/credence.mjs serve\`: ${START}`);
const NODE_FLAGS: string[] = startFlags.split(/\s+/).filter(Boolean);

// the build of the sources as they are now (CREDENCE_FROM_SOURCE=0 then runs it even if a file changes meanwhile)
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });

/** user + system CPU seconds of a process, from /proc */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

interface Memory {
  rss: number;
  anon: number;
  file: number;
  heapUsed?: number;
  heapTotal?: number;
  young?: number;
  external?: number;
}

/** MB from /proc (RSS: anonymous and file-backed, the node binary's own pages being most of the latter) and /metrics */
async function memory(pid: number, port?: number): Promise<Memory> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(status.match(new RegExp(`^${k}:\\s+(\\d+)`, 'm'))?.[1] ?? NaN) / 1024;
  const m: Memory = { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
  if (port) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const read = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)`, 'm'))?.[1] ?? NaN) / 2 ** 20;
    m.heapUsed = read('credence_nodejs_heap_size_used_bytes');
    m.heapTotal = read('credence_nodejs_heap_size_total_bytes');
    m.young = read('credence_nodejs_heap_space_size_total_bytes\\{space="new"\\}');
    m.external = read('credence_nodejs_external_memory_bytes');
  }
  return m;
}

interface Start {
  wallMs: number;
  cpuMs: number;
  idle?: Memory;
  idleLate?: Memory;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startAndMeasure(child: ChildProcess, port: number, began: number, idle: boolean, metrics: boolean): Promise<Start> {
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      await sleep(20);
    }
    const result: Start = { wallMs: performance.now() - began, cpuMs: cpuSeconds(child.pid!) * 1000 };
    if (idle) {
      await sleep(5000);
      result.idle = await memory(child.pid!, metrics ? port : undefined);
      await sleep((IDLE_LATE_S - 5) * 1000);
      result.idleLate = await memory(child.pid!, metrics ? port : undefined);
    }
    return result;
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.exitCode !== null || child.once('exit', r));
  }
}

async function credence(dataDir: string, fromSource: boolean, idle: boolean): Promise<Start> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, 'bin/credence.mjs', 'serve'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      CREDENCE_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CREDENCE_FROM_SOURCE: fromSource ? '1' : '0',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return startAndMeasure(child, port, began, idle, true);
}

/** The baseline: Fastify alone, from the project's node_modules, answering /health/ready. */
async function bareFastify(): Promise<Start> {
  const port = await freePort();
  const code = `import('fastify').then(async ({ default: Fastify }) => {
    const app = Fastify({ logger: false });
    app.get('/health/ready', async () => ({ status: 'ready' }));
    await app.listen({ port: ${port}, host: '127.0.0.1' });
    process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
  });`;
  const began = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, '-e', code], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return startAndMeasure(child, port, began, true, false);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: Record<string, Start[]> = {};
const variants = WITH_TSX ? [false, true] : [false];
for (let round = 0; round < ROUNDS; round++) {
  (rows['bare Fastify (baseline)'] ??= []).push(await bareFastify());
  // alternate the order so neither variant always runs on a warmer machine
  for (const fromSource of round % 2 ? [...variants].reverse() : variants) {
    const label = fromSource ? 'tsx (sources)' : 'compiled dist/';
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-startup-'));
    try {
      (rows[`${label}, new data dir`] ??= []).push(await credence(dir, fromSource, !fromSource));
      (rows[`${label}, restart`] ??= []).push(await credence(dir, fromSource, !fromSource));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const base = rows['bare Fastify (baseline)']!;
const baseWall = median(base.map((r) => r.wallMs));
const baseCpu = median(base.map((r) => r.cpuMs));
console.log(
  `start-up to /health/ready, median of ${ROUNDS}, node ${NODE_FLAGS.join(' ') || '(no flags)'} (load average at the end ${load()})`,
);
for (const [label, runs] of Object.entries(rows)) {
  const wall = median(runs.map((r) => r.wallMs));
  const cpu = median(runs.map((r) => r.cpuMs));
  const vs = label.startsWith('bare') ? '' : `   (${(wall / baseWall).toFixed(1)}x and ${(cpu / baseCpu).toFixed(1)}x the baseline's)`;
  console.log(`  ${label.padEnd(30)} wall ${(wall / 1000).toFixed(2)} s   cpu ${(cpu / 1000).toFixed(2)} s${vs}`);
}
const mb = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(0));
const fig = (runs: Start[], pick: (s: Start) => Memory) => {
  const get = (k: keyof Memory) => median(runs.map((r) => pick(r)[k] ?? NaN));
  return {
    rss: get('rss'),
    line: `rss ${mb(get('rss'))} MB (anon ${mb(get('anon'))}, file ${mb(get('file'))}); JS heap used ${mb(get('heapUsed'))} of ${mb(get('heapTotal'))} (young generation ${mb(get('young'))}); external ${mb(get('external'))}`,
  };
};
const baseIdle = fig(base, (r) => r.idle!);
console.log(`idle memory, median of ${ROUNDS} (external: ArrayBuffers, mostly PGlite's WebAssembly memory, reserved rather than resident)`);
console.log(`  bare Fastify (baseline), 5 s after ready: ${baseIdle.line}`);
for (const kind of ['new data dir', 'restart']) {
  const runs = rows[`compiled dist/, ${kind}`]!;
  for (const [when, pick] of [
    ['5 s', (r: Start) => r.idle!],
    [`${IDLE_LATE_S} s`, (r: Start) => r.idleLate!],
  ] as const) {
    const f = fig(runs, pick);
    console.log(`  compiled, ${kind}, ${when} after ready: ${f.line}   (${(f.rss - baseIdle.rss).toFixed(0)} MB above the baseline)`);
  }
}
