// What an export's rows become: the index of the whole export read first (block times and base fees, senders,
// deployments), then each batch's activity records (and its senders' nonces). Pure of the database: the import runs
// it on its own thread (batches.ts, worker.ts) or, with oracle prices, on the main thread.
import { getContractAddress, pad, toHex } from 'viem';
import { bigOrNull, txFeeRecord } from '../tx-fees.js';
import { decodeLog, deploymentRecord, type ActivityRecord } from '../decode.js';
import { ZERO_ADDRESS } from '../events.js';
import type { DropCounter, PoolInfo } from '../registry/gate.js';
import { pricesForLogs, type PriceLookup, type PriceReader } from '../pricing/index.js';
import { isPositionManager } from '../registry/index.js';
import { num, readRows, str, topicsOf, type Row } from './reader.js';
import type { LogKeys } from './log-keys.js';
import { BlockFees, BlockTimes, TxSenders, type Lookup } from './export-index.js';
import { rawLog, TRANSFER_TOPIC, type FileKind } from './scan.js';

/** What the blocks and transactions files tell of the whole export. */
export interface ExportIndex {
  /** block times, to date logs */
  times: BlockTimes;
  /** base fee per block (blocks files): a transaction's fee counts at most that per gas (tx-fees.ts) */
  baseFees: BlockFees;
  /** transaction senders, to credit swaps to the account that sent them */
  senders: TxSenders;
  /** contracts created in the export, and by whom: a third party's call to one is what the deployment weighs */
  deployers: Map<string, string>;
}

/** Block times and base fees, transaction senders and the contracts the export's transactions created. */
export async function indexExport(files: { file: string; kind: FileKind }[]): Promise<ExportIndex> {
  const index: ExportIndex = { times: new BlockTimes(), baseFees: new BlockFees(), senders: new TxSenders(), deployers: new Map() };
  for (const f of files.filter((x) => x.kind === 'blocks' || x.kind === 'transactions')) {
    for await (const { rows } of readRows(f.file, 0, 5000)) {
      for (const r of rows) {
        const block = num(f.kind === 'blocks' ? r.number : r.block_number);
        const ts = num(f.kind === 'blocks' ? r.timestamp : r.block_timestamp);
        if (block !== null && ts !== null) index.times.set(block, ts);
        const baseFee = f.kind === 'blocks' ? bigOrNull(r.base_fee_per_gas) : null;
        if (block !== null && baseFee !== null) index.baseFees.set(block, baseFee);
        if (f.kind === 'transactions' && str(r.hash) && str(r.from_address)) index.senders.set(String(r.hash), String(r.from_address));
        const created = f.kind === 'transactions' && !str(r.to_address) && num(r.receipt_status) !== 0 ? createdBy(r) : null;
        if (created) index.deployers.set(created, String(r.from_address).toLowerCase());
      }
    }
  }
  return index;
}

/** What decoding a batch reads of the whole export and its run. */
export interface BatchContext {
  chainId: number;
  index: ExportIndex;
  timeOf: (r: Row) => Date | null;
  pools: Map<string, PoolInfo | null>;
  dropped: DropCounter;
  prices?: PriceReader;
  /** the logs files' Transfer logs that gave records: their token_transfers rows are left out (log-keys.ts) */
  logKeys: LogKeys;
  /** contracts (and deployers) whose deployment record this import made: a deployment met again (a contract made
   *  again at its address) is left out here, as the database leaves out a stored one, whichever batch commits first */
  deployed: Set<string>;
}

/** A batch's records (and its senders' nonces, for a transactions file). */
export async function batchRecords(ctx: BatchContext, kind: FileKind, rows: Row[], nonces: Map<string, number>) {
  const { chainId, timeOf, pools, index } = ctx;
  if (kind === 'transactions') return transactionRecords(rows, chainId, timeOf, nonces, index, ctx.deployed);
  if (kind === 'logs') {
    const prices = await pricesForLogs(
      ctx.prices,
      rows.flatMap((r) => rawLog(r, timeOf) ?? []),
      { chainId, pools },
    );
    const out: ActivityRecord[] = [];
    for (const r of rows) {
      const records = logRecords(r, { chainId, pools, dropped: ctx.dropped, prices }, timeOf, index.senders);
      if (!records.length) continue;
      for (const x of records) out.push(x);
      if (records[0].txHash && isTransferRow(r)) ctx.logKeys.add(Number(r.block_number), Number(r.log_index), records[0].txHash);
    }
    return out;
  }
  const out: ActivityRecord[] = [];
  for (const r of rows) {
    const tx = str(r.transaction_hash);
    if (tx && ctx.logKeys.has(Number(r.block_number), Number(r.log_index), tx)) continue; // its log gave its records
    for (const x of tokenTransferRecords(r, chainId, timeOf, index.senders)) out.push(x);
  }
  return out;
}

const isTransferRow = (r: Row) => {
  const topics = r.topics;
  const t0 = Array.isArray(topics) ? topics[0] : topicsOf(topics)[0];
  return t0?.toLowerCase() === TRANSFER_TOPIC;
};

