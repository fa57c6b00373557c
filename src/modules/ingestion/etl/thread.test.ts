// The decoding thread starts from what the importing process knows: a Uniswap V4 pool (or Morpho market, cToken
// rate) learned before the import, from a sync or an earlier export, decodes the export's swaps in that pool as the
// importing thread itself would; without it the swap is dropped as an unverified pool.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeAbiParameters, pad } from 'viem';
import { testDatabase } from '../../../../test/helpers/db.js';
import { EVENTS } from '../events.js';
import { rememberV4Pool } from '../registry/markets.js';
import { createIngestionRepo } from '../repo.js';
import { importEthereumEtl } from './import.js';
import { machineMemory, youngGenerationMb } from './thread.js';

const POOL_MANAGER = '0x000000000004444c5dc75cb358380d2e3de08a90'; // pinned V4 PoolManager, mainnet
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const TRADER = `0x${'7a'.repeat(20)}`;
const BLOCK = 21_700_000;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** One transaction of the trader's, swapping in the pool `id` through the PoolManager. */
function exportWithSwap(id: string, hash: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-thread-'));
  dirs.push(dir);
  const swap = EVENTS.find((e) => e.name === 'UniswapV4Swap')!;
  const data = encodeAbiParameters(
    [{ type: 'int128' }, { type: 'int128' }, { type: 'uint160' }, { type: 'uint128' }, { type: 'int24' }, { type: 'uint24' }],
    [-1_000_000_000n, 400_000_000_000_000_000n, 2n ** 96n, 10n ** 18n, 0, 500],
  );
  const common = { block_number: BLOCK, block_timestamp: 1_737_000_000, transaction_hash: hash };
  writeFileSync(
    path.join(dir, 'transactions.json'),
    `${JSON.stringify({ hash, nonce: 3, block_number: BLOCK, block_timestamp: 1_737_000_000, from_address: TRADER, to_address: POOL_MANAGER, value: 0, receipt_status: 1 })}\n`,
  );
  writeFileSync(
    path.join(dir, 'logs.json'),
    `${JSON.stringify({ ...common, log_index: 0, address: POOL_MANAGER, data, topics: [swap.topic0, id, pad(TRADER as `0x${string}`)] })}\n`,
  );
  return dir;
}

describe('the decoding thread', () => {
  it('decodes with the markets the importing process learned before the import', async () => {
    const db = await testDatabase();
    const repo = createIngestionRepo(db);
    const id = rememberV4Pool(1, { currency0: USDC, currency1: WETH, fee: 500, tickSpacing: 10, hooks: `0x${'00'.repeat(20)}` });
    const r = await importEthereumEtl({ db, repo }, exportWithSwap(id, `0x${'51'.repeat(32)}`), { chainId: 1, decodeThread: true });
    expect(r.dropped.unverifiedPool).toBe(0);
    const swaps = await db.query<{ wallet: string; protocol: string }>(`SELECT wallet, protocol FROM wallet_activity WHERE kind = 'swap'`);
    expect(swaps).toContainEqual({ wallet: TRADER, protocol: 'uniswap-v4' });

    // a pool nobody learned: dropped, on the thread as on this one
    const unknown = `0x${'ee'.repeat(32)}`;
    const again = await importEthereumEtl({ db, repo }, exportWithSwap(unknown, `0x${'52'.repeat(32)}`), {
      chainId: 1,
      decodeThread: true,
    });
    expect(again.dropped.unverifiedPool).toBe(1);
  });
});

describe("the decoding thread's young generation", () => {
  it('is sized from the memory the process may use: 192 MB on a large machine, 32 MB on a 512 MB one', () => {
    const MB = 2 ** 20;
    expect(youngGenerationMb(24 * 1024 * MB)).toBe(192);
    expect(youngGenerationMb(3 * 1024 * MB)).toBe(192);
    expect(youngGenerationMb(2 * 1024 * MB)).toBe(128);
    expect(youngGenerationMb(1024 * MB)).toBe(64);
    expect(youngGenerationMb(512 * MB)).toBe(32);
    expect(youngGenerationMb(256 * MB)).toBe(32);
  });

  it("reads the cgroup's limit when it is below the machine's memory, and ignores one that is not set", () => {
    expect(machineMemory()).toBeGreaterThan(0);
    expect(machineMemory()).toBeLessThanOrEqual(totalmem());
    const limit = process.constrainedMemory?.() ?? 0;
    if (limit > 0 && limit < totalmem()) expect(machineMemory()).toBe(limit);
    else expect(machineMemory()).toBe(totalmem());
  });
});
