// `credence --help`, `--version` and `<command> --help` answer and exit without reading settings or starting anything.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { VERSION } from './version.js';

// PORT=abc would stop any command that reads settings; DATABASE_URL points nowhere: help must touch neither.
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/credence.mjs', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, PORT: 'abc', DATABASE_URL: 'postgres://127.0.0.1:1/none' },
  });

describe('credence command line', () => {
  it('--version prints the version', () => {
    const r = run('--version');
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it('--help lists the commands', () => {
    const r = run('--help');
    expect(r.status).toBe(0);
    for (const c of ['serve', 'migrate', 'sanctions', 'ingest']) expect(r.stdout).toContain(c);
  });

  it('<command> --help describes the command and starts nothing (serve would never exit)', () => {
    for (const c of ['serve', 'migrate', 'sanctions']) {
      const r = run(c, '--help');
      expect(r.status, c).toBe(0);
      expect(r.stdout).toContain(`usage: credence ${c}`);
      expect(r.stderr).not.toContain('invalid setting');
    }
  });

  it('an unknown command exits 2 with the usage', () => {
    const r = run('bogus');
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown command');
  });
});
