import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { loadConfig } from './config.js';
import { createCipher } from './secrets.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/credence.mjs');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [bin, 'secrets', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });

describe('credence secrets generate', () => {
  it('prints six fresh secrets that the settings accept, in their formats', () => {
    const out = run('generate', '--format', 'json');
    expect(out.status).toBe(0);
    const s = JSON.parse(out.stdout) as Record<string, string>;
    expect(Object.keys(s).sort()).toEqual([
      'CREDENCE_ENCRYPTION_KEY',
      'CREDENCE_HUB_TOKEN_KEY',
      'CREDENCE_ISSUER_KEY',
      'CREDENCE_JWT_SECRET',
      'CREDENCE_KYC_CALLBACK_SECRET',
      'STRIPE_WEBHOOK_SECRET',
    ]);
    expect(s.CREDENCE_ISSUER_KEY).toMatch(/^0x[0-9a-f]{64}$/);
    expect(s.CREDENCE_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(s.STRIPE_WEBHOOK_SECRET).toMatch(/^whsec_/);
    const config = loadConfig({ ...s });
    expect(config.issuerKey).toBe(s.CREDENCE_ISSUER_KEY);
    expect(config.jwtSecret).toBe(s.CREDENCE_JWT_SECRET);
    expect(privateKeyToAccount(s.CREDENCE_ISSUER_KEY as `0x${string}`).address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const cipher = createCipher(s.CREDENCE_ENCRYPTION_KEY!);
    expect(cipher.decrypt(cipher.encrypt('x'))).toBe('x');
    // fresh each time
    expect(JSON.parse(run('generate', '--format', 'json').stdout).CREDENCE_JWT_SECRET).not.toBe(s.CREDENCE_JWT_SECRET);
  });

  it('prints a .env by default and refuses unknown arguments', () => {
    const env = run('generate');
    expect(env.status).toBe(0);
    const lines = env.stdout.split('\n').filter((l) => /^[A-Z_]+=/.test(l));
    expect(lines).toHaveLength(6);
    const bad = run('generate', '--formt', 'json');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('unknown flag --formt');
    expect(bad.stderr).toContain('did you mean --format?');
  });
});
