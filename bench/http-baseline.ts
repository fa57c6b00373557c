// Benchmark: the full middleware path (API-key auth + sliding-window rate limit + quota accounting) on a
// trivial authenticated route, versus a bare Fastify route, in the same run. Prints requests/s and the ratio.
// Target: the full path keeps at least 70% of bare Fastify throughput.
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { apiRoutes } from '../src/platform/http/types.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

async function measure(url: string, headers: Record<string, string> = {}) {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

async function main() {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/hello`;

  const admin = Wallet.createRandom();
  const config = {
    ...loadConfig({}),
    databaseUrl: 'pglite://memory',
    dataDir: mkdtempSync(path.join(tmpdir(), 'credence-bench-')),
    logLevel: 'silent',
    adminAddresses: [admin.address.toLowerCase()],
    siweDomain: 'bench.local',
    ipRateLimit: 1_000_000,
  };
  const app = await buildApp(config, { logger: false, secrets: {} });
  apiRoutes(app, (s) => {
    s.get('/bench/hello', { config: { auth: 'apiKey', cost: 1 } }, async () => ({ hello: 'world' }));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  // Sign in and create an Enterprise key (2,000 req/s limit, unlimited quota) as a client would.
  const { nonce } = (await (await fetch(`${base}/api/v1/auth/nonce`)).json()) as { nonce: string };
  const message = new SiweMessage({ domain: 'bench.local', address: admin.address, uri: 'https://bench.local', version: '1', chainId: 1, nonce, issuedAt: new Date().toISOString() }).prepareMessage();
  const { token } = (await (await fetch(`${base}/api/v1/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message, signature: await admin.signMessage(message) }) })).json()) as { token: string };
  const key = (await (await fetch(`${base}/api/v1/billing/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ organizationName: 'Bench', contactEmail: 'b@bench.local', tier: 'Enterprise' }) })).json()) as { apiKey: string };
  // Raise this key's limit above what the machine can send, so the limiter is exercised but never refuses.
  const id = (await app.ctx.db.query<{ id: string }>('SELECT id FROM api_keys ORDER BY created_at DESC LIMIT 1'))[0].id;
  const resolve = app.ctx.apiKeys.resolve;
  app.ctx.apiKeys.resolve = async (hash) => {
    const p = await resolve(hash);
    return p && p.keyId === id ? { ...p, rateLimit: 1_000_000 } : p;
  };

  await measure(bareUrl); // warm-up
  await measure(`${base}/api/v1/bench/hello`, { 'x-api-key': key.apiKey });
  // Alternate rounds so both sides see the same machine load; report the median ratio.
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await measure(bareUrl);
    const f = await measure(`${base}/api/v1/bench/hello`, { 'x-api-key': key.apiKey });
    ratios.push(f.rps / b.rps);
    console.log(`round ${round}: bare Fastify ${b.rps.toFixed(0)} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms) | auth + rate limit + quota ${f.rps.toFixed(0)} req/s (p50 ${f.p50} ms, p99 ${f.p99} ms, non-2xx ${f.non2xx}) | ratio ${(100 * f.rps / b.rps).toFixed(1)}%`);
  }
  ratios.sort((x, y) => x - y);
  console.log(`median ratio: ${(ratios[Math.floor(ratios.length / 2)] * 100).toFixed(1)}% of bare Fastify (target >= 70%)`);
  const usage = (await (await fetch(`${base}/api/v1/billing/usage`, { headers: { 'x-api-key': key.apiKey } })).json()) as { queriesThisMonth: number };
  console.log(`queries counted: ${usage.queriesThisMonth}`);
  await app.close();
  await bare.close();
}

await main();
