// Coverage on every route that returns a score entry (single, profile, batch, webhook data), through HTTP:
// a default install (no chain source) answers status "none" with NO_CHAIN_SOURCE instead of "no activity found";
// with sources, the first read answers "partial" while a chain is still being read, and `score.updated` fires as
// each chain completes, carrying the coverage of that moment; each chain names the protocols read there.
import { afterAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { toJsonSchema } from '../../../test/helpers/openapi-check.js';
import { ajvFormats } from '../../platform/http/schemas.js';
import { startReceiver, type Receiver } from '../../../test/helpers/receiver.js';
import { simulateChain } from '../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../../../test/fakes/rpc-provider.js';
import type { App } from '../../platform/http/types.js';
import { EtlExport, SIGS } from '../../../test/helpers/etl-export.js';
import { importEthereumEtl } from '../ingestion/etl/import.js';
import { createIngestionRepo } from '../ingestion/index.js';

/** What the registry reads on each chain of this test: Ethereum (Aave, Spark, Morpho Blue, Compound V2 and V3, Uniswap
 *  V2 to V4, Balancer V2) and OP Mainnet (no Aave V2, Compound V2 or Spark there; Moonwell, a Compound V2 fork). */
const PROTOCOLS = {
  1: ['aave-v2', 'aave-v3', 'balancer-v2', 'compound-v2', 'compound-v3', 'morpho-blue', 'spark', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'],
  10: ['aave-v3', 'balancer-v2', 'compound-v3', 'moonwell', 'morpho-blue', 'uniswap-v2', 'uniswap-v3', 'uniswap-v4'],
};
const apps: App[] = [];
const providers: FakeProvider[] = [];
const receivers: Receiver[] = [];
afterAll(async () => {
  for (const p of providers) p.resume();
  for (const a of apps) await a.close();
  for (const p of providers) await p.close();
  for (const r of receivers) await r.close();
});

describe('a default install (no chain source)', () => {
  it('answers coverage status "none" with NO_CHAIN_SOURCE on single, profile and batch reads, never "no activity found"', async () => {
    const app = await createTestApp();
    apps.push(app);
    const key = await createKey(app, 'Starter');
    const addr = randomAddress();

    const profile = await app.inject({ method: 'GET', url: `/api/v1/reputation/${addr}?explain=true`, headers: key.headers });
    expect(profile.statusCode).toBe(200);
    const p = profile.json();
    expect(p.coverage).toMatchObject({ status: 'none', reason: 'NO_CHAIN_SOURCE', chains: [] });
    for (const e of p.scores) {
      expect(e.coverage).toMatchObject({ status: 'none', reason: 'NO_CHAIN_SOURCE' });
      expect(e.factors.map((f: { code: string }) => f.code)).toContain('NO_CHAIN_SOURCE');
      // it says how to get a source
      expect(e.factors.find((f: { code: string }) => f.code === 'NO_CHAIN_SOURCE').description).toMatch(
        /CREDENCE_RPC_URL_<chainId>.*npm run demo.*cred_test_/,
      );
      expect(JSON.stringify(e.factors)).not.toMatch(/no lending activity found|NO_LENDING_HISTORY/);
    }

    const single = await app.inject({ method: 'GET', url: `/api/v1/reputation/${addr}/DEFI_LENDING`, headers: key.headers });
    expect(single.statusCode).toBe(200);
    expect(single.json().coverage.status).toBe('none');
    expect(single.json().factors[0].code).toBe('NO_CHAIN_SOURCE');
    const bare = await app.inject({ method: 'GET', url: `/api/v1/reputation/${addr}/DEFI_LENDING?explain=false`, headers: key.headers });
    expect(bare.json().coverage).toMatchObject({ status: 'none', reason: 'NO_CHAIN_SOURCE' });

    const other = randomAddress();
    const batch = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: key.headers,
      payload: { addresses: [addr, other], category: 'DEFI_LENDING' },
    });
    expect(batch.statusCode).toBe(200);
    for (const r of batch.json().results) expect(r.coverage).toMatchObject({ status: 'none', reason: 'NO_CHAIN_SOURCE' });
  }, 60_000);

  it('documents coverage in the OpenAPI document (entries, profile, batch results)', async () => {
    const app = apps[0];
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const text = JSON.stringify(doc);
    expect(text).toContain('NO_CHAIN_SOURCE');
    const schemas = doc.components?.schemas ?? {};
    const found = Object.values(schemas).some((s) => (s as { title?: string }).title === 'Coverage') || text.includes('"title":"Coverage"');
    expect(found).toBe(true);
    // the score.updated delivery: described on POST /webhooks and declared as its callback, coverage included
    const hook = doc.paths['/api/v1/webhooks'].post;
    expect(hook.description).toContain('coverage');
    const event = hook.callbacks['score.updated']['{$request.body#/url}'].post.requestBody.content['application/json'].schema;
    expect(event.properties.data.properties.coverage.properties.status).toBeDefined();
    // and the results of asynchronous bulk scoring
    expect(doc.paths['/api/v1/reputation/batch-jobs/{id}/results'].get.description).toContain('coverage');
  });
});

