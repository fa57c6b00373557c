// The SDK against the running app: its generated types match the live document, the natural first calls run
// through openapi-fetch over a real socket, webhook signatures and proofs check offline, and the package
// type-checks under --strict, builds and packs; the packed tarball, installed in a scratch project, runs the
// examples it ships against the app as an integrator runs them.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Wallet } from 'ethers';
import { createKey, createTestApp } from '../helpers/app.js';
import type { App } from '../../src/platform/http/types.js';
import { signedHeaders } from '../../src/modules/webhooks/signing.js';
import { generateOperations, generateTypes } from '../../sdk/scripts/generate.js';
import {
  createCredenceClient,
  verifyProofOffline,
  verifyWebhook,
  unwrap,
  AuthenticationError,
  WebhookSignatureError,
  EVENT_TYPES,
  type ScoreUpdatedEvent,
} from '../../sdk/src/index.js';
import { firstCalls } from '../../sdk/examples/first-calls.js';

const sdkDir = path.resolve(import.meta.dirname, '../../sdk');
const scratch = mkdtempSync(path.join(tmpdir(), 'credence-sdk-'));
let tarball: string | null = null;
let app: App;
let baseUrl: string;
beforeAll(async () => {
  app = await createTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await app.close();
  const snarkjs = (await import('snarkjs')) as unknown as {
    curves: { getCurveFromName(n: string): Promise<{ terminate(): Promise<void> }> };
  };
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

describe('@credence/sdk', () => {
  it('is generated from the live document (run `npm run sdk:generate` when this fails)', async () => {
    const live = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    expect(live).toEqual(JSON.parse(readFileSync(path.join(sdkDir, 'openapi.json'), 'utf8')));
    expect(await generateTypes(live)).toBe(readFileSync(path.join(sdkDir, 'src/schema.ts'), 'utf8'));
    expect(generateOperations(live)).toBe(readFileSync(path.join(sdkDir, 'src/operations.ts'), 'utf8'));
  });

  it('runs the natural first calls through openapi-fetch: nonce, sign-in, key, score without options, batch, usage', async () => {
    const out = await firstCalls(baseUrl, app.ctx.config.siweDomain!);
    expect(out.apiKey).toMatch(/^cred_live_/);
    expect(out.entry.category).toBe('DEFI_LENDING');
    expect(out.entry.factors).toBeDefined(); // explain defaults to true on this route
    expect(out.batch.count).toBe(2);
    expect(out.usage.queriesThisMonth).toBe(3);
    expect(out.rateLimitRemaining).toMatch(/^\d+$/);
  });

  it('surfaces typed errors', async () => {
    const credence = createCredenceClient({ baseUrl, apiKey: 'cred_live_not_a_key' });
    const res = await credence.GET('/api/v1/billing/usage');
    expect(res.data).toBeUndefined();
    expect(res.response.status).toBe(401);
    expect(res.error?.error).toBe('unauthorized');
    // the same answer as a class, with code, details, status and request id
    const thrown = await unwrap(credence.GET('/api/v1/billing/usage')).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(AuthenticationError);
    expect(thrown).toMatchObject({ code: 'unauthorized', status: 401, requestId: expect.any(String), fields: [] });
  });

  it('constructEvent verifies a delivery and returns the typed event; every event in the document has a type', async () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({
      event: 'score.updated',
      timestamp: new Date().toISOString(),
      data: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', newScore: 640 },
    });
    const headers = signedHeaders(secret, 'msg_1', body);
    const credence = createCredenceClient({ baseUrl });
    const event = credence.webhooks.constructEvent(body, headers, secret);
    expect(event.event).toBe('score.updated');
    if (event.event === 'score.updated') expect((event as ScoreUpdatedEvent).data.newScore).toBe(640);
    expect(() => credence.webhooks.constructEvent(body.replace('640', '990'), headers, secret)).toThrow(WebhookSignatureError);
    expect(() => credence.webhooks.constructEvent(Buffer.from(body), new Headers(headers as Record<string, string>), secret)).not.toThrow();
    const live = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const documented = Object.values<Record<string, unknown>>(live.paths).flatMap((item) =>
      Object.values<{ callbacks?: object }>(item as never).flatMap((op) => Object.keys(op.callbacks ?? {})),
    );
    expect(documented.length).toBeGreaterThan(0);
    for (const name of documented) expect(EVENT_TYPES).toContain(name);
  });

  it('checks both webhook signature schemes, and refuses a tampered body or a stale timestamp', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({
      event: 'score.updated',
      timestamp: new Date().toISOString(),
      data: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', newScore: 640 },
    });
    const headers = signedHeaders(secret, 'msg_1', body);
    expect(verifyWebhook(body, headers, secret)).toEqual({ valid: true, schemes: ['credence', 'standard-webhooks'] });
    expect(verifyWebhook(body.replace('640', '990'), headers, secret).valid).toBe(false);
    expect(verifyWebhook(body, headers, 'whsec_other').valid).toBe(false);
    const old = signedHeaders(secret, 'msg_2', body, new Date(Date.now() - 3600_000));
    expect(verifyWebhook(body, old, secret)).toMatchObject({ valid: false, reason: expect.stringContaining('timestamp') });
    expect(verifyWebhook(body, { 'x-credence-signature': headers['x-credence-signature'] }, secret)).toEqual({
      valid: true,
      schemes: ['credence'],
    });
  });

  it('verifies a proof offline with the published verification keys', async () => {
    const key = await createKey(app, 'Starter');
    const credence = createCredenceClient({ baseUrl, apiKey: key.apiKey });
    const subject = Wallet.createRandom().address;
    const proved = await credence.POST('/api/v1/reputation/prove', {
      body: { subject, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 0 },
    });
    expect(proved.error, JSON.stringify(proved.error)).toBeUndefined();
    const keys = await credence.GET('/api/v1/proofs/verification-keys');
    expect(keys.data).toBeDefined();
    const offline = await verifyProofOffline(proved.data!.proof, keys.data!);
    expect(offline).toMatchObject({ valid: true, proofType: 'ScoreAboveThreshold', subject });
    // the snarkjs-native form beside the hex: stock snarkjs verifies it as it is, and so does the SDK
    const snarkjs = (await import('snarkjs')) as unknown as {
      groth16: { verify(vk: unknown, pub: string[], proof: unknown): Promise<boolean> };
    };
    const vk = keys.data!.circuits.find((c) => c.proofTypes.includes('ScoreAboveThreshold'))!.verificationKey;
    expect(await snarkjs.groth16.verify(vk, proved.data!.snarkjs.publicSignals, proved.data!.snarkjs.proof)).toBe(true);
    expect(await verifyProofOffline({ ...proved.data!.snarkjs, proofType: 'ScoreAboveThreshold' }, keys.data!)).toMatchObject({
      valid: true,
      subject,
    });
    // one flipped digit in the proof's `a` point: refused offline as by the service
    const p = proved.data!.proof;
    const at = 2 + 64 + 10;
    const tampered = p.slice(0, at) + (p[at] === '0' ? '1' : '0') + p.slice(at + 1);
    expect((await verifyProofOffline(tampered, keys.data!)).valid).toBe(false);
    expect(await verifyProofOffline(p, keys.data!, { now: (offline.validUntil! + 1) * 1000 })).toMatchObject({
      valid: false,
      reason: expect.stringContaining('expired'),
    });
  }, 180_000); // the prover's first proof on a loaded machine

  it('type-checks the examples under tsc --strict --exactOptionalPropertyTypes, builds, and packs', () => {
    const tsc = (project: string) =>
      spawnSync(process.execPath, [path.resolve(sdkDir, '../node_modules/typescript/bin/tsc'), '-p', project], {
        cwd: sdkDir,
        encoding: 'utf8',
      });
    const check = tsc('tsconfig.examples.json');
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const build = tsc('tsconfig.json');
    expect(build.status, build.stdout + build.stderr).toBe(0);
    const pack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch], { cwd: sdkDir, encoding: 'utf8' });
    expect(pack.status, pack.stderr).toBe(0);
    const [info] = JSON.parse(pack.stdout);
    expect(info.name).toBe('@credence/sdk');
    const files = info.files.map((f: { path: string }) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/schema.d.ts',
        'dist/webhooks.js',
        'dist/events.d.ts',
        'package.json',
        'README.md',
      ]),
    );
    expect(files).toEqual(
      expect.arrayContaining(['examples/read-scores.mjs', 'examples/list-webhooks.mjs', 'examples/webhook-receiver.mjs']),
    );
    // the 1 MB OpenAPI document is read by nothing the package runs (the types are compiled in): not shipped;
    // nor the repository's TypeScript examples, which import the sources
    expect(files.filter((f: string) => f.endsWith('openapi.json') || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual([]);
    for (const f of files.filter((x: string) => x.endsWith('.js')))
      expect(readFileSync(path.join(sdkDir, f), 'utf8'), f).not.toMatch(/openapi\.json/);
    // nothing the package ships needs ethers or siwe (viem users install neither)
    for (const f of files.filter((x: string) => x.endsWith('.js')))
      expect(readFileSync(path.join(sdkDir, f), 'utf8'), f).not.toMatch(/from ['"](ethers|siwe)['"]/);
    expect(Object.keys(JSON.parse(readFileSync(path.join(sdkDir, 'package.json'), 'utf8')).dependencies)).toEqual(['openapi-fetch']);
    tarball = path.join(scratch, info.filename);
    expect(info.size, 'packed size').toBeLessThan(250_000);
  }, 240_000);

  it('from its packed tarball in a scratch project: its README shows unwrap, paginate, constructEvent and the error classes, and the examples it ships run against the app', async () => {
    expect(tarball, 'the packing test ran first').toBeTruthy();
    // installed as npm would: the tarball unpacked under node_modules, its one dependency beside it (no network)
    const app1 = path.join(scratch, 'app');
    const installed = path.join(app1, 'node_modules/@credence/sdk');
    mkdirSync(installed, { recursive: true });
    const untar = spawnSync('tar', ['-xzf', tarball!, '-C', installed, '--strip-components=1'], { encoding: 'utf8' });
    expect(untar.status, untar.stderr).toBe(0);
    symlinkSync(path.resolve(sdkDir, '../node_modules/openapi-fetch'), path.join(app1, 'node_modules/openapi-fetch'));
    const pkg = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    expect(pkg.repository, 'no placeholder repository URL').toBeUndefined();
    expect(JSON.stringify(pkg)).not.toMatch(/github\.com\/credence\/credence/);
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'examples', 'package.json']);
    const readme = readFileSync(path.join(installed, 'README.md'), 'utf8');
    for (const name of [
      'unwrap(',
      'paginate(',
      'constructEvent(',
      'ValidationError',
      'AuthenticationError',
      'PermissionError',
      'RateLimitError',
      'TimeoutError',
      'ConnectionError',
      'WebhookSignatureError',
      'examples/',
    ])
      expect(readme, name).toContain(name);
    for (const f of readdirSync(path.join(installed, 'examples'))) expect(readme, f).toContain(f);

    const key = await createKey(app, 'Starter');
    const hook = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: key.headers,
      payload: { url: 'http://127.0.0.1:9/hooks' },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const env = { ...process.env, CREDENCE_API_URL: baseUrl, CREDENCE_API_KEY: key.apiKey };
    // asynchronously: the server answering them lives in this process
    const node = (file: string, args: string[] = [], extra: Record<string, string> = {}) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(installed, 'examples', file), ...args], {
          cwd: app1,
          env: { ...env, ...extra },
          timeout: 60_000,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c));
        child.stderr.on('data', (c: Buffer) => (stderr += c));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });

    const scores = await node('read-scores.mjs', ['0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045']);
    expect(scores.status, scores.stderr).toBe(0);
    const read = JSON.parse(scores.stdout);
    expect(read.scores).toHaveLength(9);
    expect(read.usage.queriesThisMonth).toBeGreaterThan(0);
    // an error arrives as its class, with the service's words
    const bad = await node('read-scores.mjs', ['0xnot-an-address']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^bad input: .*address/);
    const noKey = await node('read-scores.mjs', [], { CREDENCE_API_KEY: 'cred_live_not_a_key' });
    expect(noKey.stderr).toMatch(/^check CREDENCE_API_KEY: /);

    const hooks = await node('list-webhooks.mjs');
    expect(hooks.status, hooks.stderr).toBe(0);
    expect(JSON.parse(hooks.stdout)).toEqual({
      count: 1,
      webhooks: [{ id: hook.json().id, url: 'http://127.0.0.1:9/hooks', isActive: true }],
    });

    // the receiver: a signed delivery is printed and answered 200, a tampered one 400
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const receiver = spawn(process.execPath, [path.join(installed, 'examples/webhook-receiver.mjs')], {
      cwd: app1,
      env: { ...env, CREDENCE_WEBHOOK_SECRET: secret, PORT: '0' },
    });
    try {
      let out = '';
      let err = '';
      receiver.stdout.on('data', (c: Buffer) => (out += c));
      receiver.stderr.on('data', (c: Buffer) => (err += c));
      const deadline = Date.now() + 30_000;
      while (!/listening on (\S+)/.test(err)) {
        if (Date.now() > deadline || receiver.exitCode !== null) throw new Error(`the receiver did not start: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const url = err.match(/listening on (\S+)/)![1];
      const body = JSON.stringify({
        event: 'score.updated',
        timestamp: new Date().toISOString(),
        data: { walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', newScore: 640 },
      });
      const ok = await fetch(url, { method: 'POST', headers: signedHeaders(secret, 'msg_1', body), body });
      expect(ok.status).toBe(200);
      const tampered = await fetch(url, {
        method: 'POST',
        headers: signedHeaders(secret, 'msg_2', body),
        body: body.replace('640', '990'),
      });
      expect(tampered.status).toBe(400);
      // its output arrives on its own pipes, after the answers
      await expect.poll(() => err, { timeout: 10_000 }).toContain('refused a delivery');
      await expect.poll(() => out.trim(), { timeout: 10_000 }).not.toBe('');
      expect(JSON.parse(out.trim())).toEqual({
        event: 'score.updated',
        data: { walletAddress: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', newScore: 640 },
      });
    } finally {
      receiver.kill();
    }
  }, 120_000);
});
