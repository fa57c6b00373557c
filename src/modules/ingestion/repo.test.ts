// The activity store's guarantees on both databases: idempotent inserts, forward-only cursors, claim leases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { Db } from '../../platform/db/types.js';
import { deploymentRecord } from './decode.js';
import { chunkSizer } from '../scoring/features/index.js';
import { createIngestionRepo, type IngestionRepo } from './repo.js';

let db: Db;
let repo: IngestionRepo;
beforeAll(async () => {
  db = await testDatabase();
  repo = createIngestionRepo(db);
});
afterAll(() => db?.close());

describe('ingestion repo', () => {
  it('stores a record once and reports only wallets that gained rows', async () => {
    const w = randomAddress();
    const rec = deploymentRecord(10, w, randomAddress(), 5, new Date('2024-01-02T03:04:05Z'), true);
    expect([...(await repo.insertActivity([rec, { ...rec }]))]).toEqual([w]);
    expect((await repo.insertActivity([rec])).size).toBe(0);
    const f = await repo.features(w);
    expect(f).toMatchObject({ chains: [10], evidenceCount: 1, activeDays: 1, developer: { contractsDeployed: 1, contractsWithCode: 1 } });
    expect(f.firstActivityAt?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
  });

  it("features of many wallets in one statement are each wallet's own, in the order asked, whatever the chunk size", async () => {
    const [dev, trader, pool, nobody] = [randomAddress(), randomAddress(), randomAddress(), randomAddress()];
    const at = new Date('2024-05-06T00:00:00Z');
    await repo.insertActivity([
      deploymentRecord(1, dev, randomAddress(), 3, at, true),
      ...[1, 2].map((i) => ({
        chainId: 1,
        wallet: trader,
        txFrom: trader,
        txHash: `0x${String(i).padStart(64, 'a')}`,
        logIndex: i,
        kind: 'swap',
        contract: pool,
        blockNumber: 10 + i,
        occurredAt: new Date(at.getTime() + i * 86_400_000),
        counterparty: null,
        tokenId: null,
        amount: '3000',
        direction: i === 1 ? 'out' : 'in',
        protocol: 'uniswap-v3',
        ref: `${randomAddress()}/${randomAddress()}`,
        valueUsd: 1_000 * i,
      })),
    ] as never);
    await repo.recordAccount(trader, 1, { nonce: 7 });
    const asked = [trader, dev, pool, nobody, trader];
    const one = [];
    for (const w of asked) one.push(await repo.features(w));
    expect(one[2]).toMatchObject({ accountType: 'contract', contractLabel: 'Uniswap V3 pool (factory-derived)' });
    expect(one[0]).toMatchObject({ txCount: 7, trading: { swaps: 2 } });
    expect(one[1].developer.contractsDeployed).toBe(1);
    expect(one[3].evidenceCount).toBe(0);
    for (const chunk of [1, 2, 100]) expect(await repo.featuresMany(asked, db, chunk)).toEqual(one);
    expect(await repo.featuresMany(asked, db, chunkSizer(50, 1))).toEqual(one);
    expect(await repo.featuresMany([], db)).toEqual([]);
  });

  it('gives no trading credit for swaps in a pair whose liquidity tokens the wallet holds (trading against itself)', async () => {
    const w = randomAddress();
    const own = randomAddress(); // a V2 pair the wallet provided liquidity to (a pair is its own LP token)
    const other = randomAddress();
    const at = new Date('2024-03-01T00:00:00Z');
    const [token0, token1] = [randomAddress(), randomAddress()]; // the pairs' tokens
    // the wallet's own transactions (tx_from: only what the wallet sent earns credit)
    const base = {
      chainId: 1,
      wallet: w,
      blockNumber: 100,
      occurredAt: at,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: 'uniswap-v2',
      ref: null,
      txFrom: w,
    };
    const swap = (pool: string, i: number) => ({
      ...base,
      txHash: `0x${String(i).padStart(64, '0')}`,
      logIndex: i,
      kind: 'swap' as const,
      contract: pool,
      valueUsd: 5_000,
      ref: `${token0}/${token1}`,
    });
    await repo.insertActivity([
      ...[1, 2, 3].map((i) => swap(own, i)),
      swap(other, 4),
      {
        ...base,
        txHash: `0x${'9'.repeat(64)}`,
        logIndex: 0,
        kind: 'transfer_erc20',
        contract: own,
        direction: 'in',
        counterparty: '0x0000000000000000000000000000000000000000',
        amount: '1000',
        protocol: null,
        valueUsd: null,
      },
      // in the same transaction the wallet paid a token into the pair: it added that liquidity itself
      {
        ...base,
        txHash: `0x${'9'.repeat(64)}`,
        logIndex: 1,
        kind: 'transfer_erc20',
        contract: token0,
        direction: 'out',
        counterparty: own,
        amount: '5',
        protocol: null,
        valueUsd: null,
      },
    ] as never);
    const f = await repo.features(w);
    expect(f.trading).toMatchObject({ swaps: 1, distinctPools: 1, volumeUsd: 5_000 });
    // LP tokens merely sent to a trader (anyone can) take nothing away
    const trader = randomAddress();
    await repo.insertActivity([
      { ...swap(other, 5), wallet: trader, txFrom: trader },
      {
        ...base,
        wallet: trader,
        txFrom: trader,
        txHash: `0x${'8'.repeat(64)}`,
        logIndex: 0,
        kind: 'transfer_erc20',
        contract: other,
        direction: 'in',
        counterparty: randomAddress(),
        amount: '1',
        protocol: null,
        valueUsd: null,
      },
    ] as never);
    expect((await repo.features(trader)).trading).toMatchObject({ swaps: 1, volumeUsd: 5_000 });
  });

  it('V2: only liquidity the wallet paid for itself counts against it, and only from then on', async () => {
    const zero = '0x0000000000000000000000000000000000000000';
    const pair = randomAddress();
    const usdc = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
    const at = new Date('2024-03-01T00:00:00Z');
    const row = (wallet: string, block: number, i: number, extra: object) => ({
      chainId: 1,
      wallet,
      blockNumber: block,
      occurredAt: at,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: null,
      ref: null,
      valueUsd: null,
      txHash: `0x${String(block).padStart(64, '0')}`,
      logIndex: i,
      txFrom: wallet,
      ...extra,
    });
    const weth = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
    const swaps = (wallet: string, blocks: number[]) =>
      blocks.map((b) =>
        row(wallet, b, 9, { kind: 'swap', contract: pair, protocol: 'uniswap-v2', valueUsd: 5_000, ref: `${usdc}/${weth}` }),
      );
    // griefing: a stranger adds liquidity through the router with `to` = the trader (the stranger pays both tokens)
    const victim = randomAddress();
    await repo.insertActivity([
      ...swaps(victim, [100, 300, 301]),
      row(victim, 200, 2, {
        kind: 'transfer_erc20',
        contract: pair,
        direction: 'in',
        counterparty: zero,
        amount: '1000',
        txFrom: randomAddress(),
      }),
    ] as never);
    expect((await repo.features(victim)).trading).toMatchObject({ swaps: 3, volumeUsd: 15_000 });
    // the wash trader adds its own liquidity (it pays USDC into the pair in the same transaction), then trades there
    const washer = randomAddress();
    await repo.insertActivity([
      ...swaps(washer, [100, 300, 301]),
      row(washer, 200, 1, { kind: 'transfer_erc20', contract: usdc, direction: 'out', counterparty: pair, amount: '1000000000' }),
      row(washer, 200, 2, { kind: 'transfer_erc20', contract: pair, direction: 'in', counterparty: zero, amount: '1000' }),
    ] as never);
    // the swap before it provided liquidity still counts
    expect((await repo.features(washer)).trading).toMatchObject({ swaps: 1, volumeUsd: 5_000 });
  });

  it('gives no trading credit for swaps in a V3 pool after the wallet opened a position there; the position earns nothing', async () => {
    const w = randomAddress();
    const own = randomAddress(); // the V3 pool of the wallet's position
    const other = randomAddress();
    const npm = '0xc36442b4a4522e871399cd717abdd847ab11fe88';
    const at = new Date('2024-03-01T00:00:00Z');
    const base = {
      chainId: 1,
      wallet: w,
      occurredAt: at,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: 'uniswap-v3',
      ref: null,
      txFrom: w,
    };
    const swap = (pool: string, i: number, block: number, chainId = 1) => ({
      ...base,
      chainId,
      blockNumber: block,
      txHash: `0x${String(i).padStart(64, '0')}`,
      logIndex: i,
      kind: 'swap' as const,
      contract: pool,
      valueUsd: 5_000,
    });
    const position = {
      ...base,
      blockNumber: 200,
      txHash: `0x${'6'.repeat(64)}`,
      logIndex: 3,
      kind: 'lp_position' as const,
      contract: own,
      counterparty: npm,
      tokenId: '4242',
      valueUsd: null,
    };
    await repo.insertActivity([
      swap(own, 1, 150),
      ...[2, 3, 4].map((i) => swap(own, i, 200 + i)),
      swap(other, 5, 300),
      swap(own, 6, 400, 10),
    ] as never);
    // before the position: every swap counts
    expect((await repo.features(w)).trading).toMatchObject({ swaps: 6, volumeUsd: 30_000 });
    const before = await repo.features(w);
    await repo.insertActivity([position] as never);
    const f = await repo.features(w);
    // left: the swap before the position (no liquidity of its own yet), the other pool, the same address on another chain
    expect(f.trading).toMatchObject({ swaps: 3, distinctPools: 2, volumeUsd: 15_000 });
    // the position record itself is no NFT, token, counterparty or activity
    expect(f.nft).toEqual(before.nft);
    expect({ ...f, trading: null, evidenceAt: null }).toEqual({
      ...before,
      trading: null,
      evidenceAt: null,
      evidenceCount: before.evidenceCount - 3,
    });
    // a position record of another wallet takes nothing from this one
    const trader = randomAddress();
    await repo.insertActivity([{ ...swap(own, 7, 500), wallet: trader, txFrom: trader }] as never);
    expect((await repo.features(trader)).trading).toMatchObject({ swaps: 1, volumeUsd: 5_000 });
  });

  it('counts a swap the explorer settled from token transfers once when its Swap log is stored too', async () => {
    const w = randomAddress();
    const pool = randomAddress();
    const tx = `0x${'7'.repeat(64)}`;
    const rec = {
      chainId: 1,
      txHash: tx,
      wallet: w,
      kind: 'swap',
      blockNumber: 100,
      occurredAt: new Date('2024-03-01T00:00:00Z'),
      contract: pool,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: 'uniswap-v3',
      ref: null,
      valueUsd: 2_000,
      txFrom: w,
    };
    await repo.insertActivity([{ ...rec, logIndex: -3 }] as never);
    expect((await repo.features(w)).trading).toMatchObject({ swaps: 1, volumeUsd: 2_000 });
    await repo.insertActivity([{ ...rec, logIndex: 41 }] as never); // the same swap from a bulk import
    expect((await repo.features(w)).trading).toMatchObject({ swaps: 1, volumeUsd: 2_000 });
  });

  it('moves cursors and nonces forward only', async () => {
    const w = randomAddress();
    await repo.advanceCursor(w, 1, 100);
    await repo.advanceCursor(w, 1, 50);
    await repo.recordAccount(w, 1, { nonce: 7, balance: '5', deployNonceChecked: 7 });
    await repo.recordNonces(new Map([[w, 3]]), 1);
    expect(await repo.syncStates(w)).toEqual([{ chainId: 1, lastBlock: 100, nonce: 7, deployNonceChecked: 7 }]);
    expect((await repo.features(w)).txCount).toBe(7);
  });

  it('claims due wallets for a lease; concurrent claims are disjoint; a sync releases the claim', async () => {
    const wallets = Array.from({ length: 12 }, randomAddress);
    for (const w of wallets) await repo.track(w);
    const [a, b] = await Promise.all([repo.claimDue(3600, 1000, 600), repo.claimDue(3600, 1000, 600)]);
    const mine = (xs: string[]) => xs.filter((x) => wallets.includes(x));
    expect(mine(a).filter((x) => b.includes(x))).toEqual([]);
    expect(new Set([...mine(a), ...mine(b)]).size).toBe(12);
    expect(mine(await repo.claimDue(3600, 1000, 600))).toEqual([]);

    await repo.markSynced(wallets[0]);
    expect(await repo.isSynced(wallets[0])).toBe(true);
    // a failed sync keeps its claim until the lease ends, then the wallet is due again
    await db.query("UPDATE tracked_wallets SET claimed_until = now() - interval '1 second' WHERE wallet = $1", [wallets[1]]);
    expect(mine(await repo.claimDue(3600, 1000, 600))).toEqual([wallets[1]]);
    expect(await repo.track(wallets[1])).toBe(false);
  });
});
