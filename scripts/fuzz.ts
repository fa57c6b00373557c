// Schema-driven fuzzing of every operation in the OpenAPI document. For each request it picks an
// operation, builds path, query, headers and body from the operation's schemas with a seeded generator, then
// breaks some of it: NUL bytes, lone surrogates, huge and fractional numbers, wrong types, long strings, bad
// percent-encoding in paths, missing / garbage / valid credentials. A failure is a 500, or an error answered
// outside the documented {error, details} JSON body.
//   node --import tsx scripts/fuzz.ts [--requests 10000] [--seed 1]
// CI runs a smaller budget through test/fuzz.test.ts. Only 127.0.0.1 is ever addressed (webhook and callback
// URLs the fuzzer writes point there), and the app runs without workers, so nothing leaves the process.
import { pathToFileURL } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import type { App } from '../src/platform/http/types.js';
import { enc, generator, HOSTILE_SEGMENTS, HOSTILE_STRINGS, resolver, rng, type Json } from './fuzz-generator.js';

interface Operation {
  method: string;
  path: string;
  op: Json;
}

export interface FuzzResult {
  requests: number;
  byStatus: Record<number, number>;
  failures: { request: string; status: number; body: string }[];
  operations: number;
}

/** Fuzzes `app` (ready, no listening needed): `requests` requests, deterministic for a seed. */
export async function runFuzz(
  app: App,
  opts: { requests: number; seed: number; credentials: Credentials; progress?: (n: number) => void },
): Promise<FuzzResult> {
  const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json() as Json;
  const deref = resolver(doc);
  const r = rng(opts.seed);
  const { gen, mutate } = generator(deref, r);
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<Json>(doc.paths)) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) if (item[m]) ops.push({ method: m.toUpperCase(), path: p, op: item[m] });
  }
  const result: FuzzResult = { requests: 0, byStatus: {}, failures: [], operations: ops.length };
  for (let i = 0; i < opts.requests; i++) {
    const { method, path: template, op } = ops[i % ops.length];
    const hostile = r.chance(0.7);
    const params: Json[] = (op.parameters ?? []).map((p: Json) => deref(p));
    let url = template.replace(/\{(\w+)\}/g, (_m, name) => {
      const p = params.find((x) => x.in === 'path' && x.name === name);
      if (hostile && r.chance(0.3)) return r.pick(HOSTILE_SEGMENTS);
      return enc(String(gen(p?.schema)));
    });
    const query: string[] = [];
    for (const p of params.filter((x) => x.in === 'query')) {
      if (!p.required && r.chance(0.5)) continue;
      let v: unknown = gen(p.schema);
      if (hostile && r.chance(0.3)) v = r.pick(HOSTILE_STRINGS);
      query.push(`${enc(p.name)}=${r.chance(0.05) ? r.pick(HOSTILE_SEGMENTS) : enc(String(v))}`);
    }
    if (hostile && r.chance(0.1)) query.push(`${r.pick(['a', 'x%00', '%ZZ', 'status'])}=${r.pick(HOSTILE_SEGMENTS)}`);
    if (query.length) url += `?${query.join('&')}`;
    const headers: Record<string, string> = {};
    const security: Json[] = op.security ?? [];
    const wantsKey = security.some((s) => 'ApiKey' in s);
    const wantsJwt = security.some((s) => 'Bearer' in s);
    const auth = r.next();
    if (auth < 0.7) {
      if (wantsKey) headers['x-api-key'] = opts.credentials.apiKey;
      if (wantsJwt) headers.authorization = `Bearer ${r.chance(0.5) ? opts.credentials.adminJwt : opts.credentials.userJwt}`;
    } else if (auth < 0.85) {
      headers['x-api-key'] = r.pick(['cred_live_' + 'A'.repeat(40), 'garbage', 'cred_live_\u00e9']);
      headers.authorization = r.pick(['Bearer x.y.z', 'Basic abc', 'Bearer ']);
    }
    for (const p of params.filter((x) => x.in === 'header'))
      if (r.chance(0.3)) headers[p.name] = hostile && r.chance(0.3) ? r.pick(['', ' ', 'x'.repeat(400), '\u00e9']) : String(gen(p.schema));
    // a server-sent event stream (POST /webhooks/listen) never ends: its validation is fuzzed, the stream never opened
    if (deref(op.responses?.['200'])?.content?.['text/event-stream']) delete headers.accept;
    let payload: string | undefined;
    const content = deref(op.requestBody)?.content as Json | undefined;
    const bodySchema = content?.['application/json']?.schema;
    if (method !== 'GET' && method !== 'DELETE') {
      const roll = r.next();
      if (bodySchema || roll < 0.3) {
        let body: unknown = gen(bodySchema);
        if (hostile) body = mutate(body);
        payload = JSON.stringify(body);
        headers['content-type'] = 'application/json';
        if (hostile && r.chance(0.08))
          payload = r.pick(['{', '{"a":', '[1,2', '"\\ud800"', '{"a":"\\u0000"}', 'null', '', '{"a":1e999999}']);
        if (hostile && r.chance(0.05))
          headers['content-type'] = r.pick([
            'text/plain',
            'application/xml',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
          ]);
      }
    }
    const desc = `${method} ${url.slice(0, 300)} ${payload ? payload.slice(0, 300) : ''}`;
    let res;
    try {
      res = await app.inject({ method: method as 'GET', url, headers, payload });
    } catch (e) {
      result.failures.push({ request: desc, status: -1, body: String((e as Error).message) });
      continue;
    }
    result.requests++;
    result.byStatus[res.statusCode] = (result.byStatus[res.statusCode] ?? 0) + 1;
    const problem = checkResponse(res.statusCode, String(res.headers['content-type'] ?? ''), res.body);
    if (problem) result.failures.push({ request: desc, status: res.statusCode, body: `${problem}: ${res.body.slice(0, 300)}` });
    opts.progress?.(i + 1);
  }
  return result;
}

