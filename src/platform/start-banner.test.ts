// What `npm start` prints: where it serves, the console and explorer links, and how to get data without a chain source.
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { startBanner } from './start-banner.js';

describe('start banner', () => {
  it('names the URL, console, explorer and storage; without a chain source, the three ways to get data', () => {
    const { text, fields } = startBanner(loadConfig({ PORT: '43099', HOST: '0.0.0.0' }), '9.9.9');
    expect(text).toContain('Credence 9.9.9 is serving on http://localhost:43099 (embedded PGlite in ');
    expect(text).toContain('http://localhost:43099/console');
    expect(text).toContain('http://localhost:43099/swagger');
    expect(text).toContain('NO_CHAIN_SOURCE');
    for (const way of ['npm run demo', 'cred_test_', 'CREDENCE_RPC_URL_<chainId>', 'CREDENCE_EXPLORER_API_KEY'])
      expect(text).toContain(way);
    expect(fields).toMatchObject({ url: 'http://localhost:43099', chainSources: [] });
  });

  it('with sources, lists them instead, and uses the public URL when set', () => {
    const c = loadConfig({
      CREDENCE_RPC_URL_1: 'http://127.0.0.1:8545',
      CREDENCE_PUBLIC_URL: 'https://api.example.com',
      DATABASE_URL: 'postgres://u@db/x',
    });
    const { text } = startBanner(c, '1.0.0');
    expect(text).toContain('serving on https://api.example.com (PostgreSQL)');
    expect(text).toContain('Chain sources: JSON-RPC for chain 1.');
    expect(text).not.toContain('NO_CHAIN_SOURCE');
  });
});
