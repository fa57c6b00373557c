// The shipped OFAC SDN snapshot: a fresh install screens offline with no import (through the app and through a real
// `credence serve` process on an empty data dir), results say which list answered, and an import replaces it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { freePort } from '../../../test/helpers/ports.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet, getAddress } from 'ethers';
import { SiweMessage } from 'siwe';
import { createKey, createTestApp, eventually, randomAddress, signInAdmin, type TestKey } from '../../../test/helpers/app.js';
import { loadConfig } from '../../platform/config.js';
import type { App } from '../../platform/http/types.js';
import { advancedXml, fileText, sdnCsv } from './sdn-files.js';
import { readSnapshot } from './snapshot.js';

const RONIN_EXPLOITER = '0x098B716B8Aaf21512996dC57EB0615e2383E2f96';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const check = (app: App, key: TestKey, walletAddress: string) =>
  app.inject({ method: 'POST', url: '/api/v1/compliance/sanctions-check', headers: key.headers, payload: { walletAddress } });

describe('the shipped snapshot file', () => {
  it('holds the 152 ETH addresses of the SDN list of 2024-09-27, the Ronin exploiter among them', () => {
    const snap = readSnapshot();
    expect(snap.publishedAt.toISOString()).toBe('2024-09-27T00:00:00.000Z');
    expect(snap.entries).toHaveLength(152);
    expect(snap.entries.map((e) => e.address)).toContain(RONIN_EXPLOITER.toLowerCase());
    expect(loadConfig({}).sanctionsSnapshot).toBe(true);
    expect(loadConfig({ CREDENCE_SANCTIONS_SNAPSHOT: 'false' }).sanctionsSnapshot).toBe(false);
  });
});

describe('an app on a fresh database with the snapshot on (the default)', () => {
  let app: App;
  let key: TestKey;
  beforeAll(async () => {
    app = await createTestApp({ config: { sanctionsSnapshot: true } });
    key = await createKey(app, 'Starter');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('screens with no import, saying the snapshot answered', async () => {
    for (const spelling of [RONIN_EXPLOITER, RONIN_EXPLOITER.toLowerCase()]) {
      const res = await check(app, key, spelling);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        walletAddress: RONIN_EXPLOITER,
        sanctioned: true,
        checkedAt: expect.any(String),
        source: 'OFAC SDN List',
        listPublishedAt: '2024-09-27T00:00:00.000Z',
        listVersion: 1,
        listSource: 'snapshot',
      });
    }
    const get = await app.inject({ method: 'GET', url: `/api/v1/compliance/sanctions/${RONIN_EXPLOITER}`, headers: key.headers });
    expect(get.json()).toMatchObject({ sanctioned: true, listSource: 'snapshot' });
    const clean = await check(app, key, randomAddress());
    expect(clean.json()).toMatchObject({ sanctioned: false, listSource: 'snapshot', listVersion: 1 });
    // other modules see it too (the COMPLIANCE score reads this)
    expect(app.ctx.services.sanctions!.status(RONIN_EXPLOITER).sanctioned).toBe(true);
    const lists = await app.inject({ method: 'GET', url: '/api/v1/compliance/sanctions/lists', headers: (await signInAdmin(app)).auth });
    expect(lists.json().current).toMatchObject({ version: 1, format: 'snapshot', importedBy: 'snapshot', entryCount: 152 });
  });

  it('is replaced by an import, even one published before the snapshot, and results then say import (confirmed: it drops the 152)', async () => {
    const listed = getAddress(randomAddress());
    const csv = fileText(sdnCsv([{ id: 50001, name: 'SOME ENTITY', addresses: [{ ticker: 'ETH', address: listed }] }]));
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/compliance/sanctions/import?publishedAt=2024-01-02&confirm=true',
      headers: { 'content-type': 'text/csv', ...(await signInAdmin(app)).auth },
      payload: csv,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().list).toMatchObject({ version: 2, format: 'sdn_csv' });
    expect((await check(app, key, listed)).json()).toMatchObject({
      sanctioned: true,
      entityName: 'SOME ENTITY',
      listVersion: 2,
      listSource: 'import',
    });
    // the imported list is the whole truth now: the snapshot's addresses no longer answer
    expect((await check(app, key, RONIN_EXPLOITER)).json()).toMatchObject({ sanctioned: false, listVersion: 2, listSource: 'import' });
  });

  it('is not loaded again over an existing list when the app restarts on the same database', async () => {
    const again = await app.ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM sanctions_lists WHERE format = 'snapshot'");
    expect(again[0].n).toBe(1);
  });
});

