// ENS names wherever a wallet goes, resolved over CREDENCE_RPC_URL_1. The in-process Hardhat chain plays mainnet:
// a minimal ENS registry (contracts/mocks/ENS.sol) is copied to the canonical registry address with hardhat_setCode,
// its records are built with ordinary calls (root -> eth -> vitalik.eth, a resolver, an addr record), and the app
// resolves through ethers' EnsResolver exactly as it would against mainnet.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Interface, getAddress, id, namehash, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, randomAddress, type TestKey } from '../../test/helpers/app.js';
import { startLocalChain, type LocalChain } from '../../test/helpers/local-chain.js';
import type { App } from './http/types.js';
import { ENS_REGISTRY, createEnsResolver } from './ens.js';

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../contracts/mocks/artifacts');
const artifact = (name: string) =>
  JSON.parse(readFileSync(path.join(ARTIFACTS, `${name}.json`), 'utf8')) as { abi: never[]; bytecode: string };
const registryAbi = new Interface(artifact('MockENSRegistry').abi);
const resolverAbi = new Interface(artifact('MockENSResolver').abi);

let chain: LocalChain;
let app: App;
let noRpcApp: App;
let key: TestKey;
let noRpcKey: TestKey;
let from: string;
let resolverAddress: string;
/** What vitalik.eth resolves to on the local chain (a fresh wallet, lowercase). */
const vitalik = randomAddress();
const other = randomAddress();

async function send(to: string | null, data: string): Promise<{ contractAddress: string | null }> {
  const hash = (await chain.request('eth_sendTransaction', [{ from, ...(to ? { to } : {}), data }])) as string;
  const receipt = (await chain.request('eth_getTransactionReceipt', [hash])) as { status: string; contractAddress: string | null };
  if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
  return receipt;
}
const setAddr = (name: string, address: string) =>
  send(resolverAddress, resolverAbi.encodeFunctionData('setAddr', [namehash(name), address]));

/** The registry at its mainnet address: deployed anywhere, its runtime code copied over, records set by calls. */
async function deployEns() {
  const { contractAddress: deployed } = await send(null, artifact('MockENSRegistry').bytecode);
  const code = await chain.request('eth_getCode', [deployed, 'latest']);
  await chain.request('hardhat_setCode', [ENS_REGISTRY, code]);
  resolverAddress = (await send(null, artifact('MockENSResolver').bytecode)).contractAddress!;
  const registry = (fn: string, args: unknown[]) => send(ENS_REGISTRY, registryAbi.encodeFunctionData(fn, args));
  await registry('setSubnodeOwner', [ZeroHash, id('eth'), from]);
  for (const label of ['vitalik', 'other', 'ghost', 'later']) {
    await registry('setSubnodeOwner', [namehash('eth'), id(label), from]);
    await registry('setResolver', [namehash(`${label}.eth`), resolverAddress]);
  }
  await setAddr('vitalik.eth', vitalik);
  await setAddr('other.eth', other);
  // ghost.eth has a resolver but no address record; nobody-here.eth has no record at all
}

beforeAll(async () => {
  // chain id 1: the app treats the URL as mainnet (CREDENCE_RPC_URL_1); its resolver pins chain 1 without asking
  chain = await startLocalChain({ accounts: 2 });
  from = chain.accounts[0];
  await deployEns();
  app = await createTestApp({ config: { rpcUrls: { 1: chain.url } } });
  key = await createKey(app, 'Growth');
  noRpcApp = await createTestApp();
  noRpcKey = await createKey(noRpcApp, 'Growth');
}, 120_000);
afterAll(async () => {
  await app?.close();
  await noRpcApp?.close();
  await chain?.stop();
});

const get = (url: string, a: App = app, k: TestKey = key) => a.inject({ method: 'GET', url: `/api/v1${url}`, headers: k.headers });