/** The contract a creating transaction made (its receipt's, else the CREATE address of its sender and nonce). */
function createdBy(r: Row): string | null {
  const from = str(r.from_address)?.toLowerCase();
  const nonce = num(r.nonce);
  return (
    str(r.receipt_contract_address)?.toLowerCase() ??
    (from && nonce !== null ? getContractAddress({ from: from as `0x${string}`, nonce: BigInt(nonce) }).toLowerCase() : null)
  );
}

/** A transactions batch's records: what each sender paid, the contracts deployed and used, native transfers; and
 *  each sender's next nonce (in `nonces`). */
function transactionRecords(
  rows: Row[],
  chainId: number,
  timeOf: (r: Row) => Date | null,
  nonces: Map<string, number>,
  { deployers, baseFees }: Pick<ExportIndex, 'deployers' | 'baseFees'>,
  deployed: Set<string>,
): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const r of rows) {
    const from = str(r.from_address)?.toLowerCase();
    const hash = str(r.hash)?.toLowerCase();
    if (!from || !hash) continue;
    const nonce = num(r.nonce);
    if (nonce !== null) nonces.set(from, Math.max(nonces.get(from) ?? 0, nonce + 1));
    const fee = feeRecord(r, chainId, from, hash, timeOf, baseFees);
    if (fee) out.push(fee);
    if (num(r.receipt_status) === 0) continue; // failed: no value moved, nothing deployed
    const to = str(r.to_address)?.toLowerCase() ?? null;
    const block = Number(r.block_number);
    const at = timeOf(r);
    const value = str(r.value) ?? '0';
    if (!to) {
      const created = createdBy(r);
      const key = `${created}:${from}`;
      if (created && !deployed.has(key)) {
        deployed.add(key);
        out.push(deploymentRecord(chainId, from, created, block, at, true));
      }
      continue;
    }
    // a third party calling a contract deployed in the export: a record for the deployer (the caller is its user)
    const deployer = deployers.get(to);
    if (deployer && deployer !== from) {
      out.push({
        chainId,
        txHash: hash,
        logIndex: -1,
        wallet: deployer,
        kind: 'contract_used',
        blockNumber: block,
        occurredAt: at,
        contract: to,
        counterparty: from,
        tokenId: null,
        amount: null,
        direction: null,
        protocol: null,
        ref: null,
        txFrom: from,
      });
    }
    if (value === '0' || /^0+$/.test(value)) continue;
    const base = {
      chainId,
      txHash: hash,
      logIndex: -1,
      kind: 'transfer_native' as const,
      blockNumber: block,
      occurredAt: at,
      contract: null,
      tokenId: null,
      amount: value,
      protocol: null,
      ref: null,
      txFrom: from,
    };
    out.push({ ...base, wallet: from, direction: 'out', counterparty: to });
    if (to !== from) out.push({ ...base, wallet: to, direction: 'in', counterparty: from });
  }
  return out;
}

/** What the sender paid for the transaction (exports with receipts): backs the category its evidence belongs to. */
function feeRecord(
  r: Row,
  chainId: number,
  from: string,
  hash: string,
  timeOf: (r: Row) => Date | null,
  baseFees: Lookup<number, bigint>,
): ActivityRecord | null {
  const gasUsed = bigOrNull(r.receipt_gas_used);
  const gasPrice = bigOrNull(r.receipt_effective_gas_price) ?? bigOrNull(r.gas_price);
  if (gasUsed === null || gasPrice === null) return null;
  return txFeeRecord({
    chainId,
    hash,
    from,
    blockNumber: Number(r.block_number),
    occurredAt: timeOf(r),
    gasUsed,
    gasPrice,
    baseFee: baseFees.get(Number(r.block_number)) ?? null,
    l1Fee: bigOrNull(r.receipt_l1_fee),
  });
}

type LogCtx = { chainId: number; pools: Map<string, PoolInfo | null>; dropped: DropCounter; prices?: PriceLookup };

function logRecords(r: Row, ctx: LogCtx, timeOf: (r: Row) => Date | null, senders: Lookup<string, string>): ActivityRecord[] {
  const log = rawLog(r, timeOf);
  return log ? decodeLog(log, { ...ctx, txFrom: senders.get(log.transactionHash) ?? null }) : [];
}

/** A token_transfers row is the decoded form of an ERC-20 Transfer log: re-encoded and decoded like any log. */
function tokenTransferRecords(r: Row, chainId: number, timeOf: (r: Row) => Date | null, senders: Lookup<string, string>): ActivityRecord[] {
  const from = str(r.from_address) ?? ZERO_ADDRESS;
  const to = str(r.to_address) ?? ZERO_ADDRESS;
  const token = str(r.token_address);
  const txHash = str(r.transaction_hash);
  if (!token || !txHash) return [];
  // ethereum-etl lists ERC-721 transfers here too (value = token id): a V3 position NFT is no token evidence
  if (isPositionManager(chainId, token)) return [];
  const topics = [TRANSFER_TOPIC, pad(from as `0x${string}`), pad(to as `0x${string}`)];
  const data = pad(toHex(BigInt(str(r.value) ?? '0')));
  return decodeLog(
    {
      address: token,
      topics,
      data,
      transactionHash: txHash,
      logIndex: Number(r.log_index),
      blockNumber: Number(r.block_number),
      timestamp: timeOf(r),
    },
    { chainId, txFrom: senders.get(txHash) ?? null },
  );
}
