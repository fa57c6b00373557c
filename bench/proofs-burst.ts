// Benchmark: does a burst of proofs block the rest of the API? The server runs as `npm start` runs it (its own
// process, embedded database); a client sends 50 concurrent POST /reputation/prove while another polls GET /health
// every 20 ms. /health latency is reported idle (the baseline, same run), during the first burst after start
// (the first commitment for the wallet is made in it) and during a second one, with the server's peak RSS.
// Target: /health stays under 50 ms during a burst; memory stays bounded.
// Run: node --import tsx bench/proofs-burst.ts   (BENCH_BURST=50; BENCH_DATABASE_URL=postgres://... for a
// PostgreSQL server instead of the embedded database; BENCH_NODE_ARGS="--cpu-prof" profiles the server)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { freePort } from '../test/helpers/ports.js';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Wallet } from 'ethers';
import { BENCH_DOMAIN, siweMessage } from './support.js';

const BURST = Number(process.env.BENCH_BURST ?? 50);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

function summary(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
}
const fmt = (x: ReturnType<typeof summary>) =>
  `n=${String(x.n).padStart(4)}  p50 ${x.p50.toFixed(1)} ms  p95 ${x.p95.toFixed(1)} ms  p99 ${x.p99.toFixed(1)} ms  max ${x.max.toFixed(1)} ms`;

async function main() {
  const admin = Wallet.createRandom();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), path.join(ROOT, 'bin/credence.mjs'), 'serve'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
        REDIS_URL: '',
        CREDENCE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credence-bench-burst-')),
        CREDENCE_ADMIN_ADDRESSES: admin.address,
        CREDENCE_SIWE_DOMAIN: BENCH_DOMAIN,
        CREDENCE_IP_RATE_LIMIT: '1000000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const pid = server.pid!;
  try {
    for (let i = 0; ; i++) {
      const up = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (i > 600) throw new Error('the server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }

    const { nonce } = (await (await fetch(`${base}/api/v1/auth/nonce`)).json()) as { nonce: string };
    const message = siweMessage(admin.address, nonce);
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const { token } = (await (await post('/api/v1/auth/verify', { message, signature: await admin.signMessage(message) })).json()) as {
      token: string;
    };
    const key = {
      'x-api-key': (
        (await (
          await post(
            '/api/v1/billing/api-keys',
            { organizationName: 'Bench', contactEmail: 'b@example.com', tier: 'Enterprise' },
            { authorization: `Bearer ${token}` },
          )
        ).json()) as { apiKey: string }
      ).apiKey,
    };

    // A wallet with a score (computed on first read); thresholds up to it make every proof satisfiable.
    const subject = Wallet.createRandom().address;
    const scored = (await (await fetch(`${base}/api/v1/reputation/${subject}/SOCIAL`, { headers: key })).json()) as { score: number };
    if (typeof scored.score !== 'number') throw new Error(`score: ${JSON.stringify(scored)}`);

    /** Polls /health every 20 ms while `work` runs (or for `idleMs`); returns the latencies and the peak RSS. */
    async function watch(work: (() => Promise<unknown>) | null, idleMs = 3000) {
      const times: number[] = [];
      const t0 = performance.now();
      let peak = rssMb(pid);
      let done = false;
      const running = work ? work().finally(() => (done = true)) : new Promise((r) => setTimeout(r, idleMs)).then(() => (done = true));
      while (!done) {
        const t = performance.now();
        const res = await fetch(`${base}/health`);
        await res.arrayBuffer();
        times.push(performance.now() - t);
        if (process.env.BENCH_DEBUG && performance.now() - t > 25)
          console.log(`   slow /health at +${(t - t0).toFixed(0)} ms: ${(performance.now() - t).toFixed(1)} ms`);
        if (res.status !== 200) throw new Error(`/health ${res.status}`);
        peak = Math.max(peak, rssMb(pid));
        await new Promise((r) => setTimeout(r, 20));
      }
      return { result: await running, times, peak };
    }

    const burst = async () => {
      const t = performance.now();
      const statuses = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          post(
            '/api/v1/reputation/prove',
            { subject, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: Math.floor((scored.score * i) / BURST) },
            key,
          ).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
        ),
      );
      const bad = statuses.filter((s) => s !== 200);
      if (bad.length) throw new Error(`prove answered ${bad.join(', ')}`);
      return (performance.now() - t) / 1000;
    };

    console.log(
      `/health while ${BURST} concurrent prove requests run (server: bin/credence.mjs serve on ${process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)})`,
    );
    const rss0 = rssMb(pid);
    const idle = await watch(null);
    console.log(`  idle (baseline)      ${fmt(summary(idle.times))}   rss ${rss0.toFixed(0)} MB`);
    const cold = await watch(burst);
    console.log(
      `  first burst         ${fmt(summary(cold.times))}   ${(BURST / (cold.result as number)).toFixed(2)} proofs/s, peak rss ${cold.peak.toFixed(0)} MB`,
    );
    const warm = await watch(burst);
    console.log(
      `  second burst        ${fmt(summary(warm.times))}   ${(BURST / (warm.result as number)).toFixed(2)} proofs/s, peak rss ${warm.peak.toFixed(0)} MB`,
    );
    const worst = Math.max(summary(cold.times).max, summary(warm.times).max);
    console.log(
      `  worst /health during a burst: ${worst.toFixed(1)} ms = ${(worst / summary(idle.times).max).toFixed(1)}x the idle worst (target < 50 ms)`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

await main();
