// Oracle prices against the JSON-RPC provider simulator (test/fakes/rpc-provider.ts): a full node that keeps state
// for its newest blocks only answers geth's "missing trie node" for older ones, and an old event then stays
// unvalued (never today's price); what the reader is allowed to ask the oracle about; what each refusal means.
import { afterAll, describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, pad, parseAbi, parseEther, type Hex } from 'viem';
import { randomAddress } from '../../../../test/helpers/app.js';
import { testDatabase } from '../../../../test/helpers/db.js';
import { simulateChain, type SimLog } from '../../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../../../../test/fakes/rpc-provider.js';
import type { Db } from '../../../platform/db/types.js';
import { EVENT_ABI } from '../events.js';
import { pinnedContracts } from '../registry/index.js';
import { evidenceValue, usdValue } from '../registry/gate.js';
import { createIngestionRepo } from '../repo.js';
import { classify, RpcError } from '../rpc-errors.js';
import { createRpcSource } from '../rpc-source.js';
import { createIngestionService } from '../service.js';
import { createPriceReader, type EthCalls } from './reader.js';
import { oracleFor, priceable } from './oracle.js';

const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2'; // Aave V3 Ethereum Pool
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const WBTC = '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A8 = '0x3e5a19c91266ad8ce2477b91585d1856b84062df'; // on the Uniswap token list, not an Aave V3 Ethereum reserve
const ORACLE = oracleFor(1)!.address;
const BUCKET = oracleFor(1)!.bucketBlocks;
const ORACLE_ABI = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);
const priceCall = (asset: string) =>
  encodeFunctionData({ abi: ORACLE_ABI, functionName: 'getAssetPrice', args: [asset as Hex] }).toLowerCase();
const BORROW = EVENT_ABI.filter((e) => e.name === 'Borrow')[0];

function borrow(wallet: string, reserve: string, amount: bigint, blockNumber: number, i: number): SimLog {
  const topics = encodeEventTopics({
    abi: [BORROW],
    eventName: 'Borrow',
    args: { reserve, onBehalfOf: wallet, referralCode: 0 },
  } as never) as Hex[];
  const inputs = (BORROW.inputs as readonly { type: string; indexed?: boolean }[]).filter((x) => !x.indexed);
  return {
    address: POOL,
    topics: topics.map((t) => t.toLowerCase()),
    data: encodeAbiParameters(inputs as never, [wallet, amount, 2, 0n] as never),
    blockNumber,
    transactionHash: pad(`0xb0${i.toString(16)}`),
    logIndex: 0,
  };
}

const dbs: Db[] = [];
const providers: FakeProvider[] = [];
afterAll(async () => {
  for (const p of providers) await p.close();
  for (const d of dbs) await d.close();
});

describe('a node without historical state', () => {
  it('leaves an old event unvalued (never the price of a later block), values the recent ones, one eth_call per asset and bucket, no retries', async () => {
    const wallet = randomAddress().toLowerCase();
    const chain = simulateChain({ wallet, events: 0 });
    const recent = Math.floor((chain.head - 2_000) / BUCKET) * BUCKET + 10;
    const old = chain.head - 5_000_000;
    chain.logs.push(
      borrow(wallet, WETH, parseEther('500'), old, 1),
      borrow(wallet, WETH, parseEther('500'), recent, 2),
      borrow(wallet, WETH, parseEther('1'), recent + 5, 3), // same bucket: no second read
      borrow(wallet, WBTC, 2n * 10n ** 8n, recent, 4), // the oracle reverts on it
      borrow(wallet, WETH, 10n ** 15n, recent + 7, 5), // 0.001 WETH = $2: valued, below the dust floor
    );
    chain.logs.sort((a, b) => a.blockNumber - b.blockNumber);
    // the node answers WETH at $2,000 at any block it still has state for
    chain.calls.set(`${ORACLE}:${priceCall(WETH)}`, pad(`0x${(2000n * 10n ** 8n).toString(16)}`));
    const provider = await startFakeProvider(chain, 'open', { stateBlocks: 128 * 1_000 });
    providers.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const source = createRpcSource(1, provider.url);
    const eng = createIngestionService({
      db,
      repo: createIngestionRepo(db),
      sources: [source],
      log: console as never,
      concurrency: 1,
      ingestOnRead: true,
      sync: { useFinalized: true },
      pinned: (id) => pinnedContracts(id),
    });
    const [res] = await eng.syncWallet(wallet);
    expect(res.complete).toBe(true);
    const rows = await db.query<{ block_number: string; counterparty: string; amount: string; value_usd: string | null }>(
      "SELECT block_number, counterparty, amount, value_usd FROM wallet_activity WHERE wallet = $1 AND kind = 'lending_borrow' ORDER BY block_number, counterparty, amount",
      [wallet],
    );
    expect(rows.map((r) => [Number(r.block_number), r.counterparty, r.value_usd === null ? null : Number(r.value_usd)])).toEqual([
      [old, WETH, null],
      [recent, WBTC, null],
      [recent, WETH, 1_000_000],
      [recent + 5, WETH, 2_000],
      [recent + 7, WETH, 2],
    ]);
    // WETH and WBTC in the recent bucket, then the old bucket (refused: no state): three reads, none retried
    expect(provider.calls.get('eth_call')).toBe(3);
    expect(eng.priceReader(1)!.stats).toMatchObject({ calls: 3, priced: 1, unpriced: 1, noState: 1 });
    // the $2 borrow is dust: stored, but it counts for nothing (features), unlike the unvalued old one
    const f = await createIngestionRepo(db).features(wallet);
    expect(f.lending).toMatchObject({ borrows: 4, borrowedUsd: 1_002_000, unvaluedBorrows: 2 });
    await eng.stop();
  });
});

