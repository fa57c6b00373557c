// Benchmark: the full middleware path (API-key auth + sliding-window rate limit + quota accounting) on a
// trivial authenticated route, versus a bare Fastify route, in the same run. Prints requests/s and the ratio.
// Target: the full path keeps at least 70% of bare Fastify throughput.
import Fastify from 'fastify';
import { Wallet } from 'ethers';
import { buildApp } from '../src/app.js';
import { apiRoutes } from '../src/platform/http/types.js';
import { autocannon, benchConfig, enterpriseKeys, signInAdmin } from './support.js';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 50;

const measure = (url: string, keys?: Record<string, string>[]) => autocannon(url, { connections: CONNECTIONS, seconds: DURATION, keys });

async function main() {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/hello`;

  const admin = Wallet.createRandom() as unknown as Wallet;
  const app = await buildApp(benchConfig(admin), { logger: false, secrets: {} });
  apiRoutes(app, (s) => {
    s.get('/bench/hello', { config: { auth: 'apiKey', cost: 1 } }, async () => ({ hello: 'world' }));
  });
  await app.ready();
  // An Enterprise key (2,000 req/s limit, unlimited quota), created as a client would.
  const keys = await enterpriseKeys(app, await signInAdmin(app, admin), 1);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  // Raise this key's limit above what the machine can send, so the limiter is exercised but never refuses.
  const id = (await app.ctx.db.query<{ id: string }>('SELECT id FROM api_keys ORDER BY created_at DESC LIMIT 1'))[0].id;
  const resolve = app.ctx.apiKeys.resolve;
  app.ctx.apiKeys.resolve = async (hash) => {
    const p = await resolve(hash);
    return p && p.keyId === id ? { ...p, rateLimit: 1_000_000 } : p;
  };

  await measure(bareUrl); // warm-up
  await measure(`${base}/api/v1/bench/hello`, keys);
  // Alternate rounds so both sides see the same machine load; report the median ratio.
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await measure(bareUrl);
    const f = await measure(`${base}/api/v1/bench/hello`, keys);
    ratios.push(f.rps / b.rps);
    console.log(
      `round ${round}: bare Fastify ${b.rps.toFixed(0)} req/s (p50 ${b.p50} ms, p99 ${b.p99} ms) | auth + rate limit + quota ${f.rps.toFixed(0)} req/s (p50 ${f.p50} ms, p99 ${f.p99} ms, non-2xx ${f.non2xx}) | ratio ${((100 * f.rps) / b.rps).toFixed(1)}%`,
    );
  }
  ratios.sort((x, y) => x - y);
  console.log(`median ratio: ${(ratios[Math.floor(ratios.length / 2)] * 100).toFixed(1)}% of bare Fastify (target >= 70%)`);
  const usage = (await (await fetch(`${base}/api/v1/billing/usage`, { headers: keys[0] })).json()) as { queriesThisMonth: number };
  console.log(`queries counted: ${usage.queriesThisMonth}`);
  await app.close();
  await bare.close();
}

await main();
