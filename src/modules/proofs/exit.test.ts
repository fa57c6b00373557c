// After proving, closing the app leaves nothing running: a process that proved exits by itself.
import { spawn } from 'node:child_process';
import { describe, expect, inject, it } from 'vitest';

describe('shutdown', () => {
  it('a process that proved exits on its own once the app is closed', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/proofs-exit-check.ts'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CREDENCE_EXIT_CHECK_DUMP: inject('pgliteDump') },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise<number | string>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve('still running 45 s after start');
      }, 45_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c ?? -1);
      });
    });
    expect(code, out).toBe(0);
    expect(out).toContain('proved 898 chars');
    expect(out).toContain('closed');
  });
});
