// Benchmark of sanctions screening, each figure against a baseline measured in the same run:
//  1. import of a 20,000-address list in both official formats (parse alone, then parse + versioned insert + reload);
//  2. streaming parse of a ~100 MB sdn_advanced.xml (the size of the real file): MB/s and memory growth;
//  3. screening requests/s (GET /compliance/sanctions/{address} and POST /compliance/sanctions-check, full stack:
//     API key auth, rate limit, quota, EIP-55 validation, serialization) vs bare Fastify doing the same HTTP work
//     (a GET with a path parameter; a POST with the same JSON body),
//     both over real HTTP driven by autocannon in a separate process. Target: at least 60% of bare Fastify. A no-op
//     route behind the same API-key auth, rate limit and quota shows how much of the gap is the platform's.
// Run: node --expose-gc --import tsx bench/sanctions.ts   (BENCH_SECONDS=5, BENCH_ROUNDS=3, BENCH_CONNECTIONS=50)
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { Wallet, getAddress } from 'ethers';
import { buildApp } from '../src/app.js';
import { apiRoutes } from '../src/platform/http/types.js';
import { parseSanctionsFile } from '../src/modules/sanctions/parse/index.js';
import { createSanctionsScreening } from '../src/modules/sanctions/service.js';
import { advancedXml, sdnCsv, type SdnParty } from '../src/modules/sanctions/sdn-files.js';
import { autocannon, benchConfig, enterpriseKeys, median, signInAdmin, type Load } from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const load = { connections: CONNECTIONS, seconds: SECONDS };
const KEYS = 30; // Enterprise keys allow 2,000 req/s each: spread the load so the rate limiter never refuses
const ENTRIES = 20_000;
const dir = mkdtempSync(path.join(tmpdir(), 'credence-bench-sanctions-'));
const silent = { info() {}, warn() {}, error() {} };
const addr = () => '0x' + randomBytes(20).toString('hex');

