// Wash trading against one's own Uniswap V3 liquidity, replayed on the in-process chain (as chain 1, mocks at the
// real pinned addresses: the NonfungiblePositionManager, two factory-derived V3 pools) and read through the real
// paths (JSON-RPC sync, an ethereum-etl export of the same blocks, and the same blocks served by the explorer API
// simulator): a wallet opens a position in a thin pool of
// allowlisted tokens and swaps back and forth in it (the fees come back to itself). Those swaps earn nothing; its
// swaps in another pool still count; the position NFT is no collectible. Griefing: a trader who is sent a position,
// or who has one minted to it by a stranger, keeps all of its credit.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEther, parseUnits, toHex } from 'viem';
import { createTestApp } from '../../../test/helpers/app.js';
import { startFakeExplorer, type ChainHistory, type FakeExplorer, type LogRow } from '../../../test/fakes/explorer-api.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import { chainClient, MAINNET_LIKE_BLOCK, PINNED, SCENARIO_START_DAYS_AGO } from '../../../scripts/scenarios.js';
import { exportEthereumEtl } from '../../../scripts/export-ethereum-etl.js';
import type { App } from '../../platform/http/types.js';
import type { Db } from '../../platform/db/types.js';
import type { WalletFeatures } from '../scoring/contracts.js';
import { importEthereumEtl } from './etl/import.js';
import { parseJsonLine } from './etl/reader.js';
import { createExplorerClient } from './explorer/source.js';
import { isPositionManager, poolDerives } from './registry/index.js';
import { createIngestionRepo } from './repo.js';
import { createIngestionService, type IngestionEngine } from './service.js';
import { featuresFor } from '../scoring/index.js';

const NPM = '0xc36442b4a4522e871399cd717abdd847ab11fe88'; // @uniswap/sdk-core NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[1]
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const POOL_USDC_USDT = '0xee4cf3b78a74affa38c6a926282bcd8b5952818d'; // V3 USDC/USDT 0.3%: the factory's CREATE2 address
const U = (n: number) => parseUnits(String(n), 6);
const MAX = 2n ** 256n - 1n;
const SWAP_USD = 2_000;
/** n swaps alternating: USDC in (2,000) and USDC out (1,994 after the 0.3% fee) */
const volume = (n: number) => (n / 2) * (SWAP_USD + SWAP_USD * 0.997);

let chain: LocalChain;
let app: App;
let etlDb: Db;
let explorerDb: Db;
let explorer: FakeExplorer;
let explorerEngine: IngestionEngine;
let w: { washer: string; trader: string; gifted: string; stranger: string };
let ownPool: string;
let otherPool: string;