describe('with chain sources', () => {
  it('the first read answers "partial" while a chain is read; score.updated fires as each chain completes, with its coverage', async () => {
    const wallet = randomAddress();
    const busy = simulateChain({ wallet, events: 300 });
    const quiet = simulateChain({ wallet, events: 0, chainId: 1 });
    const a = await startFakeProvider(busy, 'open');
    const b = await startFakeProvider(quiet, 'open');
    providers.push(a, b);
    // both chains answer nothing until the test says so: the first read answers from what is stored (nothing yet),
    // then chain 1 is let through while chain 10 is still held
    a.pause();
    b.pause();
    const rx = await startReceiver();
    receivers.push(rx);
    const app = await createTestApp({ config: { rpcUrls: { 1: a.url, 10: b.url }, webhookRetrySchedule: [0.05] } });
    apps.push(app);
    const key = await createKey(app, 'Starter');
    const hook = await app.inject({
      method: 'POST',
      url: '/api/v1/webhooks',
      headers: key.headers,
      payload: { url: rx.url, walletAddress: wallet },
    });
    expect(hook.statusCode).toBe(201);

    const first = await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}/DEFI_LENDING`, headers: key.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().coverage.status).toBe('partial');
    a.resume();

    // chain 1 completes while chain 10 is still held: a score.updated arrives whose coverage says so
    const early = await eventually(
      () =>
        rx.received
          .map((r) => JSON.parse(r.body))
          .find((b) => b.data.coverage?.chains.find((c: { chainId: number }) => c.chainId === 1)?.complete),
      { timeoutMs: 90_000 },
    );
    expect(early.data.coverage.status).toBe('partial');
    expect(early.data.coverage.chains.find((c: { chainId: number }) => c.chainId === 10).complete).toBe(false);

    b.resume();
    await eventually(
      async () => {
        const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}`, headers: key.headers });
        return res.json().coverage?.status === 'complete';
      },
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    const done = (await app.inject({ method: 'GET', url: `/api/v1/reputation/${wallet}`, headers: key.headers })).json();
    // each chain names the lending and trading protocols read there (the registry's, spelled as in data/registry)
    expect(done.coverage.chains).toEqual([
      { chainId: 1, syncedToBlock: busy.head - 64, finalizedBlock: busy.head - 64, complete: true, source: 'rpc', protocols: PROTOCOLS[1] },
      {
        chainId: 10,
        syncedToBlock: quiet.head - 64,
        finalizedBlock: quiet.head - 64,
        complete: true,
        source: 'rpc',
        protocols: PROTOCOLS[10],
      },
    ]);
    const batch = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: key.headers,
      payload: { addresses: [wallet], category: 'DEFI_LENDING' },
    });
    expect(batch.json().results[0].coverage.status).toBe('complete');

    // every delivered score.updated carries the coverage of its moment, in the shape the OpenAPI document declares
    // (the score.updated callback of POST /webhooks)
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const declared =
      doc.paths['/api/v1/webhooks'].post.callbacks['score.updated']['{$request.body#/url}'].post.requestBody.content['application/json']
        .schema;
    expect(declared.properties.data.properties.coverage).toBeDefined();
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats.default(ajv);
    for (const [n, v] of Object.entries(ajvFormats)) ajv.addFormat(n, { type: 'string', validate: v });
    const check = ajv.compile(toJsonSchema(declared) as object);
    // (a chain that completes without changing any score sends none: score.updated announces score changes; the
    // early one above is the change chain 1 made)
    const events = rx.received.map((r) => JSON.parse(r.body)).filter((b) => b.event === 'score.updated');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(check(e), JSON.stringify(check.errors)).toBe(true);
      expect(e.data.coverage, JSON.stringify(e.data)).toMatchObject({
        status: expect.stringMatching(/^(partial|complete)$/),
        reason: null,
      });
      expect(e.data.coverage.chains.map((c: { chainId: number; protocols: string[] }) => [c.chainId, c.protocols])).toEqual([
        [1, PROTOCOLS[1]],
        [10, PROTOCOLS[10]],
      ]);
    }

    // the asynchronous bulk scoring gives the same coverage as the synchronous batch
    const job = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: key.headers,
      payload: { addresses: [wallet], category: 'DEFI_LENDING' },
    });
    expect(job.statusCode, job.body).toBe(202);
    await eventually(
      async () =>
        (await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${job.json().id}`, headers: key.headers })).json().status ===
        'completed',
      {
        timeoutMs: 60_000,
        intervalMs: 200,
      },
    );
    const lines = await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${job.json().id}/results`, headers: key.headers });
    const line = JSON.parse(lines.body.trim());
    expect(line.coverage).toMatchObject({ status: 'complete', reason: null });
    expect(line.coverage.chains).toEqual(done.coverage.chains);
    const csv = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/batch-jobs/${job.json().id}/results?format=csv`,
      headers: key.headers,
    });
    expect(csv.body.trim().split('\n')[1].split(',')[7]).toBe('complete');
  }, 180_000);
});

describe('a wallet that used protocols that are not read', () => {
  // data/registry/unread.json: Euler's K3 Prime vault (euler-xyz/euler-labels 1/products.json) and Curve's Router NG
  // (curvefi/curve-router-ng README); Ethereum's USDC
  const EULER_VAULT = '0xd8b27cf359b7d15710a5be299af6e7bf904984c2';
  const CURVE_ROUTER = '0x45312ea0eff7e09c83cbe249fa1d7598c4c8cd4e';
  const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';

  it("names them in the factors of the categories they belong to, in place of 'no lending history' (HTTP, the cached read too)", async () => {
    const used = randomAddress();
    const plain = randomAddress();
    const chain = await startFakeProvider(simulateChain({ wallet: used, events: 0, chainId: 1 }), 'open');
    providers.push(chain);
    const app = await createTestApp({ config: { rpcUrls: { 1: chain.url } } });
    apps.push(app);
    // the ethereum-etl import: a supply to the Euler vault and a swap through Curve's router; the plain wallet only
    // sends USDC to another wallet
    const x = new EtlExport(19_000_000);
    const at = new Date(Date.UTC(2025, 5, 1));
    const transfer = (from: string, to: string, value: bigint) => ({ address: USDC, event: SIGS.transfer, args: { from, to, value } });
    x.tx({ from: used, to: EULER_VAULT, at, logs: [transfer(used, EULER_VAULT, 5_000_000_000n)] });
    x.tx({ from: used, to: CURVE_ROUTER, at, logs: [transfer(used, CURVE_ROUTER, 1_000_000_000n)] });
    x.tx({ from: plain, to: USDC, at, logs: [transfer(plain, randomAddress(), 1_000_000_000n)] });
    await importEthereumEtl({ db: app.ctx.db, repo: createIngestionRepo(app.ctx.db) }, x.write('credence-etl-unread-factors-'), {
      chainId: 1,
    });
    const key = await createKey(app, 'Starter');
    type Entry = { category: string; factors: { code: string; description: string; impact: number }[]; coverage: { reason: string } };
    const read = async (w: string) =>
      eventually(
        async () => {
          const r = await app.inject({ method: 'GET', url: `/api/v1/reputation/${w}?explain=true`, headers: key.headers });
          const body = r.json() as { coverage: { chains: { complete: boolean }[] }; scores: Entry[] };
          return body.coverage.chains.every((c) => c.complete) ? body : null;
        },
        { timeoutMs: 60_000, intervalMs: 100 },
      );
    const scores = (await read(used)).scores;
    const of = (category: string) => scores.find((e) => e.category === category)!;
    const unread = (category: string) => of(category).factors.find((f) => f.code === 'UNREAD_PROTOCOL');
    expect(of('DEFI_LENDING').coverage.reason).toBe('UNREAD_PROTOCOL:curve,euler');
    // lending names the lender (not the DEX), in place of "no lending history": none found on what is read is not "never borrowed"
    expect(unread('DEFI_LENDING')).toMatchObject({ impact: 0 });
    expect(unread('DEFI_LENDING')!.description).toMatch(
      /none found on the lending protocols read, but tokens moved between this wallet and euler /,
    );
    expect(unread('DEFI_LENDING')!.description).not.toContain('curve');
    expect(of('DEFI_LENDING').factors.map((f) => f.code)).not.toContain('NO_LENDING_HISTORY');
    // trading names the DEX
    expect(unread('DEFI_TRADING')!.description).toMatch(/this wallet and curve \(trading protocol not read\)/);
    expect(of('DEFI_TRADING').factors.map((f) => f.code)).not.toContain('NO_TRADING_HISTORY');
    // the overall score names both; categories they do not belong to, neither
    expect(unread('OVERALL')!.description).toContain('curve, euler');
    for (const c of ['GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER', 'COMPLIANCE']) expect(unread(c), c).toBeUndefined();
    for (const e of scores) expect(e.factors.length, e.category).toBeLessThanOrEqual(6);

    // the same over a real socket, where a cached single-category read is answered before Fastify's router
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/v1/reputation/${used}/DEFI_LENDING`;
    for (let i = 0; i < 2; i++) {
      const r = await fetch(url, { headers: key.headers });
      expect(r.status).toBe(200);
      const codes = ((await r.json()) as Entry).factors.map((f) => f.code);
      expect(codes).toContain('UNREAD_PROTOCOL');
      expect(codes).not.toContain('NO_LENDING_HISTORY');
    }

    // a wallet that used none of them keeps "no lending history", and no such factor
    const other = (await read(plain)).scores.find((e) => e.category === 'DEFI_LENDING')!;
    expect(other.coverage.reason).toBeNull();
    expect(other.factors.map((f) => f.code)).toContain('NO_LENDING_HISTORY');
    expect(other.factors.map((f) => f.code)).not.toContain('UNREAD_PROTOCOL');
  }, 120_000);
});