describe('CCIP-read (EIP-3668) is off: a resolver cannot make the server fetch a URL', () => {
  it('a name whose resolver answers OffchainLookup(url) does not resolve, and the url is never requested', async () => {
    let requests = 0;
    const gateway = http.createServer((_req, res) => {
      requests++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":"0x"}');
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/{sender}/{data}.json`;
      const offchain = (await send(null, artifact('MockOffchainResolver').bytecode)).contractAddress!;
      await send(offchain, new Interface(artifact('MockOffchainResolver').abi).encodeFunctionData('setUrl', [url]));
      const registry = (fn: string, args: unknown[]) => send(ENS_REGISTRY, registryAbi.encodeFunctionData(fn, args));
      await registry('setSubnodeOwner', [namehash('eth'), id('offchain'), from]);
      await registry('setResolver', [namehash('offchain.eth'), offchain]);
      const res = await get('/reputation/offchain.eth/OVERALL');
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).not.toBe(500);
      expect(requests).toBe(0);
    } finally {
      await new Promise<void>((r) => gateway.close(() => r()));
    }
  });
});

describe('ENS names on the reputation routes (mainnet RPC configured)', () => {
  it('GET /reputation/vitalik.eth/OVERALL answers the score entry of the address the name resolves to', async () => {
    // the first read starts the wallet's sync, whose end scores it again (a new calculatedAt): the name's answer is
    // the address's entry read just before or just after it, to the millisecond
    const before = await get(`/reputation/${vitalik}/OVERALL`);
    expect(before.statusCode).toBe(200);
    const byName = await get('/reputation/vitalik.eth/OVERALL');
    expect(byName.statusCode).toBe(200);
    const after = await get(`/reputation/${vitalik}/OVERALL`);
    expect(after.statusCode).toBe(200);
    expect([before.json(), after.json()]).toContainEqual(byName.json());
    expect(byName.json().category).toBe('OVERALL');
  });

  it('GET /reputation/{name} carries the checksummed address and the name; names are normalized (case)', async () => {
    const res = await get('/reputation/Vitalik.ETH');
    expect(res.statusCode).toBe(200);
    expect(res.json().address).toBe(getAddress(vitalik));
    expect(res.json().ensName).toBe('vitalik.eth');
    expect(res.json().scores).toHaveLength(9);
    // an address answers without ensName
    const plain = await get(`/reputation/${vitalik}`);
    expect(plain.json().address).toBe(getAddress(vitalik));
    expect(plain.json().ensName).toBeUndefined();
  });

  it('the history route takes a name', async () => {
    const res = await get('/reputation/vitalik.eth/OVERALL/history');
    expect(res.statusCode).toBe(200);
    expect(res.json().address).toBe(getAddress(vitalik));
    expect(res.json().ensName).toBe('vitalik.eth');
  });

  it('the batch accepts names beside addresses, answered in request order with the resolved addresses', async () => {
    const plain = randomAddress();
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: key.headers,
      payload: { addresses: ['vitalik.eth', plain, 'other.eth', 'vitalik.eth'], category: 'OVERALL' },
    });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as { address: string; ensName?: string }[];
    expect(results.map((r) => r.address)).toEqual([getAddress(vitalik), getAddress(plain), getAddress(other), getAddress(vitalik)]);
    expect(results.map((r) => r.ensName)).toEqual(['vitalik.eth', undefined, 'other.eth', 'vitalik.eth']);
  });

  it('a name that does not resolve gives 404 not_found (no record, or a resolver without an address record); nothing is counted', async () => {
    const before = (await get('/billing/usage')).json().queriesThisMonth as number;
    for (const name of ['nobody-here.eth', 'ghost.eth']) {
      const res = await get(`/reputation/${name}/OVERALL`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
      expect(res.json().details).toContain(`the ENS name ${name} does not resolve`);
    }
    const batch = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: key.headers,
      payload: { addresses: ['vitalik.eth', 'nobody-here.eth'], category: 'OVERALL' },
    });
    expect(batch.statusCode).toBe(404);
    expect(batch.json().details).toContain('addresses[1]: the ENS name nobody-here.eth');
    expect((await get('/billing/usage')).json().queriesThisMonth).toBe(before);
  });

  it('malformed input: neither an address nor a name is 400 with the combined message; an invalid name is 400', async () => {
    const bad = await get('/reputation/0x1234/OVERALL');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0]).toEqual({ field: 'address', message: expect.stringContaining('or an ENS name such as vitalik.eth') });
    const invalid = await get(`/reputation/${encodeURIComponent('bad_\u200dname.eth')}/OVERALL`);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields[0]).toEqual({ field: 'address', message: expect.stringContaining('is not a valid ENS name') });
  });

  it('other wallet inputs take names: sanctions screening, debt claims of a debtor, disputes of a wallet', async () => {
    const screened = await get('/compliance/sanctions/vitalik.eth');
    // no list is loaded in tests (503) unless screening answers; either way the name was resolved first
    expect([200, 503]).toContain(screened.statusCode);
    if (screened.statusCode === 200) expect(screened.json().walletAddress).toBe(getAddress(vitalik));
    const claims = await app.inject({ method: 'GET', url: '/api/v1/debt-claims/debtor/vitalik.eth' });
    expect(claims.statusCode).toBe(200);
    expect(claims.json().debtorAddress).toBe(getAddress(vitalik));
    const disputes = await get('/dispute/wallet/vitalik.eth');
    expect(disputes.statusCode).toBe(200);
    expect(disputes.json().address).toBe(getAddress(vitalik));
  });
});

describe('without a mainnet RPC', () => {
  it('a name is 400 validation_failed naming CREDENCE_RPC_URL_1; addresses still work', async () => {
    const res = await get('/reputation/vitalik.eth/OVERALL', noRpcApp, noRpcKey);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('validation_failed');
    expect(res.json().details).toContain('CREDENCE_RPC_URL_1');
    expect(res.json().fields).toEqual([{ field: 'address', message: expect.stringContaining('CREDENCE_RPC_URL_1') }]);
    const batch = await noRpcApp.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: noRpcKey.headers,
      payload: { addresses: [randomAddress(), 'vitalik.eth'], category: 'OVERALL' },
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json().fields[0].field).toBe('addresses[1]');
    expect((await get(`/reputation/${vitalik}/OVERALL`, noRpcApp, noRpcKey)).statusCode).toBe(200);
  });
});

describe('a failing mainnet RPC', () => {
  it('answers 502 upstream_unavailable (declared on the routes that take names)', async () => {
    const down = await createTestApp({ config: { rpcUrls: { 1: 'http://127.0.0.1:9' } } });
    try {
      const k = await createKey(down, 'Growth');
      const res = await down.inject({
        method: 'POST',
        url: '/api/v1/reputation/batch',
        headers: k.headers,
        payload: { addresses: ['vitalik.eth'], category: 'OVERALL' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().error).toBe('upstream_unavailable');
      expect(res.json().details).toContain('CREDENCE_RPC_URL_1');
    } finally {
      await down.close();
    }
  });
});

describe('the resolver', () => {
  it('caches answers for their lifetime (positive and negative), then reads the chain again', async () => {
    let now = 1_000_000;
    const resolver = createEnsResolver(chain.url, { ttlMs: 60_000, negativeTtlMs: 10_000, now: () => now });
    try {
      expect(await resolver.resolve('later.eth')).toBeNull();
      const target = randomAddress();
      await setAddr('later.eth', target);
      expect(await resolver.resolve('later.eth')).toBeNull(); // negative answer still cached
      now += 10_001;
      expect(await resolver.resolve('later.eth')).toBe(getAddress(target));
      await setAddr('later.eth', randomAddress());
      expect(await resolver.resolve('later.eth')).toBe(getAddress(target)); // positive answer cached
      now += 60_001;
      expect(await resolver.resolve('later.eth')).not.toBe(getAddress(target));
    } finally {
      resolver.close();
    }
  });

  it('an unreachable RPC rejects (the routes answer 502 upstream_unavailable)', async () => {
    const resolver = createEnsResolver('http://127.0.0.1:9', { timeoutMs: 3_000 });
    try {
      await expect(resolver.resolve('vitalik.eth')).rejects.toThrow();
    } finally {
      resolver.close();
    }
  });
});
