// The explorer source (Etherscan API V2) against a local simulator of that API (test/fakes/explorer-api.ts), through
// the same client the real one uses: a wallet's history on five chains with one key, rate limits waited out, lists
// paged past the 10,000-row window, router swaps credited to the transaction's sender, native transfers and
// deployments seen; an invalid key fails the sync and backs the wallet off instead of retrying every lease.
import { afterAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { explorerHistory, startFakeExplorer, type ChainHistory, type FakeExplorer } from '../../../test/fakes/explorer-api.js';
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

async function setup(histories: Record<number, ChainHistory>, opts: { fakeRps?: number; clientRps?: number; key?: string; pageSize?: number } = {}) {
  const fake = await startFakeExplorer(histories, { rps: opts.fakeRps ?? 5 });
  fakes.push(fake);
  const db = await testDatabase();
  dbs.push(db);
  const repo = createIngestionRepo(db);
  const client = createExplorerClient({ url: fake.url, apiKey: opts.key ?? fake.apiKey, rps: opts.clientRps ?? 5, pageSize: opts.pageSize, attempts: 20 });
  const explorers = Object.keys(histories).map((c) => client.source(Number(c)));
  const engine = createIngestionService({ db, repo, sources: [], explorers, scoring: () => undefined, log: { warn() {}, error() {}, debug() {} }, concurrency: 2, ingestOnRead: true, backoff: { baseSeconds: 60, maxSeconds: 3600 } });
  return { fake, db, repo, engine };
}

async function kinds(db: Db, wallet: string) {
  const rows = await db.query<{ chain_id: number; kind: string; n: number }>('SELECT chain_id, kind, count(*)::int AS n FROM wallet_activity WHERE wallet = $1 GROUP BY chain_id, kind', [wallet]);
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
    expect(fake.rateLimited).toBeGreaterThan(0);
    // the swap's recipient was the router: only the transaction's sender explains the wallet's credit
    const [swap] = await db.query<{ contract: string; protocol: string }>("SELECT contract, protocol FROM wallet_activity WHERE wallet = $1 AND kind = 'swap' LIMIT 1", [wallet]);
    expect(swap.protocol).toBe('uniswap-v2');
    const cov = (await engine.coverageFor([wallet])).get(wallet)!;
    expect(cov.status).toBe('complete');
    expect(cov.chains.map((c) => [c.chainId, c.source, c.complete])).toEqual(CHAINS.map((c) => [c, 'explorer', true]));
    // a second sync asks only from the cursor on and stores nothing new
    const again = await engine.syncWallet(wallet);
    expect(again.every((r) => r.newRecords === 0)).toBe(true);
    await engine.stop();
  }, 120_000);

  it('pages past the 10,000-row window by restarting at the last block seen, without duplicates', async () => {
    const wallet = randomAddress();
    const h = explorerHistory(1, wallet, 0);
    // 12,500 token transfers to the wallet, several per block
    for (let i = 0; i < 12_500; i++) {
      const block = 19_000_000 + Math.floor(i / 3);
      h.tokentx.push({ blockNumber: String(block), timeStamp: String(1_700_000_000 + i), hash: `0x${(i + 1).toString(16).padStart(64, '0')}`, nonce: '0', blockHash: '0x', from: '0x00000000000000000000000000000000000000cc', contractAddress: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', to: wallet, value: '1', tokenName: 'USD Coin', tokenSymbol: 'USDC', tokenDecimal: '6', transactionIndex: '0', gas: '0', gasPrice: '0', gasUsed: '0', cumulativeGasUsed: '0', input: 'deprecated', confirmations: '1' });
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
    const [t] = await db.query<{ failures: number; retry_at: Date | null }>('SELECT failures, retry_at FROM tracked_wallets WHERE wallet = $1', [wallet]);
    expect(t.failures).toBe(1);
    expect(new Date(t.retry_at!).getTime()).toBeGreaterThan(Date.now() + 30_000);
    // not due while backing off, even with no lease held
    expect(await repo.claimDue(0, 10, 600)).not.toContain(wallet);
    await expect(engine.syncWallet(wallet)).rejects.toThrow();
    const [t2] = await db.query<{ failures: number; retry_at: Date }>('SELECT failures, retry_at FROM tracked_wallets WHERE wallet = $1', [wallet]);
    expect(t2.failures).toBe(2);
    expect(new Date(t2.retry_at).getTime()).toBeGreaterThan(new Date(t.retry_at!).getTime() + 30_000);
    expect((await engine.coverageFor([wallet])).get(wallet)!.status).toBe('partial');
    await engine.stop();
  }, 60_000);
});