/** null when the answer is acceptable: never 500, every error the documented JSON body. */
export function checkResponse(status: number, contentType: string, body: string): string | null {
  if (status >= 500 && status !== 502 && status !== 503) return 'server error';
  if (status < 400) return null;
  if (!/[/+]json\b/.test(contentType)) return `error with content type ${contentType || '(none)'}`;
  try {
    const b = JSON.parse(body);
    if (typeof b?.error !== 'string' || typeof b?.details !== 'string') return 'error body without {error, details}';
    if (b.fields !== undefined && !Array.isArray(b.fields)) return 'fields is not an array';
  } catch {
    return 'error body is not JSON';
  }
  return null;
}

export interface Credentials {
  apiKey: string;
  userJwt: string;
  adminJwt: string;
}

/** Signs in two wallets (one of them an admin of `app`) and makes an Enterprise key, as a client would. */
export async function fuzzCredentials(app: App, admin: Wallet): Promise<Credentials> {
  const { siweDomainsOf } = await import('../src/modules/auth/service.js');
  const domain = siweDomainsOf(app.ctx.config)[0];
  const signIn = async (w: Wallet) => {
    const { nonce } = (await app.inject({ method: 'GET', url: '/api/v1/auth/nonce' })).json();
    const message = new SiweMessage({
      domain,
      address: w.address,
      uri: `https://${domain}`,
      version: '1',
      chainId: app.ctx.config.siweChainIds[0],
      nonce,
      issuedAt: new Date().toISOString(),
    }).prepareMessage();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/auth/verify',
      payload: { message, signature: await w.signMessage(message) },
    });
    if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.body}`);
    return res.json().token as string;
  };
  const adminJwt = await signIn(admin);
  const userJwt = await signIn(new Wallet(Wallet.createRandom().privateKey));
  const key = await app.inject({
    method: 'POST',
    url: '/api/v1/billing/api-keys',
    headers: { authorization: `Bearer ${adminJwt}` },
    payload: { organizationName: 'Fuzz', contactEmail: 'fuzz@example.com', tier: 'Enterprise' },
  });
  if (key.statusCode !== 201) throw new Error(`key creation failed: ${key.body}`);
  return { apiKey: key.json().apiKey, userJwt, adminJwt };
}

/** Settings for a fuzzed app: in-memory database, API role only (no deliveries), limits out of the way. */
export function fuzzSettings(admin: Wallet): Record<string, string> {
  return {
    DATABASE_URL: 'pglite://memory',
    CREDENCE_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'credence-fuzz-')),
    CREDENCE_ROLES: 'api',
    LOG_LEVEL: 'silent',
    CREDENCE_IP_RATE_LIMIT: '1000000',
    CREDENCE_CLAIMS_PER_IP_PER_MINUTE: '1000000',
    CREDENCE_CLAIMS_PER_CREDITOR_PER_MINUTE: '1000000',
    CREDENCE_ADMIN_ADDRESSES: admin.address,
    CREDENCE_INGEST_ON_READ: 'false',
    CREDENCE_PROVER_WARMUP: 'false',
    CREDENCE_WEBHOOK_ALLOW_PRIVATE: 'true',
  };
}

async function main() {
  const args = process.argv.slice(2);
  const arg = (name: string, def: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : def;
  };
  const requests = arg('requests', 10_000);
  const seed = arg('seed', 1);
  const { loadConfig } = await import('../src/platform/config.js');
  const { buildApp } = await import('../src/app.js');
  const admin = new Wallet(Wallet.createRandom().privateKey);
  const app = await buildApp(loadConfig(fuzzSettings(admin)), { logger: false, secrets: {} });
  await app.ready();
  const started = Date.now();
  const result = await runFuzz(app, {
    requests,
    seed,
    credentials: await fuzzCredentials(app, admin),
    progress: (n) => {
      if (n % 1000 === 0) process.stderr.write(`${n} requests, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    },
  });
  await app.close();
  console.log(
    `operations: ${result.operations}, requests: ${result.requests} (seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(
    `statuses: ${Object.entries(result.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(`failures (500s or errors outside {error, details}): ${result.failures.length}`);
  for (const f of result.failures.slice(0, 50)) console.log(`  ${f.status} ${f.request}\n      -> ${f.body}`);
  const snarkjs = await import('snarkjs').catch(() => null);
  await (await (snarkjs as Json | null)?.curves?.getCurveFromName?.('bn128'))?.terminate?.();
  process.exit(result.failures.length ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(e);
    process.exit(2);
  });
}