beforeAll(async () => {
  expect(isPositionManager(1, NPM)).toBe(true);
  expect(poolDerives(1, 'uniswap-v3', PINNED.poolV3, PINNED.usdc, PINNED.weth, 3000)).toBe(true);
  expect(poolDerives(1, 'uniswap-v3', POOL_USDC_USDT, PINNED.usdc, USDT, 3000)).toBe(true);
  chain = await startLocalChain({ initialDate: new Date(Date.now() - SCENARIO_START_DAYS_AGO * 86_400_000), accounts: 6 });
  const c = chainClient(chain.url);
  const [op, washer, trader, gifted, stranger] = chain.accounts;
  w = { washer, trader, gifted, stranger };
  // past the registry's deployment blocks, as in scripts/scenarios.ts
  await c.rpc('hardhat_mine', [toHex(MAINNET_LIKE_BLOCK), '0x1']);
  const firstBlock = Number(await c.rpc<string>('eth_blockNumber')) + 1;
  const pin = async (name: string, args: unknown[], target: string) => c.pinAt(await c.deploy(op, name, args), target);
  const weth = await pin('MockERC20', ['Wrapped Ether', 'WETH'], PINNED.weth);
  const usdc = await pin('MockERC20Six', ['USD Coin', 'USDC'], PINNED.usdc);
  const usdt = await pin('MockERC20Six', ['Tether USD', 'USDT'], USDT);
  // token0 < token1 as the factory orders them: USDC (0xa0b8...) sorts before WETH and USDT
  ownPool = await pin('MockUniswapV3LiquidityPool', [usdc, weth], PINNED.poolV3);
  otherPool = await pin('MockUniswapV3LiquidityPool', [usdc, usdt], POOL_USDC_USDT);
  const npm = await pin('MockNonfungiblePositionManager', [], NPM);
  for (const pool of [ownPool, otherPool])
    for (const t of [weth, usdc, usdt]) await c.call(op, t, 'MockERC20', 'mint', [pool, U(10_000_000)]);
  for (const who of [washer, trader, gifted, stranger]) {
    for (const t of [weth, usdc, usdt]) {
      await c.call(op, t, 'MockERC20', 'mint', [who, t === weth ? parseEther('100') : U(1_000_000)]);
      for (const spender of [ownPool, otherPool, npm]) await c.call(who, t, 'MockERC20', 'approve', [spender, MAX]);
    }
  }
  const swap = (who: string, pool: string, i: number) => c.call(who, pool, 'MockUniswapV3Pool', 'swap', [who, i % 2 === 0, U(SWAP_USD)]);

  // The attack: a position in the thin USDC/WETH pool, then volume against it, back and forth, on many days.
  await c.call(washer, npm, 'MockNonfungiblePositionManager', 'mint', [ownPool, U(50_000), washer]);
  for (let i = 0; i < 12; i++) {
    await swap(washer, ownPool, i);
    await swap(washer, ownPool, i + 1);
    await c.advanceDays(1);
  }
  // ... and a little honest trading in another pool, which still counts (a day apart: a buy and a sale of the same
  // pair within a day net to nothing)
  for (let i = 0; i < 2; i++) {
    await swap(washer, otherPool, i);
    await c.advanceDays(1);
  }

  // Honest traders in the same pool: one is then sent a position (minted by, and paid by, a stranger); the other
  // has a position minted straight to it by a stranger (anyone may name any recipient).
  for (let i = 0; i < 6; i++) {
    await swap(trader, ownPool, i);
    await swap(gifted, ownPool, i);
    await c.advanceDays(1);
  }
  await c.call(stranger, npm, 'MockNonfungiblePositionManager', 'mint', [ownPool, U(1), stranger]);
  await c.call(stranger, npm, 'MockNonfungiblePositionManager', 'transferFrom', [stranger, trader, 2n]);
  await c.call(stranger, npm, 'MockNonfungiblePositionManager', 'mint', [ownPool, U(1), gifted]);
  for (let i = 0; i < 2; i++) {
    await swap(trader, ownPool, i);
    await swap(gifted, ownPool, i);
    await c.advanceDays(1);
  }

  app = await createTestApp({ config: { rpcUrls: { 1: chain.url }, ingestConfirmations: 0 } });
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-v3lp-'));
  await exportEthereumEtl(chain.url, dir, { fromBlock: firstBlock });
  etlDb = await testDatabase();
  await importEthereumEtl({ db: etlDb, repo: createIngestionRepo(etlDb) }, dir, { chainId: 1 });

  // the explorer source: the same blocks served by the Etherscan API simulator
  explorer = await startFakeExplorer({ 1: explorerHistoryOf(dir, Number(await c.rpc<string>('eth_blockNumber')) + 20) }, { rps: 1000 });
  explorerDb = await testDatabase();
  explorerEngine = createIngestionService({
    db: explorerDb,
    repo: createIngestionRepo(explorerDb),
    sources: [],
    explorers: [createExplorerClient({ url: explorer.url, apiKey: explorer.apiKey, rps: 1000 }).source(1)],
    log: { warn() {}, error() {}, debug() {} },
    concurrency: 2,
    ingestOnRead: true,
    backoff: { baseSeconds: 60, maxSeconds: 3600 },
  });
}, 240_000);

/** An ethereum-etl export as the explorer API serves it: account lists (the simulator picks a wallet's rows by
 *  from/to), every log (picked by topic) and every transaction's receipt. */
function explorerHistoryOf(dir: string, head: number): ChainHistory {
  const rows = (f: string) =>
    readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map(parseJsonLine) as Record<string, string>[];
  const txs = rows('transactions.json');
  const h: ChainHistory = {
    head,
    txlist: [],
    txlistinternal: [],
    tokentx: [],
    tokennfttx: [],
    token1155tx: [],
    logs: [],
    receipts: new Map(),
    expected: {},
  };
  const at = new Map(txs.map((t) => [t.hash, t]));
  for (const t of txs) {
    h.txlist.push({
      blockNumber: String(t.block_number),
      timeStamp: String(t.block_timestamp),
      hash: t.hash,
      nonce: String(t.nonce),
      from: t.from_address,
      to: t.to_address ?? '',
      value: String(t.value),
      isError: '0',
      txreceipt_status: '1',
      contractAddress: t.receipt_contract_address ?? '',
    });
  }
  for (const l of rows('logs.json') as unknown as {
    address: string;
    topics: string[];
    data: string;
    block_number: number;
    block_timestamp: number;
    transaction_hash: string;
    log_index: number;
  }[]) {
    const row: LogRow = {
      address: l.address,
      topics: l.topics,
      data: l.data,
      blockNumber: Number(l.block_number),
      timeStamp: Number(l.block_timestamp),
      transactionHash: l.transaction_hash,
      logIndex: Number(l.log_index),
    };
    h.logs.push(row);
    h.receipts.set(l.transaction_hash, [...(h.receipts.get(l.transaction_hash) ?? []), row]);
    if (l.topics[0] !== '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef') continue;
    const t = at.get(l.transaction_hash)!;
    const base = {
      blockNumber: String(l.block_number),
      timeStamp: String(l.block_timestamp),
      hash: l.transaction_hash,
      nonce: String(t.nonce),
      from: `0x${l.topics[1].slice(26)}`,
      to: `0x${l.topics[2].slice(26)}`,
      contractAddress: l.address,
    };
    if (l.topics.length === 4) h.tokennfttx.push({ ...base, tokenID: BigInt(l.topics[3]).toString() });
    else h.tokentx.push({ ...base, value: BigInt(l.data).toString(), tokenDecimal: '6' });
  }
  return h;
}

