// With no sign-in domain or public URL configured, every link the service prints signs in. Over a
// real socket with the `siwe` library: a service listening on 127.0.0.1 (the default while local providers are on)
// accepts messages for 127.0.0.1:PORT and localhost:PORT, and still refuses any other domain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { createTestApp } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { listeningDomains, siweDomainsOf } from './service.js';
import { loadConfig } from '../../platform/config.js';
import { startBanner } from '../../platform/start-banner.js';

let app: App;
let port: number;
beforeAll(async () => {
  // HOST unset with local providers on: 127.0.0.1, as `npm start` does; no CREDENCE_SIWE_DOMAIN, no public URL
  app = await createTestApp({ config: { siweDomain: null, publicUrl: null, host: '127.0.0.1', port: 0 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app.close());

async function signInOver(base: string, domain: string, origin = `http://${domain}`) {
  const nonceRes = await fetch(`${base}/api/v1/auth/nonce`);
  expect(nonceRes.status).toBe(200);
  const { nonce } = (await nonceRes.json()) as { nonce: string };
  const wallet = Wallet.createRandom();
  const message = new SiweMessage({
    domain,
    address: wallet.address,
    statement: 'Sign in to the Credence console',
    uri: origin,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt: new Date().toISOString(),
  }).prepareMessage();
  const res = await fetch(`${base}/api/v1/auth/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message, signature: await wallet.signMessage(message) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, wallet };
}

describe('sign-in domains by default (HOST=127.0.0.1, no CREDENCE_SIWE_DOMAIN / CREDENCE_PUBLIC_URL)', () => {
  it('the printed link (http://127.0.0.1:PORT) signs in', async () => {
    const printed = startBanner({ ...app.ctx.config, port }, '0').fields.console as string;
    expect(printed).toBe(`http://127.0.0.1:${port}/console`);
    const origin = new URL(printed);
    const r = await signInOver(origin.origin, origin.host, origin.origin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tokenType: 'Bearer', address: r.wallet.address });
  });

  it('http://localhost:PORT signs in too', async () => {
    const r = await signInOver(`http://localhost:${port}`, `localhost:${port}`);
    expect(r.status).toBe(200);
    expect(r.body.address).toBe(r.wallet.address);
  });

  it('a foreign domain, or the right host on another port, is still refused with the accepted domains named', async () => {
    for (const domain of ['evil.example', `localhost:${port + 1}`, `127.0.0.2:${port}`]) {
      const r = await signInOver(`http://127.0.0.1:${port}`, domain);
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('unauthorized');
      expect(r.body.details).toContain(`127.0.0.1:${port}`);
      expect(r.body.details).toContain(`localhost:${port}`);
    }
    // the right domain with a uri elsewhere
    const r = await signInOver(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`, 'https://evil.example');
    expect(r.status).toBe(401);
  });
});

describe('which domains a listener accepts', () => {
  it('loopback and wildcard listeners: localhost and the loopback address; a specific address: only itself', () => {
    expect(listeningDomains('127.0.0.1', 8080)).toEqual(['127.0.0.1:8080', 'localhost:8080']);
    expect(listeningDomains('0.0.0.0', 8080)).toEqual(['localhost:8080', '127.0.0.1:8080']);
    expect(listeningDomains('::', 8080)).toEqual(['localhost:8080', '127.0.0.1:8080', '[::1]:8080']);
    expect(listeningDomains('::1', 8080)).toEqual(['[::1]:8080', 'localhost:8080']);
    expect(listeningDomains('192.168.1.5', 8080)).toEqual(['192.168.1.5:8080']);
    expect(listeningDomains('127.0.0.1', 80)).toEqual(['127.0.0.1', 'localhost']);
  });

  it('the banner prints a host the sign-in accepts, for every HOST', () => {
    for (const HOST of ['127.0.0.1', '0.0.0.0', '::', '::1', '192.168.1.5', undefined]) {
      const c = loadConfig({ PORT: '43111', ...(HOST ? { HOST } : {}) });
      expect(siweDomainsOf(c)).toContain(new URL(startBanner(c, '0').fields.url as string).host);
    }
  });

  it('a configured domain or public URL replaces the defaults (never a host it was not configured for)', () => {
    expect(siweDomainsOf(loadConfig({ PORT: '43111', CREDENCE_SIWE_DOMAIN: 'app.example.com' }))).toEqual(['app.example.com']);
    expect(siweDomainsOf(loadConfig({ PORT: '43111', CREDENCE_PUBLIC_URL: 'https://api.example.com' }))).toEqual(['api.example.com']);
    expect(siweDomainsOf(loadConfig({ PORT: '43111', CREDENCE_SIWE_DOMAINS: 'dapp.example' }))).toEqual([
      '127.0.0.1:43111',
      'localhost:43111',
      'dapp.example',
    ]);
  });
});
