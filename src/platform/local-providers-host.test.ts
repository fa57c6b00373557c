// Local providers safe by default: while the built-in payment or KYC provider is on, the service
// listens on loopback unless HOST is set, and says at start that they are on.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { activeLocalProviders, loadConfig } from './config.js';

const KYC = (slot: string) => ({
  [`CREDENCE_KYC_${slot}_API_URL`]: 'http://127.0.0.1:9/kyc',
  [`CREDENCE_KYC_${slot}_API_KEY`]: 'k',
  [`CREDENCE_KYC_${slot}_WEBHOOK_SECRET`]: 's',
});

describe('HOST default', () => {
  it('loopback while a local provider is on, every interface once none is, HOST always wins', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(activeLocalProviders(loadConfig({}))).toEqual(['payment', 'kyc']);
    // Stripe configured, KYC still local: still loopback
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }).host).toBe('127.0.0.1');
    expect(activeLocalProviders(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }))).toEqual(['kyc']);
    const real = { STRIPE_SECRET_KEY: 'sk_test_x', ...KYC('DEFAULT'), ...KYC('ALT') };
    expect(activeLocalProviders(loadConfig(real))).toEqual([]);
    expect(loadConfig(real).host).toBe('0.0.0.0');
    // providers off by setting (or production): nothing free to reach, every interface
    expect(loadConfig({ CREDENCE_LOCAL_PROVIDERS: 'false' }).host).toBe('0.0.0.0');
    expect(loadConfig({ NODE_ENV: 'production' }).host).toBe('0.0.0.0');
    // an explicit HOST is taken as said
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
  });

  it('`credence serve` with local providers listens on 127.0.0.1 and says they are on', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'credence-host-'));
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PORT: '0',
      CREDENCE_DATA_DIR: dataDir,
      DATABASE_URL: 'pglite://memory',
      CREDENCE_ROLES: 'api',
      LOG_LEVEL: 'info',
      CREDENCE_FROM_SOURCE: '1',
    };
    delete env.HOST;
    delete env.REDIS_URL;
    delete env.STRIPE_SECRET_KEY;
    delete env.CREDENCE_LOCAL_PROVIDERS;
    delete env.NODE_ENV;
    delete env.CREDENCE_PUBLIC_URL;
    const child = spawn(process.execPath, ['bin/credence.mjs', 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    try {
      const deadline = Date.now() + 90_000;
      while (!/local providers are ON/.test(out) && Date.now() < deadline && child.exitCode === null)
        await new Promise((r) => setTimeout(r, 100));
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; localProviders?: string[]; host?: string });
      const warning = lines.find((l) => l.msg.includes('local providers are ON'));
      expect(warning, out).toBeDefined();
      expect(warning).toMatchObject({ localProviders: ['payment', 'kyc'], host: '127.0.0.1' });
      const listening = lines.filter((l) => /Server listening at/.test(l.msg)).map((l) => l.msg);
      expect(listening.length, out).toBeGreaterThan(0);
      for (const l of listening) expect(l).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
      // it answers on loopback
      const port = /127\.0\.0\.1:(\d+)/.exec(listening[0])![1];
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 120_000);
});