describe('what pricing costs', () => {
  it('a busy wallet: 1,000 WETH borrows over five days cost one eth_call per hour bucket (120), batched, and a re-sync none', async () => {
    const wallet = randomAddress().toLowerCase();
    const chain = simulateChain({ wallet, events: 0 });
    const span = 5 * 24 * BUCKET; // five days of 12 s blocks
    const start = Math.floor((chain.head - 100_000 - span) / BUCKET) * BUCKET;
    for (let i = 0; i < 1_000; i++) chain.logs.push(borrow(wallet, WETH, parseEther('2'), start + Math.floor((i * span) / 1_000), 100 + i));
    chain.logs.sort((a, b) => a.blockNumber - b.blockNumber);
    chain.calls.set(`${ORACLE}:${priceCall(WETH)}`, pad(`0x${(2000n * 10n ** 8n).toString(16)}`));
    const provider = await startFakeProvider(chain, 'open');
    providers.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const source = createRpcSource(1, provider.url);
    const eng = createIngestionService({
      db,
      repo: createIngestionRepo(db),
      sources: [source],
      log: console as never,
      concurrency: 1,
      ingestOnRead: true,
      sync: { useFinalized: true },
      pinned: (id) => pinnedContracts(id),
    });
    const requestsBefore = provider.requests;
    await eng.syncWallet(wallet);
    const f = await createIngestionRepo(db).features(wallet);
    expect(f.lending).toMatchObject({ borrows: 1_000, borrowedUsd: 4_000_000, unvaluedBorrows: 0 });
    const calls = provider.calls.get('eth_call') ?? 0;
    console.info(
      '1,000 WETH borrows over 5 days:',
      calls,
      'eth_call;',
      provider.requests - requestsBefore,
      'HTTP requests for the whole sync;',
      Object.fromEntries(provider.calls),
    );
    expect(calls).toBe(120);
    // a second sync of the same wallet (nothing new) reads no price
    await eng.syncWallet(wallet);
    expect(provider.calls.get('eth_call')).toBe(120);
    await eng.stop();
  });
});

