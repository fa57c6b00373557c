#!/usr/bin/env node
// Runs compose.yaml's Credence services without Docker (CI machines have none): the same commands and
// environment, with the compose file's postgres and redis replaced by the ones on 127.0.0.1. Checks that every
// instance becomes healthy (and ready), that the two API instances act as one deployment (a nonce from one is
// redeemed on the other, a key made on one works on the other), scrapes /metrics, then fails the database over under
// them (every PostgreSQL connection cut at the network by a proxy in front of the database, then every session
// terminated by the server): no instance may exit, and each must serve again without a restart. Then stops
// everything with SIGTERM and expects clean exits.
// Settings: CREDENCE_TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres), CREDENCE_TEST_REDIS_URL.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import YAML from 'yaml';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pgUrl = process.env.CREDENCE_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.CREDENCE_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const DEADLINE_MS = Number(process.env.COMPOSE_SMOKE_DEADLINE_MS || 240_000);
const hex = (n) => randomBytes(n).toString('hex');
const log = (...a) => console.log('[compose-smoke]', ...a);

/** Compose's ${VAR}, ${VAR:-default}, ${VAR:?message} against `vars`. */
function interpolate(value, vars) {
  return String(value).replace(/\$\{(\w+)(?::?([-?])([^}]*))?\}/g, (_m, name, op, arg) => {
    const v = vars[name];
    if (v !== undefined && v !== '') return v;
    if (op === '?') throw new Error(`compose.yaml needs ${name}: ${arg}`);
    return op === '-' ? arg : '';
  });
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

