// What one import keeps of its own decoding across batches: the export's Transfer logs leave out their
// token_transfers rows before decoding (log-keys.ts), and a contract deployed again keeps its first deployment. The
// records stored are those the database's own conflict handling gave one writer (the imports are compared whole in
// bulk-path.test.ts and etl-mainnet.test.ts): here, which rows are left out and which are not.
import { describe, expect, it } from 'vitest';
import { pad, toHex } from 'viem';
import { newDropCounter } from '../registry/gate.js';
import { LogKeys } from './log-keys.js';
import { batchRecords, type BatchContext } from './records.js';
import { TRANSFER_TOPIC } from './scan.js';
import { BlockFees, BlockTimes, TxSenders } from './export-index.js';

const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = `0x${'a1'.repeat(20)}`;
const B = `0x${'b2'.repeat(20)}`;
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function context(): BatchContext {
  return {
    chainId: 1,
    index: { times: new BlockTimes(), baseFees: new BlockFees(), senders: new TxSenders(), deployers: new Map() },
    timeOf: () => new Date('2024-03-01T00:00:00Z'),
    pools: new Map(),
    dropped: newDropCounter(),
    logKeys: new LogKeys(),
    deployed: new Set(),
  };
}
const logRow = (hash: string, block: number, index: number) => ({
  transaction_hash: hash,
  block_number: block,
  log_index: index,
  address: USDC,
  topics: [TRANSFER_TOPIC, pad(A as `0x${string}`), pad(B as `0x${string}`)],
  data: pad(toHex(1_000_000n)),
});
const transferRow = (hash: string, block: number, index: number) => ({
  transaction_hash: hash,
  block_number: block,
  log_index: index,
  token_address: USDC,
  from_address: A,
  to_address: B,
  value: '1000000',
});

describe('token_transfers rows of logs already in the export', () => {
  it('are left out when the same log (block, index, transaction) gave records; others are decoded', async () => {
    const ctx = context();
    const logs = await batchRecords(ctx, 'logs', [logRow(tx(1), 100, 5), logRow(tx(2), 90, 7)], new Map());
    expect(logs.length).toBeGreaterThan(0);
    const rows = [
      transferRow(tx(1), 100, 5), // its log: left out
      transferRow(tx(2), 90, 7), // added out of block order: still found
      transferRow(tx(3), 100, 5), // the same position, another transaction: decoded
      transferRow(tx(1), 100, 6), // a log the logs file did not have: decoded
    ];
    const records = await batchRecords(ctx, 'token_transfers', rows, new Map());
    expect(new Set(records.map((r) => `${r.txHash}:${r.logIndex}`))).toEqual(new Set([`${tx(3)}:5`, `${tx(1)}:6`]));
  });

  it('are decoded when the log gave no records (a logs file with another content, or none)', async () => {
    const ctx = context();
    // a Transfer log with malformed data gives no record: its token_transfers row is still decoded
    await batchRecords(ctx, 'logs', [{ ...logRow(tx(4), 100, 1), data: '0x' }], new Map());
    const records = await batchRecords(ctx, 'token_transfers', [transferRow(tx(4), 100, 1)], new Map());
    expect(records.length).toBeGreaterThan(0);
  });
});

describe('LogKeys', () => {
  it('finds what was added in any order, by block, index and transaction', () => {
    const keys = new LogKeys();
    for (let i = 3000; i > 0; i--) keys.add(1000 + (i % 17), i, tx(i));
    for (let i = 1; i <= 3000; i++) expect(keys.has(1000 + (i % 17), i, tx(i))).toBe(true);
    expect(keys.has(1000, 17, tx(18))).toBe(false);
    expect(keys.has(1001, 17, tx(17))).toBe(false);
    expect(keys.has(1000, 2 ** 20, tx(1))).toBe(false);
  });
});

describe('a contract deployed again at its address within one import', () => {
  it('keeps the first deployment only, whichever batch holds the second (two batches commit in either order)', async () => {
    const ctx = context();
    const contract = `0x${'c3'.repeat(20)}`;
    const deploy = (hash: string, block: number) => ({
      hash,
      nonce: 0,
      block_number: block,
      block_timestamp: 1_700_000_000 + block,
      from_address: A,
      to_address: null,
      value: '0',
      receipt_status: 1,
      receipt_contract_address: contract,
    });
    const first = await batchRecords(ctx, 'transactions', [deploy(tx(10), 100)], new Map());
    const again = await batchRecords(ctx, 'transactions', [deploy(tx(11), 200)], new Map());
    expect(first.filter((r) => r.kind === 'contract_deploy').map((r) => r.blockNumber)).toEqual([100]);
    expect(again.filter((r) => r.kind === 'contract_deploy')).toEqual([]);
  });
});