describe('the price reader', () => {
  const fake = (
    answer: (c: { to: string; data: string; block: number }) => { ok: true; value: string } | { ok: false; error: RpcError },
  ) => {
    const seen: { to: string; data: string; block: number }[] = [];
    const calls: EthCalls = async (cs) => cs.map((c) => (seen.push(c), answer(c)));
    return { calls, seen };
  };
  const word = (n: bigint) => pad(`0x${n.toString(16)}`);

  it('asks only about registry tokens that are reserves of the oracle market, never stablecoins, list-only or unknown tokens', async () => {
    expect(priceable(1, WETH)).toBe(true);
    expect(priceable(1, WBTC)).toBe(true);
    expect(priceable(1, USDC)).toBe(false); // at 1 USD
    expect(priceable(1, A8)).toBe(false); // on the token list, not an Aave reserve
    expect(priceable(1, randomAddress())).toBe(false); // a token anyone deployed
    expect(priceable(31337, WETH)).toBe(false); // no oracle for the chain
    const f = fake(() => ({ ok: true, value: word(3000n * 10n ** 8n) }));
    const r = createPriceReader(1, f.calls);
    const attacker = randomAddress();
    const prices = await r.read([WETH, USDC, A8, attacker].map((token) => ({ token, block: 20_000_123 })));
    expect(f.seen).toEqual([{ to: ORACLE, data: priceCall(WETH), block: 20_000_123 - (20_000_123 % BUCKET) }]);
    expect(prices(WETH, 20_000_123)).toBe(3000);
    expect(prices(attacker, 20_000_123)).toBeUndefined();
    // and a price handed in for a token the registry does not know values nothing
    expect(usdValue(1, attacker, 10n ** 18n, 3000)).toBeNull();
    expect(usdValue(1, WBTC, 2n * 10n ** 8n, 60_000)).toBe(120_000); // WBTC's 8 decimals
  });

  it('zero, absurd, empty and reverted answers are no price; transient failures are thrown (the sync retries later)', async () => {
    const answers = new Map<number, ReturnType<Parameters<typeof fake>[0]>>([
      [300, { ok: true, value: word(0n) }],
      [600, { ok: true, value: word(10n ** 20n) }],
      [900, { ok: true, value: '0x' }],
      [1200, { ok: false, error: new RpcError('execution reverted', 3) }],
      [1500, { ok: true, value: word(1234n * 10n ** 6n) }],
    ]);
    const r = createPriceReader(1, fake((c) => answers.get(c.block)!).calls);
    const prices = await r.read([...answers.keys()].map((block) => ({ token: WETH, block })));
    expect([...answers.keys()].map((b) => prices(WETH, b))).toEqual([null, null, null, null, 12.34]);
    expect(r.stats).toMatchObject({ calls: 5, priced: 1, unpriced: 4 });
    // cached: asked again, nothing is read
    await r.read([{ token: WETH, block: 1500 + 7 }]);
    expect(r.stats.calls).toBe(5);
    const down = createPriceReader(
      1,
      fake(() => ({ ok: false, error: new RpcError('HTTP 503: upstream connect error', null, undefined, 503) })).calls,
    );
    await expect(down.read([{ token: WETH, block: 300 }])).rejects.toThrow(/503/);
  });

  it('without state at a block, older buckets are not asked at all', async () => {
    const f = fake((c) =>
      c.block < 10_000
        ? { ok: false, error: new RpcError('missing trie node 1a2b (path )', -32000) }
        : { ok: true, value: word(2000n * 10n ** 8n) },
    );
    const r = createPriceReader(1, f.calls);
    const blocks = [20_000, 12_000, 9_000, 6_000, 3_000, 300];
    const first = await r.read(blocks.slice(0, 3).map((block) => ({ token: WETH, block })));
    expect(first(WETH, 9_000)).toBeNull();
    const second = await r.read(blocks.map((block) => ({ token: WETH, block })));
    expect(blocks.map((b) => second(WETH, b))).toEqual([2000, 2000, null, null, null, null]);
    expect(f.seen.map((c) => c.block)).toEqual([19_800, 12_000, 9_000]);
  });

  it('provider refusals: reverts and missing state are told apart from transient errors', () => {
    const kind = (message: string, code: number | null = -32000) => classify(new RpcError(message, code)).kind;
    expect(kind('execution reverted', 3)).toBe('reverted');
    expect(kind("Error: VM Exception while processing transaction: reverted with reason string 'no price source'", -32603)).toBe(
      'reverted',
    );
    expect(kind('missing trie node c6ebfa185e24 (path ) state 0xc6eb is not available, not found')).toBe('no-state');
    expect(kind('historical state not available in path scheme yet')).toBe('no-state');
    expect(kind('header not found')).toBe('no-state');
    expect(kind('project ID does not have access to archive state', -32002)).toBe('no-state');
    expect(kind('internal error', -32603)).toBe('transient');
    expect(evidenceValue(1, WETH, 10n ** 15n, 2000)).toBe(2); // valued: the dust floor applies in the features
  });
});
