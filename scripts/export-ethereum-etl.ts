// Exports blocks of a chain, read over JSON-RPC, in ethereum-etl's formats (blocks, transactions with receipt
// fields, logs, token_transfers), as JSON lines or CSV per file. The ingestion tests use it to check that a bulk
// import of a local chain yields the same features as reading that chain over JSON-RPC.
//   node --import tsx scripts/export-ethereum-etl.ts <rpc-url> <out-dir> [fromBlock] [toBlock]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chainClient } from './scenarios.js';

type Format = 'json' | 'csv';
export interface ExportOptions {
  fromBlock?: number;
  toBlock?: number;
  formats?: Partial<Record<'blocks' | 'transactions' | 'logs' | 'token_transfers', Format>>;
}

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const n = (h: string | null | undefined) => (h == null ? null : BigInt(h).toString());

interface RpcBlock {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  miner: string;
  gasLimit: string;
  gasUsed: string;
  baseFeePerGas?: string;
  transactions: RpcTx[];
}
interface RpcTx {
  hash: string;
  nonce: string;
  transactionIndex: string;
  from: string;
  to: string | null;
  value: string;
  gas: string;
  gasPrice?: string;
  input: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  type?: string;
}
interface RpcReceipt {
  status: string;
  gasUsed: string;
  cumulativeGasUsed: string;
  contractAddress: string | null;
  effectiveGasPrice?: string;
  logs: { address: string; topics: string[]; data: string; logIndex: string; transactionIndex: string }[];
}

export async function exportEthereumEtl(
  url: string,
  dir: string,
  opts: ExportOptions = {},
): Promise<{ blocks: number; transactions: number; logs: number; tokenTransfers: number }> {
  const c = chainClient(url);
  const from = opts.fromBlock ?? 0;
  const to = opts.toBlock ?? Number(await c.rpc<string>('eth_blockNumber'));
  const out = {
    blocks: [] as Row[],
    transactions: [] as Row[],
    logs: [] as Row[],
    token_transfers: [] as Row[],
  };
  for (let b = from; b <= to; b++) {
    const block = await c.rpc<RpcBlock>('eth_getBlockByNumber', [`0x${b.toString(16)}`, true]);
    out.blocks.push(blockRow(block, b));
    for (const tx of block.transactions) {
      const r = await c.rpc<RpcReceipt>('eth_getTransactionReceipt', [tx.hash]);
      out.transactions.push(transactionRow(block, b, tx, r));
      for (const l of r.logs) {
        out.logs.push(logRow(block, b, tx, l));
        if (l.topics[0] === TRANSFER && l.topics.length === 3) out.token_transfers.push(transferRow(block, b, tx, l));
      }
    }
  }
  mkdirSync(dir, { recursive: true });
  for (const [name, rows] of Object.entries(out)) {
    const format = opts.formats?.[name as keyof typeof out] ?? 'json';
    writeFileSync(path.join(dir, `${name}.${format}`), format === 'json' ? toJsonLines(rows) : toCsv(rows));
  }
  return {
    blocks: out.blocks.length,
    transactions: out.transactions.length,
    logs: out.logs.length,
    tokenTransfers: out.token_transfers.length,
  };
}

type Row = Record<string, unknown>;
type RpcLog = RpcReceipt['logs'][number];

function blockRow(block: RpcBlock, b: number): Row {
  return {
    type: 'block',
    number: b,
    hash: block.hash,
    parent_hash: block.parentHash,
    miner: block.miner,
    gas_limit: n(block.gasLimit),
    gas_used: n(block.gasUsed),
    timestamp: Number(block.timestamp),
    transaction_count: block.transactions.length,
    base_fee_per_gas: n(block.baseFeePerGas),
  };
}

/** A transaction with its receipt's fields, as ethereum-etl's transactions file has them. */
function transactionRow(block: RpcBlock, b: number, tx: RpcTx, r: RpcReceipt): Row {
  return {
    type: 'transaction',
    hash: tx.hash,
    nonce: Number(tx.nonce),
    transaction_index: Number(tx.transactionIndex),
    from_address: tx.from,
    to_address: tx.to,
    value: n(tx.value),
    gas: n(tx.gas),
    gas_price: n(tx.gasPrice),
    input: tx.input,
    block_timestamp: Number(block.timestamp),
    block_number: b,
    block_hash: block.hash,
    max_fee_per_gas: n(tx.maxFeePerGas),
    max_priority_fee_per_gas: n(tx.maxPriorityFeePerGas),
    transaction_type: tx.type ? Number(tx.type) : null,
    receipt_cumulative_gas_used: n(r.cumulativeGasUsed),
    receipt_gas_used: n(r.gasUsed),
    receipt_contract_address: r.contractAddress,
    receipt_status: Number(r.status),
    receipt_effective_gas_price: n(r.effectiveGasPrice),
  };
}

function logRow(block: RpcBlock, b: number, tx: RpcTx, l: RpcLog): Row {
  return {
    type: 'log',
    log_index: Number(l.logIndex),
    transaction_hash: tx.hash,
    transaction_index: Number(l.transactionIndex),
    address: l.address,
    data: l.data,
    topics: l.topics,
    block_number: b,
    block_timestamp: Number(block.timestamp),
    block_hash: block.hash,
  };
}

/** An ERC-20 Transfer log (three topics) as a token transfer. */
function transferRow(block: RpcBlock, b: number, tx: RpcTx, l: RpcLog): Row {
  return {
    type: 'token_transfer',
    token_address: l.address,
    from_address: `0x${l.topics[1].slice(26)}`,
    to_address: `0x${l.topics[2].slice(26)}`,
    value: n(l.data === '0x' ? '0x0' : l.data),
    transaction_hash: tx.hash,
    log_index: Number(l.logIndex),
    block_number: b,
    block_timestamp: Number(block.timestamp),
    block_hash: block.hash,
  };
}

/** Big integers are written as bare JSON numbers, as ethereum-etl does. */
function toJsonLines(rows: Record<string, unknown>[]): string {
  return (
    rows
      .map((r) =>
        JSON.stringify(r).replace(
          /"(value|gas|gas_price|gas_limit|gas_used|max_fee_per_gas|max_priority_fee_per_gas|base_fee_per_gas|receipt_[a-z_]*gas[a-z_]*)":"(\d+)"/g,
          '"$1":$2',
        ),
      )
      .join('\n') + '\n'
  );
}

/** ethereum-etl's CSV: header row, the type column dropped, topics joined with commas. */
function toCsv(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '';
  const cols = Object.keys(rows[0]).filter((k) => k !== 'type');
  const cell = (v: unknown) => {
    const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [cols.join(','), ...rows.map((r) => cols.map((k) => cell(r[k])).join(','))].join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, dir, from, to] = process.argv.slice(2);
  if (!url || !dir) {
    console.error('usage: export-ethereum-etl.ts <rpc-url> <out-dir> [fromBlock] [toBlock]');
    process.exit(2);
  }
  const r = await exportEthereumEtl(url, dir, { fromBlock: from ? Number(from) : undefined, toBlock: to ? Number(to) : undefined });
  console.log(r);
}