async function until(what, fn) {
  const end = Date.now() + DEADLINE_MS;
  let last;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${DEADLINE_MS} ms${last ? ` (${last.message})` : ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const compose = YAML.parse(readFileSync(path.join(root, 'compose.yaml'), 'utf8'), { merge: true });
const ours = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);
if (
  !ours.some(([, s]) => /api/.test(s.environment?.CREDENCE_ROLES ?? '')) ||
  !ours.some(([, s]) => s.environment?.CREDENCE_ROLES === 'workers')
) {
  throw new Error('compose.yaml should run API instances and a workers instance');
}
for (const dep of ['postgres', 'redis']) if (!compose.services[dep]) throw new Error(`compose.yaml has no ${dep} service`);
checkLoadBalancer();

/** No Docker here to run nginx: check that the load balancer publishes what CREDENCE_PUBLIC_URL names and that its
 * upstreams are exactly the API services, on the port the image listens on. */
function checkLoadBalancer() {
  const lb = compose.services.lb;
  if (!lb) throw new Error('compose.yaml has no lb service (the address CREDENCE_PUBLIC_URL names)');
  const publicUrl = new URL(interpolate(ours[0][1].environment.CREDENCE_PUBLIC_URL, {}));
  const published = (lb.ports ?? []).map((p) => String(p).split(':'));
  const confMount = (lb.volumes ?? []).map(String).find((v) => v.includes('nginx'));
  if (!confMount) throw new Error('lb mounts no nginx configuration');
  const conf = readFileSync(path.join(root, confMount.split(':')[0]), 'utf8');
  const listen = conf.match(/^\s*listen\s+(\d+);/m)?.[1];
  if (!published.some(([host, inner]) => host === publicUrl.port && inner === listen)) {
    throw new Error(
      `lb publishes ${JSON.stringify(lb.ports)} (nginx listens on ${listen}) but CREDENCE_PUBLIC_URL names port ${publicUrl.port}`,
    );
  }
  const upstreams = [...conf.matchAll(/^\s*server\s+([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`).sort();
  const apis = ours
    .filter(([, svc]) => /api/.test(svc.environment?.CREDENCE_ROLES ?? ''))
    .map(([name]) => `${name}:8080`)
    .sort();
  if (upstreams.join() !== apis.join()) throw new Error(`nginx upstreams ${upstreams} are not the API services ${apis}`);
  for (const [name, svc] of ours) if (svc.ports?.length) throw new Error(`${name} publishes ${svc.ports}: only the lb should`);
  log(`lb: ${publicUrl.origin} -> ${upstreams.join(', ')}`);
}

// The deployment's shared secrets, as the README has an operator make them: `credence secrets generate`.
const generated = spawnSync(process.execPath, [path.join(root, 'bin/credence.mjs'), 'secrets', 'generate', '--format', 'json'], {
  encoding: 'utf8',
});
if (generated.status !== 0) throw new Error(`credence secrets generate: ${generated.status} ${generated.stderr}`);
const admin = Wallet.createRandom();
const vars = {
  ...JSON.parse(generated.stdout),
  CREDENCE_ADMIN_ADDRESSES: admin.address,
  CREDENCE_METRICS_TOKEN: hex(16),
};

/** A TCP proxy in front of PostgreSQL that can cut every established connection at once (a failover as the
 * instances see it: sockets closed with no word from the server; new connections go through). */
async function startProxy(target) {
  const open = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port) || 5432, target.hostname);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    open.add(client).add(upstream);
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: server.address().port,
    drop() {
      const n = open.size / 2;
      for (const s of open) s.destroy();
      open.clear();
      return n;
    },
    close: () => new Promise((r) => (server.close(() => r()), [...open].forEach((s) => s.destroy()))),
  };
}

const dbName = `credence_compose_${hex(5)}`;
const adminDb = new pg.Client({ connectionString: pgUrl });
await adminDb.connect();
await adminDb.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(pgUrl);
dbUrl.pathname = `/${dbName}`;
const pgProxy = await startProxy(new URL(pgUrl));
const viaProxy = new URL(dbUrl);
viaProxy.hostname = '127.0.0.1';
viaProxy.port = String(pgProxy.port);
const prefix = `credence-compose:${hex(4)}:`;

const children = [];
const dirs = [];
let failed = false;
try {
  const instances = [];
  for (const [name, svc] of ours) {
    const env = Object.fromEntries(Object.entries(svc.environment ?? {}).map(([k, v]) => [k, interpolate(v, vars)]));
    // compose's service hostnames become the services on 127.0.0.1
    if (/@postgres[:/]/.test(env.DATABASE_URL ?? '')) env.DATABASE_URL = viaProxy.toString();
    if (/\/\/redis[:/]/.test(env.REDIS_URL ?? '')) env.REDIS_URL = redisUrl;
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), `credence-${name}-`));
    dirs.push(dataDir);
    const [cmd, ...args] = svc.command;
    const child = spawn(cmd === 'node' ? process.execPath : cmd, args, {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        ...env,
        HOST: '127.0.0.1',
        PORT: String(port),
        CREDENCE_DATA_DIR: dataDir,
        CREDENCE_REDIS_PREFIX: prefix,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push({ name, child });
    instances.push({ name, roles: env.CREDENCE_ROLES, base: `http://127.0.0.1:${port}` });
    log(`${name}: ${svc.command.join(' ')} (roles ${env.CREDENCE_ROLES}) on port ${port}`);
  }
  for (const { name, child } of children)
    child.on('exit', (code, sig) => code !== 0 && !child.stopping && (log(`${name} exited early (${code ?? sig})`), (failed = true)));

  for (const i of instances) {
    await until(`${i.name} /health`, async () => !failed && (await fetch(`${i.base}/health`)).status === 200);
    const ready = await fetch(`${i.base}/health/ready`);
    if (ready.status !== 200) throw new Error(`${i.name} /health/ready answered ${ready.status}: ${await ready.text()}`);
    const metrics = await fetch(`${i.base}/metrics`, { headers: { authorization: `Bearer ${vars.CREDENCE_METRICS_TOKEN}` } });
    if (metrics.status !== 200 || !(await metrics.text()).includes('credence_http_requests_total'))
      throw new Error(`${i.name} /metrics failed`);
    log(`${i.name}: healthy, ${(await ready.json()).status}, metrics scraped`);
  }

  // One deployment: a nonce issued by api-1 is redeemed on api-2, a key created on api-1 works on api-2.
  const [a, b] = instances.filter((i) => i.roles.includes('api'));
  const { nonce } = await (await fetch(`${a.base}/api/v1/auth/nonce`)).json();
  const publicUrl = new URL(interpolate(compose.services[a.name].environment.CREDENCE_PUBLIC_URL, vars));
  const wallet = Wallet.createRandom();
  const message = new SiweMessage({
    domain: publicUrl.host,
    address: wallet.address,
    uri: publicUrl.origin,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  const verify = await fetch(`${b.base}/api/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature: await wallet.signMessage(message) }),
  });
  if (verify.status !== 200) throw new Error(`sign-in across instances: ${verify.status} ${await verify.text()}`);
  const { token } = await verify.json();
  const created = await fetch(`${a.base}/api/v1/billing/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ organizationName: 'Compose smoke', contactEmail: 'ops@example.com' }),
  });
  if (created.status !== 201) throw new Error(`key creation: ${created.status} ${await created.text()}`);
  const { apiKey } = await created.json();
  const usage = await fetch(`${b.base}/api/v1/billing/usage`, { headers: { 'x-api-key': apiKey } });
  if (usage.status !== 200) throw new Error(`key from ${a.name} on ${b.name}: ${usage.status} ${await usage.text()}`);
  log(`${a.name} and ${b.name} share sign-in and keys`);

  // A failover under every instance: connections cut at the network; once they serve again, every session ended
  // by the server.
  const cuts = [
    ['cut at the network', async () => pgProxy.drop()],
    [
      'terminated by the server',
      async () => (await adminDb.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [dbName])).rowCount,
    ],
  ];
  for (const [how, cut] of cuts) {
    const n = await cut();
    if (n === 0) throw new Error(`no connection of the instances to ${how}`);
    log(`database failover: ${n} connection(s) ${how}`);
    for (const i of instances) {
      await until(`${i.name} ready after the failover`, async () => !failed && (await fetch(`${i.base}/health/ready`)).status === 200);
      if (i.roles.includes('api')) {
        // 503 `unavailable` (a call cut in flight) until it serves; anything else fails at once
        const r = await until(`${i.name} serving after the failover`, async () => {
          const res = await fetch(`${i.base}/api/v1/billing/usage`, { headers: { 'x-api-key': apiKey } });
          return res.status === 503 ? null : res;
        });
        if (r.status !== 200) throw new Error(`${i.name} after the failover: ${r.status} ${await r.text()}`);
      }
    }
  }
  if (failed) throw new Error('an instance exited during the failover');
  log('every instance survived the failover and serves again, without a restart');
} catch (e) {
  failed = true;
  console.error('[compose-smoke] FAILED:', e.message);
} finally {
  // SIGTERM, as `docker compose down` sends: every instance must finish cleanly.
  await Promise.all(
    children.map(
      ({ name, child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.stopping = true;
          const force = setTimeout(() => (log(`${name} did not stop within 30 s`), (failed = true), child.kill('SIGKILL')), 30_000);
          child.on('exit', (code) => {
            clearTimeout(force);
            if (code !== 0) {
              failed = true;
              log(`${name} exited with ${code}`);
            }
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await pgProxy.close();
  await adminDb.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await adminDb.end();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}
log(failed ? 'FAILED' : 'OK: every service of compose.yaml started, served, and stopped cleanly');
process.exit(failed ? 1 : 0);
