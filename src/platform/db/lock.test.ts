// One process per embedded data directory: a `credence ingest` (or any command opening the embedded
// database) beside a process holding the directory is refused with a clear message and touches nothing; a lock left
// by a process that died is taken over. Real processes: a holder that opens the database as the server does, and
// the `credence` command itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/helpers/app.js';
import { ROOT, runCli } from '../../../test/helpers/server-process.js';

/** A process that opens the embedded database in `dir` (as `credence serve` does) and holds it until killed. */
function holder(dir: string): { child: ChildProcess; out: () => string } {
  const code = `const { openDatabase } = await import('./src/platform/db/index.ts'); await openDatabase(null, ${JSON.stringify(dir)}); console.log('HOLDING'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, out: () => out };
}

describe('embedded data directory lock', () => {
  const started: ChildProcess[] = [];
  afterEach(() => {
    for (const c of started.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  it('refuses ingest and migrate beside a live holder, with a clear message; takes over the lock once the holder died', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-lock-'));
    const h = holder(dir);
    started.push(h.child);
    await eventually(() => h.out().includes('HOLDING') || h.child.exitCode !== null, { timeoutMs: 240_000, intervalMs: 100 });
    expect(h.out()).toContain('HOLDING');
    const lock = JSON.parse(readFileSync(path.join(dir, 'credence.lock'), 'utf8')) as { pid: number };
    expect(lock.pid).toBe(h.child.pid);

    const etl = mkdtempSync(path.join(tmpdir(), 'credence-etl-'));
    writeFileSync(
      path.join(etl, 'transactions.csv'),
      'hash,nonce,block_hash,block_number,transaction_index,from_address,to_address,value,gas,gas_price,input,block_timestamp\n',
    );
    for (const args of [['ingest', '--format', 'ethereum-etl', etl], ['migrate']]) {
      const r = await runCli(args, { CREDENCE_DATA_DIR: dir });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`in use by another Credence process (pid ${h.child.pid}`);
      expect(r.out).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
    // the holder's lock is untouched by the refused commands
    expect(JSON.parse(readFileSync(path.join(dir, 'credence.lock'), 'utf8')).pid).toBe(h.child.pid);

    // The holder dies without cleaning up (SIGKILL): its lock is stale and the next command takes it over.
    h.child.kill('SIGKILL');
    await eventually(() => h.child.exitCode !== null || h.child.signalCode !== null);
    expect(existsSync(path.join(dir, 'credence.lock'))).toBe(true);
    const r = await runCli(['migrate'], { CREDENCE_DATA_DIR: dir });
    expect(r.code, r.out).toBe(0);
    // and releases it when done
    expect(existsSync(path.join(dir, 'credence.lock'))).toBe(false);
  }, 600_000);
});
