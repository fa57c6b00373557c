// The integrator commands as a developer runs them: `node bin/credence.mjs ...` as a subprocess against one real
// server on a random port (its own config directory): strict flags, login, keys, score, proof verify, and
// `webhooks listen --forward-to` receiving a signed delivery after `credence trigger score.updated`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Wallet, encryptKeystoreJson } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually } from '../../test/helpers/app.js';
import { freePort } from '../../test/helpers/ports.js';
import type { App } from '../platform/http/types.js';
import { verifyWebhook } from '../../sdk/src/index.js';

const root = path.resolve(import.meta.dirname, '../..');
let app: App;
let baseUrl: string;
const configDir = mkdtempSync(path.join(tmpdir(), 'credence-cli-'));
const wallet = Wallet.createRandom();
const vitalik = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  app = await createTestApp({ config: { port, publicUrl: baseUrl, siweDomain: null } });
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(() => app.close());

const env = (extra: Record<string, string> = {}) => ({
  ...process.env,
  CREDENCE_CONFIG_DIR: configDir,
  CREDENCE_API_URL: baseUrl,
  CREDENCE_PRIVATE_KEY: '',
  CREDENCE_API_KEY: '',
  ...extra,
});

/** Runs the CLI to its end (asynchronously: the server answering it lives in this process). */
function run(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/credence.mjs', ...args], { cwd: root, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running command; `line(re)` resolves with the first stdout line matching re. */
function start(args: string[]) {
  const child = spawn(process.execPath, ['bin/credence.mjs', ...args], { cwd: root, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: { re: RegExp; resolve(l: string): void }[] = [];
  const exited = new Promise<number | null>((r) => child.on('exit', r));
  child.stderr.on('data', (c: Buffer) => (err += c));
  child.stdout.on('data', (c: Buffer) => {
    out += c;
    for (const w of [...waiters]) {
      const l = out.split('\n').find((x) => w.re.test(x));
      if (l) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(l);
      }
    }
  });
  const line = (re: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const found = out.split('\n').find((x) => re.test(x));
      if (found) return resolve(found);
      waiters.push({ re, resolve });
      void exited.then((code) => reject(new Error(`exited ${code} before printing ${re}\n${out}\n${err}`)));
    });
  return { child: child as ChildProcess, line, exited, output: () => ({ out, err }) };
}

const store = () =>
  JSON.parse(readFileSync(path.join(configDir, 'config.json'), 'utf8')) as {
    apiUrl: string;
    profiles: Record<
      string,
      { token?: string; apiKey?: string; apiKeyId?: string; apiKeyEnvironment?: string; keys?: Record<string, { apiKey: string }> }
    >;
  };

describe('strict flags and help', () => {
  it('an unknown flag or command exits 2 with the closest spelling', async () => {
    const [serve, cmd, sub, keyFlag, event] = await Promise.all([
      run(['serve', '--prot', '43099']),
      run(['scroe', vitalik]),
      run(['keys', 'crate']),
      run(['keys', 'create', '--tset']),
      run(['trigger', 'score.update']),
    ]);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('unknown flag --prot');
    expect(serve.stderr).toContain('did you mean --port?');
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toContain('did you mean score?');
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain('did you mean create?');
    expect(keyFlag.code).toBe(2);
    expect(keyFlag.stderr).toContain('did you mean --test?');
    expect(event.code).toBe(2);
    expect(event.stderr).toContain('did you mean score.updated?');
  });

  it('serve --port is the PORT setting, not ignored (a bad one is refused as PORT)', async () => {
    const r = await run(['serve', '--port', 'not-a-port']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid setting: PORT/);
  });

  it('--help lists the integrator commands, and a command --help its flags', async () => {
    const [top, listen] = await Promise.all([run(['--help']), run(['webhooks', 'listen', '--help'])]);
    expect(top.code).toBe(0);
    for (const c of ['serve', 'login', 'keys', 'score', 'proof', 'webhooks', 'trigger'])
      expect(top.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    expect(listen.code).toBe(0);
    expect(listen.stdout).toContain('--forward-to <url>');
    expect(listen.stdout).toContain('--api-key <key>');
  });
});

describe('login, keys, score, proof, webhooks', () => {
  it('logs in with a keystore, then with CREDENCE_PRIVATE_KEY; the session file is 0600', async () => {
    const keystore = path.join(configDir, 'wallet.json');
    writeFileSync(
      keystore,
      await encryptKeystoreJson({ address: wallet.address, privateKey: wallet.privateKey }, 'pw', { scrypt: { N: 1024 } }),
    );
    const bad = await run(['login', '--keystore', keystore], { CREDENCE_KEYSTORE_PASSWORD: 'wrong' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('cannot decrypt');
    const ks = await run(['login', '--keystore', keystore], { CREDENCE_KEYSTORE_PASSWORD: 'pw' });
    expect(ks.code, ks.stderr).toBe(0);
    expect(ks.stdout).toContain(`as ${wallet.address}`);
    const badKey = await run(['login', '--private-key', '0x1234']);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toContain('32 bytes of hex');
    const pk = await run(['login'], { CREDENCE_PRIVATE_KEY: wallet.privateKey });
    expect(pk.code, pk.stderr).toBe(0);
    expect(statSync(path.join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(store().profiles[baseUrl].token).toMatch(/^ey/);
    expect(store().apiUrl).toBe(baseUrl);
  });

  it('asks for the keystore password on a terminal, without echoing it (a real pseudo-terminal, through script(1))', async () => {
    const keystore = path.join(configDir, 'wallet.json');
    const e: NodeJS.ProcessEnv = env();
    delete e.CREDENCE_KEYSTORE_PASSWORD;
    const child = spawn(
      'script',
      ['-qec', `${JSON.stringify(process.execPath)} bin/credence.mjs login --keystore ${JSON.stringify(keystore)}`, '/dev/null'],
      {
        cwd: root,
        env: e,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let out = '';
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    let answered = false;
    child.stdout.on('data', (c: Buffer) => {
      out += c;
      if (!answered && out.includes('password for')) {
        answered = true;
        child.stdin.write('pw\r');
      }
    });
    expect(await exited, out).toBe(0);
    expect(out).toContain(`as ${wallet.address}`);
    // raw mode: what was typed is not shown
    expect(out.slice(out.indexOf('password for'))).not.toMatch(/\bpw\b/);
  });

  let testKeyId = '';
  it('keys create (test and live), list, rotate, revoke', async () => {
    const test = await run(['keys', 'create', '--test']);
    expect(test.code, test.stderr).toBe(0);
    const key = /cred_test_\w+/.exec(test.stdout)?.[0];
    expect(key).toBeDefined();
    expect(store().profiles[baseUrl].apiKey).toBe(key);
    testKeyId = store().profiles[baseUrl].apiKeyId!;

    const noEmail = await run(['keys', 'create']);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('--email');
    const live = await run(['keys', 'create', '--email', 'dev@example.com', '--org', 'Acme', '--no-save', '--json']);
    expect(live.code, live.stderr).toBe(0);
    const liveKey = JSON.parse(live.stdout) as { id: string; apiKey: string; environment: string };
    expect(liveKey).toMatchObject({ environment: 'live', apiKey: expect.stringMatching(/^cred_live_/) });
    expect(store().profiles[baseUrl].apiKey).toBe(key); // --no-save kept the test key in use

    // a live key created while the test key is in use is saved, but the test key stays in use, and it says so
    const second = await run(['keys', 'create', '--email', 'dev@example.com', '--org', 'Acme']);
    expect(second.code, second.stderr).toBe(0);
    const secondKey = /cred_live_\w+/.exec(second.stdout)![0];
    const prefixes = new Map(
      (JSON.parse((await run(['keys', 'list', '--json'])).stdout) as { id: string; keyPrefix: string }[]).map((k) => [k.id, k.keyPrefix]),
    );
    const testPrefix = prefixes.get(testKeyId)!;
    expect(second.stdout).toContain(`The key in use stays ${testPrefix} (test, ${testKeyId})`);
    const secondId = Object.entries(store().profiles[baseUrl].keys ?? {}).find(([, k]) => k.apiKey === secondKey)![0];
    expect(second.stdout).toContain(`credence keys use ${prefixes.get(secondId)}`);
    expect(store().profiles[baseUrl]).toMatchObject({ apiKey: key, apiKeyId: testKeyId });

    // keys use: by the prefix keys list shows, by id; a key whose secret this CLI never saw is explained
    const useLive = await run(['keys', 'use', `${prefixes.get(secondId)}…`]);
    expect(useLive.code, useLive.stderr).toBe(0);
    expect(useLive.stdout).toContain(`now using live key ${prefixes.get(secondId)} (${secondId})`);
    expect(store().profiles[baseUrl]).toMatchObject({ apiKey: secondKey, apiKeyId: secondId, apiKeyEnvironment: 'live' });
    const unknown = await run(['keys', 'use', liveKey.id]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`does not hold the secret of key ${prefixes.get(liveKey.id)}`);
    const byKey = await run(['keys', 'use', liveKey.apiKey]);
    expect(byKey.code, byKey.stderr).toBe(0);
    expect(store().profiles[baseUrl]).toMatchObject({ apiKey: liveKey.apiKey, apiKeyId: liveKey.id });
    const back = await run(['keys', 'use', testKeyId]);
    expect(back.code, back.stderr).toBe(0);
    expect(store().profiles[baseUrl]).toMatchObject({ apiKey: key, apiKeyId: testKeyId, apiKeyEnvironment: 'test' });

    // rotate and revoke take the prefix keys list shows
    const rotated = await run(['keys', 'rotate', testPrefix, '--grace-period', '0']);
    expect(rotated.code, rotated.stderr).toBe(0);
    const newKey = /cred_test_\w+/.exec(rotated.stdout)?.[0];
    expect(newKey).not.toBe(key);
    expect(store().profiles[baseUrl].apiKey).toBe(newKey);

    const revoked = await run(['keys', 'revoke', prefixes.get(liveKey.id)!]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await run(['keys', 'revoke', secondId])).code).toBe(0);
    const badId = await run(['keys', 'revoke', 'nope']);
    expect(badId.code).toBe(2);
    const noSuch = await run(['keys', 'rotate', 'cred_test_zzzz']);
    expect(noSuch.code).toBe(1);
    expect(noSuch.stderr).toContain('no key with prefix cred_test_zzzz');

    const list = await run(['keys', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const keys = JSON.parse(list.stdout) as { id: string; status: string; environment: string }[];
    expect(keys.find((k) => k.id === liveKey.id)?.status).toBe('revoked');
    expect(keys.find((k) => k.id === testKeyId)).toMatchObject({ status: 'active', environment: 'test' });
    const table = await run(['keys', 'list']);
    expect(table.stdout).toMatch(new RegExp(`${testKeyId}.*test.*active.*\\*`));
  });

  it('score: all categories, one category as JSON, a misspelt category', async () => {
    const all = await run(['score', vitalik]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^ {2}OVERALL +\d+ /m);
    expect(all.stdout).toContain('sandbox');
    const one = await run(['score', vitalik, '--category', 'defi-lending', '--json']);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ category: 'DEFI_LENDING', score: expect.any(Number) });
    const bad = await run(['score', vitalik, '--category', 'DEFI_LENDIN']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('did you mean DEFI_LENDING?');
    const noKey = await run(['score', vitalik, '--api-key', 'cred_live_nope']);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/unauthorized/);
  });

  it('proof verify: the ABI hex, a prove answer and snarkjs {proof, publicSignals} verify; a tampered proof does not', async () => {
    const starter = await createKey(app, 'Starter');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/prove',
      headers: starter.headers,
      payload: { subject: starter.owner.address, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 0 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { proof: string; snarkjs: { proof: unknown; publicSignals: string[] } };
    const dir = mkdtempSync(path.join(tmpdir(), 'credence-proof-'));
    const files = { hex: `${answer.proof}\n`, answer: JSON.stringify(answer), snarkjs: JSON.stringify(answer.snarkjs) };
    for (const [n, c] of Object.entries(files)) writeFileSync(path.join(dir, n), c);
    // one word of `c` changed: still well-formed, no longer a valid proof
    const w = 2 + 7 * 64;
    writeFileSync(
      path.join(dir, 'tampered'),
      `${answer.proof.slice(0, w)}${answer.proof[w] === '1' ? '2' : '1'}${answer.proof.slice(w + 1)}`,
    );
    writeFileSync(path.join(dir, 'junk'), '{"hello": 1}');
    writeFileSync(path.join(dir, 'keys.json'), (await app.inject({ method: 'GET', url: '/api/v1/proofs/verification-keys' })).body);
    const offline = ['--keys', path.join(dir, 'keys.json'), '--api-url', 'http://127.0.0.1:1'];
    // the first run fetches the verification keys and keeps them; the others read them from the config directory
    const hex = await run(['proof', 'verify', path.join(dir, 'hex')]);
    expect(hex.code, hex.stderr).toBe(0);
    expect(hex.stdout).toContain(`valid: ScoreAboveThreshold proof about ${starter.owner.address}`);
    const [ans, snark, tampered, junk] = await Promise.all([
      run(['proof', 'verify', path.join(dir, 'answer')]),
      ...['snarkjs', 'tampered', 'junk'].map((f) => run(['proof', 'verify', path.join(dir, f), ...offline])),
    ]);
    expect(ans.code, ans.stderr).toBe(0);
    expect(snark.code, snark.stderr).toBe(0);
    expect(snark.stdout).toContain('valid: ScoreAboveThreshold');
    expect(tampered.code).toBe(1);
    expect(tampered.stdout).toContain('INVALID');
    expect(junk.code).toBe(2);
  }, 120_000);

  it('webhooks listen --forward-to receives a signed score.updated after credence trigger, and removes its webhook on exit', async () => {
    const received: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString(), url: req.url ?? '' });
        res.writeHead(202).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const apiKey = store().profiles[baseUrl].apiKey!;
    // a live webhook on the same receiver: a test event must never reach it
    const liveKey = await createKey(app, 'Starter');
    const liveHook = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: liveKey.headers,
      payload: { url: `${target}?live` },
    });
    expect(liveHook.statusCode, liveHook.body).toBe(201);
    try {
      const listen = start(['webhooks', 'listen', '--forward-to', target]);
      const ready = await listen.line(/^Ready!/);
      const secret = /whsec_[A-Za-z0-9+/=]+/.exec(ready)![0];
      const webhookId = /webhook ([0-9a-f-]{36})/.exec(ready)![1];

      const trigger = await run(['trigger', 'score.updated', '--address', vitalik]);
      expect(trigger.code, trigger.stderr).toBe(0);
      expect(trigger.stdout).toContain('queued for 1 webhook or listener');

      const printed = await listen.line(/score\.updated/);
      expect(printed).toContain(`${vitalik} OVERALL`);
      expect(printed).toContain(`-> [202] POST ${target}`);
      expect(received).toHaveLength(1);
      const got = received[0];
      expect(got.url).toBe('/hooks');
      expect(verifyWebhook(got.body, got.headers as Record<string, string>, secret)).toMatchObject({
        valid: true,
        schemes: ['credence', 'standard-webhooks'],
      });
      expect(JSON.parse(got.body)).toMatchObject({ event: 'score.updated', data: { walletAddress: vitalik, category: 'OVERALL' } });

      // the acknowledged local status is the delivery's recorded outcome
      const headers = { 'x-api-key': apiKey };
      await eventually(async () => {
        const d = await app.inject({ method: 'GET', url: `/api/v1/webhooks/${webhookId}/deliveries`, headers });
        return d.json().deliveries?.[0]?.status === 'delivered' && d.json().deliveries[0].attempts[0].statusCode === 202;
      });
      const liveDeliveries = await app.inject({
        method: 'GET',
        url: `/api/v1/webhooks/${liveHook.json().id}/deliveries`,
        headers: liveKey.headers,
      });
      expect(liveDeliveries.json().count).toBe(0);

      // a live key cannot trigger
      const refused = await run(['trigger', 'score.updated', '--api-key', liveKey.apiKey]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('test keys');

      listen.child.kill('SIGINT');
      expect(await listen.exited).toBe(0);
      expect(listen.output().out).toContain(`stopped: the temporary webhook ${webhookId} was removed`);
      await eventually(async () => (await app.inject({ method: 'GET', url: `/api/v1/webhooks/${webhookId}`, headers })).statusCode === 404);
    } finally {
      receiver.close();
    }
  }, 60_000);
});
