// The explorer source (Etherscan API V2) against a local simulator of that API (test/fakes/explorer-api.ts), through
// the same client the real one uses: a wallet's history on five chains with one key, rate limits waited out, lists
// paged past the 10,000-row window, router swaps credited to the transaction's sender, native transfers and
// deployments seen; an invalid key fails the sync and backs the wallet off instead of retrying every lease.
import { afterAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { pad } from 'viem';
import {
  explorerHistory,
  routerSwap,
  startFakeExplorer,
  TOKENS,
  type ChainHistory,
  type FakeExplorer,
} from '../../../test/fakes/explorer-api.js';
import { decodeLog } from './decode.js';
import { derivePool } from './registry/pools.js';
import type { Db } from '../../platform/db/types.js';
import { createExplorerClient } from './explorer/source.js';
import { createIngestionRepo } from './repo.js';
import { createIngestionService } from './service.js';

const CHAINS = [1, 10, 137, 8453, 42161];
const fakes: FakeExplorer[] = [];
const dbs: Db[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
  for (const d of dbs) await d.close();
});

async function setup(
  histories: Record<number, ChainHistory>,
  opts: { fakeRps?: number; clientRps?: number; key?: string; pageSize?: number } = {},
) {
  const fake = await startFakeExplorer(histories, { rps: opts.fakeRps ?? 5 });
  fakes.push(fake);
  const db = await testDatabase();
  dbs.push(db);
  const repo = createIngestionRepo(db);
  const client = createExplorerClient({
    url: fake.url,
    apiKey: opts.key ?? fake.apiKey,
    rps: opts.clientRps ?? 5,
    pageSize: opts.pageSize,
    attempts: 20,
  });
  const explorers = Object.keys(histories).map((c) => client.source(Number(c)));
  const engine = createIngestionService({
    db,
    repo,
    sources: [],
    explorers,
    log: { warn() {}, error() {}, debug() {} },
    concurrency: 2,
    ingestOnRead: true,
    backoff: { baseSeconds: 60, maxSeconds: 3600 },
  });
  return { fake, db, repo, engine };
}

/** the evidence records per chain and kind (the fees of the wallet's transactions, 'tx_fee', apart) */
async function kinds(db: Db, wallet: string) {
  const rows = await db.query<{ chain_id: number; kind: string; n: number }>(
    "SELECT chain_id, kind, count(*)::int AS n FROM wallet_activity WHERE wallet = $1 AND kind <> 'tx_fee' GROUP BY chain_id, kind",
    [wallet],
  );
  const out: Record<number, Record<string, number>> = {};
  for (const r of rows) (out[r.chain_id] ??= {})[r.kind] = r.n;
  return out;
}