describe('with CREDENCE_SANCTIONS_URL set', () => {
  it('the scheduled refresh downloads at start over the snapshot instead of waiting an interval', async () => {
    const listed = getAddress(randomAddress());
    // a real newer list keeps the snapshot's addresses (one that dropped most of them would need confirmation)
    const kept = readSnapshot().entries.map((e, i) => ({
      id: 1000 + i,
      name: `SDN ${i}`,
      addresses: [{ ticker: 'ETH', address: e.address }],
    }));
    const body = fileText(
      advancedXml(new Date('2024-10-01T00:00:00Z'), [
        ...kept,
        { id: 9, name: 'LAZARUS GROUP', addresses: [{ ticker: 'ETH', address: listed }] },
      ]),
    );
    let requests = 0;
    const srv = createHttpServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const app = await createTestApp({
      config: { sanctionsSnapshot: true, sanctionsUrl: `http://127.0.0.1:${(srv.address() as { port: number }).port}/sdn_advanced.xml` },
    });
    try {
      await eventually(() => app.ctx.services.sanctions!.status(listed).sanctioned === true, { timeoutMs: 60_000 });
      expect(requests).toBe(1);
      const key = await createKey(app, 'Starter');
      expect((await check(app, key, listed)).json()).toMatchObject({
        sanctioned: true,
        entityName: 'LAZARUS GROUP',
        listVersion: 2,
        listSource: 'import',
      });
    } finally {
      await app.close();
      await new Promise((r) => srv.close(r));
    }
  });
});

describe('CREDENCE_SANCTIONS_SNAPSHOT=false keeps the fail-closed start', () => {
  it('answers 503 until a list is imported', async () => {
    const app = await createTestApp({ config: { sanctionsSnapshot: false } });
    try {
      const key = await createKey(app, 'Starter');
      const res = await check(app, key, RONIN_EXPLOITER);
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('unavailable');
    } finally {
      await app.close();
    }
  });
});

/** A free TCP port on 127.0.0.1. */
describe('`credence serve` on an empty data dir (what `npm start` runs)', () => {
  let child: ChildProcess | null = null;
  let dataDir = '';
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers sanctioned: true for the Ronin exploiter with no import', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'credence-fresh-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      CREDENCE_DATA_DIR: dataDir,
      CREDENCE_PUBLIC_URL: base,
      CREDENCE_ROLES: 'api',
      CREDENCE_PROVER_WARMUP: 'false',
      LOG_LEVEL: 'warn',
    };
    let output = '';
    child = spawn(process.execPath, [path.join(ROOT, 'bin/credence.mjs'), 'serve'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await eventually(async () => child!.exitCode !== null || (await fetch(`${base}/health`)).status === 200, {
      timeoutMs: 150_000,
      intervalMs: 250,
    });
    expect(child.exitCode, output).toBeNull();

    // a first-time user: sign in with Ethereum, create a Free key, screen
    const wallet = Wallet.createRandom();
    const { nonce } = (await (await fetch(`${base}/api/v1/auth/nonce`)).json()) as { nonce: string };
    const message = new SiweMessage({
      domain: `127.0.0.1:${port}`,
      address: wallet.address,
      uri: base,
      version: '1',
      chainId: 1,
      nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    const signed = await fetch(`${base}/api/v1/auth/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message, signature: await wallet.signMessage(message) }),
    });
    expect(signed.status, await signed.clone().text()).toBe(200);
    const { token } = (await signed.json()) as { token: string };
    const keyRes = await fetch(`${base}/api/v1/billing/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ organizationName: 'First Run', contactEmail: 'dev@example.com' }),
    });
    expect(keyRes.status).toBe(201);
    const { apiKey } = (await keyRes.json()) as { apiKey: string };
    const res = await fetch(`${base}/api/v1/compliance/sanctions/${RONIN_EXPLOITER}`, { headers: { 'x-api-key': apiKey } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      walletAddress: RONIN_EXPLOITER,
      sanctioned: true,
      listSource: 'snapshot',
      listPublishedAt: '2024-09-27T00:00:00.000Z',
    });
  }, 180_000);
});
