// A Credence server as `npm start` starts it (`node bin/credence.mjs serve`), in a child process on a free port of
// 127.0.0.1, for tests that need the real process: signals, crashes, locks, streamed bodies over a real socket.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Wallet, type HDNodeWallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { eventually } from './app.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Servers still running when the test process ends (a timed-out test) are killed with it, never left behind. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
  admin: HDNodeWallet;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process is gone. */
  exited: Promise<number | string>;
  /** Sends the signal and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Runs `credence <args>` to completion (a CLI command), with the same environment rules. */
export async function runCli(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 120_000,
): Promise<{ code: number | string; out: string }> {
  const child = spawn(process.execPath, ['bin/credence.mjs', ...args], {
    cwd: ROOT,
    env: { ...baseEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | string>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (c, s) => {
      clearTimeout(timer);
      resolve(c ?? s ?? -1);
    });
  });
  return { code, out };
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  // the parent's settings stay out (a test runner's DATABASE_URL or REDIS_URL would leak into the child)
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(DATABASE_URL|REDIS_URL|CREDENCE_|PORT$|HOST$)/.test(k)) env[k] = v;
  return { ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', CREDENCE_PROVER_WARMUP: 'false' };
}

export async function startServer(
  opts: { env?: Record<string, string>; dataDir?: string; admin?: HDNodeWallet; readyTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(path.join(tmpdir(), 'credence-proc-'));
  const admin = opts.admin ?? Wallet.createRandom();
  const child = spawn(process.execPath, ['bin/credence.mjs', 'serve'], {
    cwd: ROOT,
    env: {
      ...baseEnv(),
      CREDENCE_DATA_DIR: dataDir,
      CREDENCE_ADMIN_ADDRESSES: admin.address,
      CREDENCE_SIWE_DOMAIN: 'credence.test',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (c, s) => resolve(c ?? s ?? -1)));
  let gone = false;
  void exited.then(() => (gone = true));
  const m = await eventually(() => (gone ? 'exited' : /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)), {
    timeoutMs: opts.readyTimeoutMs ?? 480_000,
    intervalMs: 50,
  }).catch((e) => {
    child.kill('SIGKILL');
    throw new Error(`server did not start: ${(e as Error).message}\n${out}`);
  });
  if (m === 'exited') throw new Error(`server exited at start:\n${out}`);
  return {
    child,
    url: m[1],
    dataDir,
    admin,
    output: () => out,
    exited,
    /** A process still there 30 s after the signal is killed, and the answer says so. */
    async stop(signal = 'SIGTERM') {
      if (!gone) child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<string>((resolve) => {
        timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve(`still running 30 s after ${signal}`);
        }, 30_000);
      });
      const r = await Promise.race([exited, late]);
      clearTimeout(timer);
      return r;
    },
  };
}

/** Sign-In with Ethereum over HTTP; returns the Authorization header. */
export async function signInOver(url: string, wallet: HDNodeWallet | Wallet): Promise<{ authorization: string }> {
  const { nonce } = (await (await fetch(`${url}/api/v1/auth/nonce`)).json()) as { nonce: string };
  const message = new SiweMessage({
    domain: 'credence.test',
    address: wallet.address,
    statement: 'Sign in to Credence',
    uri: 'https://credence.test',
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  const signature = await wallet.signMessage(message);
  const res = await fetch(`${url}/api/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature }),
  });
  if (res.status !== 200) throw new Error(`verify: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

/** An API key of a tier, created with the admin's JWT (paid tiers need it). */
export async function createKeyOver(url: string, adminAuth: { authorization: string }, tier: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/billing/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...adminAuth },
    body: JSON.stringify({ organizationName: 'Test Org', contactEmail: 'dev@example.com', tier }),
  });
  if (res.status !== 201) throw new Error(`api-keys: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

/**
 * The database for a child process: a fresh PostgreSQL test database when the run uses PostgreSQL (with its Redis
 * when set), else nothing (the child uses PGlite in its data dir, as `npm start` does by default).
 */
export async function childDatabaseEnv(): Promise<Record<string, string>> {
  const { usingPostgres, testDatabase, databaseUrlOf } = await import('./db.js');
  if (!usingPostgres()) return {};
  const db = await testDatabase();
  const url = databaseUrlOf(db)!;
  await db.close();
  const redis = process.env.CREDENCE_TEST_REDIS_URL;
  return {
    DATABASE_URL: url,
    ...(redis ? { REDIS_URL: redis, CREDENCE_REDIS_PREFIX: `credence-test:${Math.random().toString(36).slice(2)}:` } : {}),
  };
}