describe('explorer source (Etherscan API V2 simulator)', () => {
  it('reads a wallet on five chains with one key: native transfers, deployments, tokens, pinned protocol events, router swaps credited to the sender', async () => {
    const wallet = randomAddress();
    const histories = Object.fromEntries(CHAINS.map((c) => [c, explorerHistory(c, wallet, 40)]));
    // the client asks faster than the key allows: the simulator answers "Max calls per sec rate limit reached"
    const { fake, db, engine } = await setup(histories, { fakeRps: 5, clientRps: 50 });
    const results = await engine.syncWallet(wallet);
    expect(results.map((r) => r.complete)).toEqual(CHAINS.map(() => true));
    const got = await kinds(db, wallet);
    for (const c of CHAINS) expect(got[c], `chain ${c}`).toEqual(histories[c].expected);
    // and what each transaction the wallet sent paid (txlist: gasUsed x gasPrice), one record each
    const [{ fees, sent }] = await db.query<{ fees: number; sent: number }>(
      "SELECT count(*) FILTER (WHERE kind = 'tx_fee')::int AS fees, count(DISTINCT tx_hash) FILTER (WHERE kind = 'tx_fee')::int AS sent FROM wallet_activity WHERE wallet = $1",
      [wallet],
    );
    expect(fees).toBeGreaterThan(0);
    expect(fees).toBe(sent);
    expect(fake.rateLimited).toBeGreaterThan(0);
    // the swap's recipient was the router: only the transaction's sender explains the wallet's credit
    const [swap] = await db.query<{ contract: string; protocol: string }>(
      "SELECT contract, protocol FROM wallet_activity WHERE wallet = $1 AND kind = 'swap' LIMIT 1",
      [wallet],
    );
    expect(swap.protocol).toBe('uniswap-v2');
    const cov = (await engine.coverageFor([wallet])).get(wallet)!;
    expect(cov.status).toBe('complete');
    expect(cov.chains.map((c) => [c.chainId, c.source, c.complete])).toEqual(CHAINS.map((c) => [c, 'explorer', true]));
    // a second sync asks only from the cursor on and stores nothing new
    const again = await engine.syncWallet(wallet);
    expect(again.every((r) => r.newRecords === 0)).toBe(true);
    await engine.stop();
  }, 120_000);

  it('settles direct router swaps from the token list without receipts, as the receipt would; a fake pool is not credited; a multi-hop swap still reads its receipt', async () => {
    const wallet = randomAddress();
    const h = explorerHistory(1, wallet, 40);
    const direct = [...h.receipts.keys()];
    expect(direct.length).toBe(8);
    const last = h.txlist[h.txlist.length - 1];
    const row = (k: number) => ({
      ...last,
      hash: pad(`0xf${k}`),
      blockNumber: String(Number(last.blockNumber) + k),
      nonce: String(100 + k),
      value: '0',
    });
    const add = (s: ReturnType<typeof routerSwap>) => {
      h.txlist.push(s.tx);
      h.tokentx.push(...s.tokentx);
      h.receipts.set(s.tx.hash, s.receipt);
    };
    // the same USDC -> WETH swap, but the "pool" paid is a contract the factory never deployed: no swap credited
    const fakePool = '0x000000000000000000000000000000000000fa4e';
    add(routerSwap(1, wallet, row(1), { pools: [fakePool] }));
    // USDC -> WETH -> DAI: no single pool derives from USDC/DAI, so the receipt settles it (two swaps credited)
    const dai = '0x6b175474e89094c44da98b954eedeac495271d0f';
    add(routerSwap(1, wallet, row(2), { path: [TOKENS[1].usdc, TOKENS[1].weth, dai], amounts: [1_000_000n, 4n * 10n ** 14n, 10n ** 18n] }));
    h.expected.swap += 2;
    h.expected.transfer_erc20 += 4;

    const { fake, db, engine } = await setup({ 1: h }, { fakeRps: 1000, clientRps: 1000 });
    await engine.syncWallet(wallet);
    expect((await kinds(db, wallet))[1]).toEqual(h.expected);
    // receipts only for the two transactions the token list cannot settle, none for the eight direct swaps
    expect(fake.calls.get('proxy.eth_getTransactionReceipt')).toBe(2);
    const swaps = await db.query<{
      tx_hash: string;
      log_index: number;
      block_number: string;
      occurred_at: Date;
      contract: string;
      counterparty: string;
      protocol: string;
      value_usd: string | null;
    }>(
      "SELECT tx_hash, log_index, block_number, occurred_at, contract, counterparty, protocol, value_usd FROM wallet_activity WHERE wallet = $1 AND kind = 'swap' ORDER BY tx_hash, log_index",
      [wallet],
    );
    expect(swaps.filter((s) => s.tx_hash === row(1).hash)).toEqual([]);
    expect(swaps.filter((s) => s.tx_hash === row(2).hash).map((s) => s.log_index)).toEqual([1, 3]);
    // each direct swap is the record its receipt's Swap log gives when credited to the sender (log index aside)
    for (const hash of direct) {
      const tx = h.txlist.find((t) => t.hash === hash)!;
      const swapLog = h.receipts.get(hash)!.find((l) => l.address !== TOKENS[1].usdc && l.address !== TOKENS[1].weth)!;
      const pools = new Map([[swapLog.address, derivePool(1, 'uniswap-v2', swapLog.address, [TOKENS[1].usdc, TOKENS[1].weth])]]);
      const [want] = decodeLog(
        { ...swapLog, timestamp: new Date(Number(tx.timeStamp) * 1000) },
        { chainId: 1, pools, txFrom: wallet.toLowerCase() },
      ).filter((r) => r.wallet === wallet.toLowerCase());
      const got = swaps.find((s) => s.tx_hash === hash)!;
      expect(got.log_index).toBe(-3);
      expect({
        block: Number(got.block_number),
        at: new Date(got.occurred_at).getTime(),
        contract: got.contract,
        counterparty: got.counterparty,
        protocol: got.protocol,
        value: got.value_usd === null ? null : Number(got.value_usd),
      }).toEqual({
        block: want.blockNumber,
        at: want.occurredAt!.getTime(),
        contract: want.contract,
        counterparty: want.counterparty,
        protocol: want.protocol,
        value: want.valueUsd,
      });
      expect(want.valueUsd).toBe(1);
    }
    await engine.stop();
  }, 120_000);

  it('pages past the 10,000-row window by restarting at the last block seen, without duplicates', async () => {
    const wallet = randomAddress();
    const h = explorerHistory(1, wallet, 0);
    // 12,500 token transfers to the wallet, several per block
    for (let i = 0; i < 12_500; i++) {
      const block = 19_000_000 + Math.floor(i / 3);
      h.tokentx.push({
        blockNumber: String(block),
        timeStamp: String(1_700_000_000 + i),
        hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
        nonce: '0',
        blockHash: '0x',
        from: '0x00000000000000000000000000000000000000cc',
        contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        to: wallet,
        value: '1',
        tokenName: 'USD Coin',
        tokenSymbol: 'USDC',
        tokenDecimal: '6',
        transactionIndex: '0',
        gas: '0',
        gasPrice: '0',
        gasUsed: '0',
        cumulativeGasUsed: '0',
        input: 'deprecated',
        confirmations: '1',
      });
    }
    const { fake, db, engine } = await setup({ 1: h }, { fakeRps: 1000, clientRps: 1000 });
    await engine.syncWallet(wallet);
    expect((await kinds(db, wallet))[1].transfer_erc20).toBe(12_500);
    expect(fake.calls.get('account.tokentx')).toBeGreaterThan(10);
    await engine.stop();
  }, 120_000);

  it('an invalid key fails the sync, keeps coverage partial and backs the wallet off (stored) instead of retrying every lease', async () => {
    const wallet = randomAddress();
    const { db, repo, engine } = await setup({ 1: explorerHistory(1, wallet, 5) }, { key: 'WRONGKEY' });
    await repo.track(wallet);
    await expect(engine.syncWallet(wallet)).rejects.toThrow(/Invalid API Key/);
    const [t] = await db.query<{ failures: number; retry_at: Date | null }>(
      'SELECT failures, retry_at FROM tracked_wallets WHERE wallet = $1',
      [wallet],
    );
    expect(t.failures).toBe(1);
    expect(new Date(t.retry_at!).getTime()).toBeGreaterThan(Date.now() + 30_000);
    // not due while backing off, even with no lease held
    expect(await repo.claimDue(0, 10, 600)).not.toContain(wallet);
    await expect(engine.syncWallet(wallet)).rejects.toThrow();
    const [t2] = await db.query<{ failures: number; retry_at: Date }>('SELECT failures, retry_at FROM tracked_wallets WHERE wallet = $1', [
      wallet,
    ]);
    expect(t2.failures).toBe(2);
    expect(new Date(t2.retry_at).getTime()).toBeGreaterThan(new Date(t.retry_at!).getTime() + 30_000);
    expect((await engine.coverageFor([wallet])).get(wallet)!.status).toBe('partial');
    await engine.stop();
  }, 60_000);
});
