// Shared by the benchmarks: an in-process app on a throwaway embedded database, admin sign-in, Enterprise keys,
// and autocannon in its own process (so the load generator never shares the server's event loop).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { loadConfig, type Config } from '../src/platform/config.js';
import type { App } from '../src/platform/http/types.js';

const run = promisify(execFile);
export const BENCH_DOMAIN = 'credence.bench';

/** Settings for a benchmark app: embedded database in a fresh data dir, one admin wallet, no per-IP limit. */
export function benchConfig(admin: Wallet, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    databaseUrl: 'pglite://memory',
    dataDir: mkdtempSync(path.join(tmpdir(), 'credence-bench-')),
    logLevel: 'silent',
    adminAddresses: [admin.address.toLowerCase()],
    siweDomain: BENCH_DOMAIN,
    ipRateLimit: 1_000_000,
    proverWarmup: false, // benchmarks that prove start the threads themselves
    ...overrides,
  };
}

/** The EIP-4361 message a benchmark's wallet signs to sign in with this nonce. */
export const siweMessage = (address: string, nonce: string) =>
  new SiweMessage({
    domain: BENCH_DOMAIN,
    address,
    statement: 'Sign in to Credence',
    uri: `https://${BENCH_DOMAIN}`,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();

export async function signInAdmin(app: App, wallet: Wallet): Promise<string> {
  const { nonce } = (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json();
  const message = siweMessage(wallet.address, nonce);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify',
    payload: { message, signature: await wallet.signMessage(message) },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in: ${res.statusCode} ${res.body}`);
  return res.json().token;
}

/** `n` Enterprise keys (2,000 req/s each), as `x-api-key` header sets to rotate over. */
export async function enterpriseKeys(app: App, token: string, n: number): Promise<Record<string, string>[]> {
  const keys: Record<string, string>[] = [];
  for (let i = 0; i < n; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/api-keys',
      headers: { authorization: `Bearer ${token}` },
      payload: { organizationName: `Bench ${i}`, contactEmail: 'bench@example.com', tier: 'Enterprise' },
    });
    if (res.statusCode !== 201) throw new Error(`api key: ${res.statusCode} ${res.body}`);
    keys.push({ 'x-api-key': res.json().apiKey });
  }
  return keys;
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

export interface LoadOptions {
  connections: number;
  seconds: number;
  method?: string;
  /** each request takes the next path / body / header set of these rotations */
  paths?: string[];
  bodies?: string[];
  keys?: Record<string, string>[];
}

/** autocannon in a child process; requests/s counts 2xx answers only. */
export async function autocannon(url: string, opts: LoadOptions): Promise<Load> {
  const optsFile = path.join(tmpdir(), `credence-autocannon-${randomBytes(6).toString('hex')}.json`);
  writeFileSync(optsFile, JSON.stringify(opts));
  const code = `
    const autocannon = require('autocannon');
    const o = JSON.parse(require('fs').readFileSync(${JSON.stringify(optsFile)}, 'utf8'));
    let i = 0;
    autocannon({ url: ${JSON.stringify(url)}, connections: o.connections, duration: o.seconds, method: o.method || 'GET',
      requests: [{ setupRequest: (r) => {
        const n = i++;
        const out = { ...r, headers: { ...r.headers, ...(o.keys ? o.keys[n % o.keys.length] : {}) } };
        if (o.paths) out.path = o.paths[n % o.paths.length];
        if (o.bodies) { out.body = o.bodies[n % o.bodies.length]; out.headers['content-type'] = 'application/json'; }
        return out;
      } }] },
      (err, res) => { if (err) { console.error(err); process.exit(1); } process.stdout.write(JSON.stringify(res)); });`;
  const { stdout } = await run(process.execPath, ['-e', code], { maxBuffer: 64 * 1024 * 1024 });
  const r = JSON.parse(stdout) as { latency: { p50: number; p99: number }; non2xx: number; '2xx': number; duration: number };
  return { rps: r['2xx'] / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