async function writeFile(file: string, chunks: Iterable<string>) {
  const out = createWriteStream(file);
  for (const c of chunks) if (!out.write(c)) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

async function main() {
  const admin = Wallet.createRandom() as unknown as Wallet;
  const config = benchConfig(admin, { databaseUrl: process.env.BENCH_DATABASE_URL ?? 'pglite://memory', dataDir: dir, roles: ['api'] });
  const app = await buildApp(config, { logger: false, secrets: {} });
  // The platform's share: the same auth, rate limit and quota on a handler that does nothing.
  apiRoutes(app, (s) => {
    s.get('/bench/noop/:address', { config: { auth: 'apiKey', cost: 1 } }, async (req) => ({
      address: (req.params as { address: string }).address,
    }));
  });
  await app.ready();
  const screening = createSanctionsScreening({ db: app.ctx.db, bus: app.ctx.bus, log: silent });

  // 1. A 20,000-address list, 10 addresses per SDN entry, in both formats.
  const listed = Array.from({ length: ENTRIES }, () => getAddress(addr()));
  const parties = (offset: number): SdnParty[] =>
    Array.from({ length: ENTRIES / 10 }, (_, i) => ({
      id: offset + i,
      name: i % 3 ? `ENTITY NUMBER ${i} LLC` : { last: `LASTNAME${i}`, first: 'Firstname' },
      akas: [`ALIAS ${i}`],
      addresses: listed.slice(i * 10, i * 10 + 10).map((address, k) => ({ ticker: k % 4 ? 'ETH' : 'USDC', address })),
    }));
  const xmlFile = path.join(dir, 'sdn_advanced.xml');
  const csvFile = path.join(dir, 'sdn.csv');
  const xmlBytes = await writeFile(xmlFile, advancedXml(new Date('2025-01-01T00:00:00Z'), parties(1)));
  const csvBytes = await writeFile(csvFile, sdnCsv(parties(100_001)));
  console.log(`\n1. import of a ${ENTRIES.toLocaleString('en')}-address list (${app.ctx.db.kind})`);
  for (const [label, file, bytes, publishedAt] of [
    ['sdn_advanced.xml', xmlFile, xmlBytes, null],
    ['sdn.csv', csvFile, csvBytes, new Date('2025-02-01T00:00:00Z')],
  ] as const) {
    let t = performance.now();
    const parsed = await parseSanctionsFile(createReadStream(file, { highWaterMark: 1 << 20 }));
    const parseMs = performance.now() - t;
    if (parsed.entries.size !== ENTRIES) throw new Error(`${label}: parsed ${parsed.entries.size} entries`);
    t = performance.now();
    const r = await screening.importList({
      source: createReadStream(file, { highWaterMark: 1 << 20 }),
      publishedAt,
      importedBy: 'bench',
      fileName: label,
    });
    const importMs = performance.now() - t;
    if (r.status !== 'imported' || r.list.entryCount !== ENTRIES) throw new Error(`${label}: ${r.status} ${r.list.entryCount}`);
    console.log(
      `   ${label.padEnd(17)} ${mb(bytes).padStart(5)} MB   parse ${parseMs.toFixed(0).padStart(5)} ms   full import (parse + insert version ${r.list.version} + reload) ${importMs.toFixed(0).padStart(5)} ms`,
    );
  }
  // The app's own instance reloads through the event, as another instance would.
  const probe = listed[123];
  for (let i = 0; i < 100 && app.ctx.services.sanctions!.status(probe).sanctioned !== true; i++)
    await new Promise((r) => setTimeout(r, 20));
  if (app.ctx.services.sanctions!.status(probe).sanctioned !== true) throw new Error('the app did not reload the list');

  // 2. Full-size file: ~100 MB of profiles, 1 in 100 with an EVM address (the real list has a few hundred).
  const bigFile = path.join(dir, 'sdn_advanced_big.xml');
  const big: SdnParty[] = Array.from({ length: 33_000 }, (_, i) => ({
    id: 200_000 + i,
    name: i % 2 ? `SOME TRADING COMPANY NUMBER ${i} LIMITED LIABILITY` : { last: `SURNAME${i}`, first: 'Given Names' },
    akas: ['FIRST ALIAS OF THIS ENTRY', 'SECOND ALIAS OF THIS ENTRY', 'THIRD ALIAS OF THIS ENTRY', 'FOURTH ALIAS'],
    addresses: i % 100 === 0 ? [{ ticker: 'ETH', address: addr() }] : [{ ticker: 'XBT', address: '1AjZPMsnmpdK2Rv9KQNfMurTXinscVro9V' }],
  }));
  const bigBytes = await writeFile(bigFile, advancedXml(new Date('2025-03-01T00:00:00Z'), big));
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  let peak = heap0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 20);
  const t2 = performance.now();
  const parsedBig = await parseSanctionsFile(createReadStream(bigFile, { highWaterMark: 1 << 20 }));
  const bigMs = performance.now() - t2;
  clearInterval(sampler);
  global.gc?.();
  const retained = process.memoryUsage().heapUsed - heap0;
  console.log(
    `\n2. streaming parse of a ${mb(bigBytes)} MB sdn_advanced.xml (${big.length.toLocaleString('en')} profiles, ${parsedBig.entries.size} EVM addresses)`,
  );
  console.log(
    `   ${bigMs.toFixed(0)} ms = ${(bigBytes / 1024 / 1024 / (bigMs / 1000)).toFixed(1)} MB/s; JS heap peak +${mb(peak - heap0)} MB (uncollected garbage), ` +
      `+${mb(Math.max(0, retained))} MB after GC${global.gc ? '' : ' (run with --expose-gc for exact figures)'}`,
  );

  // 3. Screening throughput.
  const keys = await enterpriseKeys(app, await signInAdmin(app, admin), KEYS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  // Half listed, half clean; checksummed and lowercase spellings.
  const pool = Array.from({ length: 2000 }, (_, i) => (i % 2 ? listed[i] : getAddress(addr()))).map((a, i) =>
    i % 4 < 2 ? a : a.toLowerCase(),
  );
  const check = (await (await fetch(`${base}/api/v1/compliance/sanctions/${pool[1]}`, { headers: keys[0] })).json()) as {
    sanctioned?: boolean;
  };
  if (check.sanctioned !== true) throw new Error(`warm-up: ${JSON.stringify(check)}`);

  const bare = Fastify({ logger: false });
  bare.get('/hello/:address', async (req) => ({ address: (req.params as { address: string }).address, hello: 'world' }));
  bare.post('/hello', async (req) => ({ address: (req.body as { walletAddress: string }).walletAddress, hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareBase = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}`;

  console.log(
    `\n3. screening over HTTP, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds, ${pool.length} addresses (half listed) over ${KEYS} Enterprise keys`,
  );
  const runs = {
    bare: () => autocannon(`${bareBase}/hello/x`, { ...load, paths: pool.map((a) => `/hello/${a}`) }),
    barePost: () =>
      autocannon(`${bareBase}/hello`, { ...load, method: 'POST', bodies: pool.map((a) => JSON.stringify({ walletAddress: a })), keys }),
    get: () => autocannon(`${base}/`, { ...load, paths: pool.map((a) => `/api/v1/compliance/sanctions/${a}`), keys }),
    post: () =>
      autocannon(`${base}/api/v1/compliance/sanctions-check`, {
        ...load,
        method: 'POST',
        bodies: pool.map((a) => JSON.stringify({ walletAddress: a })),
        keys,
      }),
    noop: () => autocannon(`${base}/`, { ...load, paths: pool.map((a) => `/api/v1/bench/noop/${a}`), keys }),
  };
  await runs.bare(); // warm-up
  await runs.get();
  // Each round measures the baseline and every route back to back; the ratios are taken within a round and the
  // median over rounds is reported, so that drifts in machine load do not favour either side.
  const results: Record<keyof typeof runs, Load[]> = { bare: [], barePost: [], get: [], post: [], noop: [] };
  for (let round = 0; round < ROUNDS; round++) for (const k of Object.keys(runs) as (keyof typeof runs)[]) results[k].push(await runs[k]());
  await bare.close();
  type Run = keyof typeof runs;
  const against = (k: Run): Run => (k === 'post' ? 'barePost' : 'bare');
  const ratio = (k: Run) => median(results[k].map((r, i) => r.rps / results[against(k)][i].rps));
  const line = (label: string, k: keyof typeof runs) => {
    const r = results[k];
    return `   ${label.padEnd(34)} ${median(r.map((x) => x.rps))
      .toFixed(0)
      .padStart(
        7,
      )} req/s  p50 ${median(r.map((x) => x.p50))} ms  p99 ${median(r.map((x) => x.p99))} ms  non-2xx ${r.reduce((a, x) => a + x.non2xx, 0)}`;
  };
  const pct = (k: Run) =>
    `${(100 * ratio(k)).toFixed(1)}% of bare ${k === 'post' ? 'POST' : 'GET'} [${results[k].map((r, i) => ((100 * r.rps) / results[against(k)][i].rps).toFixed(0)).join(', ')}]`;
  console.log(line('bare Fastify GET /hello/:address', 'bare'));
  console.log(line('bare Fastify POST /hello (JSON body)', 'barePost'));
  console.log(line('GET /compliance/sanctions/{address}', 'get') + `   ${pct('get')} (target >= 60%)`);
  console.log(line('POST /compliance/sanctions-check', 'post') + `   ${pct('post')} (target >= 60%)`);
  console.log(line('platform only: API-key no-op GET', 'noop') + `   ${pct('noop')} (auth + rate limit + quota, empty handler)`);
  console.log(`   screening GET = ${((100 * ratio('get')) / ratio('noop')).toFixed(1)}% of the platform's own no-op route`);

  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