afterAll(async () => {
  await app?.close();
  await etlDb?.close();
  await explorerDb?.close();
  await explorer?.close();
  await chain?.stop();
});

const engine = () => app.ctx.services.ingestion as IngestionEngine;
async function overRpc(wallet: string): Promise<WalletFeatures> {
  await engine().syncWallet(wallet);
  return featuresFor(app.ctx.db, wallet.toLowerCase());
}
const fromExport = (wallet: string) => createIngestionRepo(etlDb).features(wallet);
async function fromExplorer(wallet: string): Promise<WalletFeatures> {
  await explorerEngine.syncWallet(wallet);
  return featuresFor(explorerDb, wallet.toLowerCase());
}

describe("swaps against the wallet's own Uniswap V3 liquidity", () => {
  it('earn no trading credit over JSON-RPC, from an ethereum-etl export or from the explorer API; swaps in another pool still count', async () => {
    for (const f of [await overRpc(w.washer), await fromExport(w.washer), await fromExplorer(w.washer)]) {
      // 24 swaps in its own pool are on chain; only the 2 in the other pool count
      expect(f.trading).toMatchObject({ swaps: 2, distinctPools: 1, volumeUsd: volume(2) });
      // the position NFT is no collectible: no mint, no collection, no token
      expect(f.nft).toEqual({ mints: 0, received: 0, sent: 0, collections: 0, unlisted: 0, notTheirs: 0 });
    }
    // each source stored the same marker: the position, in its pool
    for (const db of [app.ctx.db, etlDb, explorerDb]) {
      const rows = await db.query(
        "SELECT contract, counterparty, token_id::text FROM wallet_activity WHERE wallet = $1 AND kind = 'lp_position'",
        [w.washer],
      );
      expect(rows).toEqual([{ contract: ownPool, counterparty: NPM, token_id: '1' }]);
    }

    const scoring = app.ctx.services.scoring!;
    await scoring.recompute(w.washer, 'ingestion');
    const washer = await scoring.getScore(w.washer, 'DEFI_TRADING');
    await overRpc(w.trader);
    await scoring.recompute(w.trader, 'ingestion');
    // before this rule: 614 from the 26 swaps; now 382, from the 2 in the other pool
    expect(washer.score).toBeLessThan((await scoring.getScore(w.trader, 'DEFI_TRADING')).score);
  });

  it('a trader sent a position, or with one minted to it by a stranger, keeps all of its credit', async () => {
    for (const wallet of [w.trader, w.gifted]) {
      for (const f of [await overRpc(wallet), await fromExport(wallet), await fromExplorer(wallet)]) {
        expect(f.trading, wallet).toMatchObject({ swaps: 8, distinctPools: 1, volumeUsd: volume(8) });
        expect(f.nft, wallet).toEqual({ mints: 0, received: 0, sent: 0, collections: 0, unlisted: 0, notTheirs: 0 });
      }
    }
    for (const db of [app.ctx.db, etlDb, explorerDb]) {
      expect(
        await db.query("SELECT 1 FROM wallet_activity WHERE wallet IN ($1, $2) AND kind = 'lp_position'", [w.trader, w.gifted]),
      ).toEqual([]);
    }
    // the stranger did open a position itself (and sent it on): its record stays its own
    const stranger = await overRpc(w.stranger);
    expect(stranger.trading.swaps).toBe(0);
    expect((await app.ctx.db.query("SELECT 1 FROM wallet_activity WHERE wallet = $1 AND kind = 'lp_position'", [w.stranger])).length).toBe(
      1,
    );
  });
});
