// Bulk import of ethereum-etl exports (transactions, logs, token_transfers; CSV or JSON lines). Logs go through
// the same decoder as the JSON-RPC path. Each batch's records are written in one transaction (on PostgreSQL two
// batches at once, on their own connections), and the file's row offset after it once it and every batch before it
// are stored: an interrupted import resumes at or before where it stopped (a batch stored but not yet counted in the
// offset is read again and its records left out as stored), and a repeated one changes nothing.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { bigOrNull, txFeeRecord } from '../tx-fees.js';
import path from 'node:path';
import { getContractAddress, pad, toHex } from 'viem';
import type { Db } from '../../../platform/db/types.js';
import { decodeLog, deploymentRecord, type ActivityRecord, type RawLog } from '../decode.js';
import { EVENTS, ZERO_ADDRESS } from '../events.js';
import type { IngestionRepo } from '../repo.js';
import { newDropCounter, type DropCounter, type PoolInfo } from '../registry/gate.js';
import { derivePool, SWAP_TOPICS } from '../registry/pools.js';
import { learnFromLogs } from '../registry/markets.js';
import { pricesForLogs, type PriceLookup, type PriceReader } from '../pricing/index.js';
import { isPositionManager } from '../registry/index.js';
import { positionMintRecipient, positionRecords } from '../positions.js';
import { countRows, num, readRows, str, topicsOf, type Row } from './reader.js';
import { storeActivity, writeQueue } from './writer.js';

const KINDS = ['blocks', 'transactions', 'logs', 'token_transfers'] as const;
type FileKind = (typeof KINDS)[number];
const TRANSFER_TOPIC = EVENTS.find((e) => e.name === 'Transfer')!.topic0;

export interface ProgressSink {
  start(label: string, total: number, done: number): void;
  update(done: number): void;
  stop(): void;
}

export interface EtlImportOptions {
  chainId: number;
  batchSize?: number;
  progress?: ProgressSink;
  /** batches written at once (default 2 on PostgreSQL, 1 on PGlite) */
  writers?: number;
  /** oracle prices over the chain's JSON-RPC endpoint (pricing/); without it non-stable amounts are unvalued */
  prices?: PriceReader;
}

export interface EtlImportResult {
  files: { file: string; kind: FileKind; rows: number; resumedAt: number; skipped: boolean }[];
  records: number;
  /** wallets that gained activity (their scores need recomputing) */
  wallets: Set<string>;
  recordsWithoutTime: number;
  /** logs left out because their emitter is not in the registry (diagnostic only, never scored) */
  dropped: DropCounter;
}

/** Export files under dir, by kind (ethereum-etl names them transactions.csv, logs.json, or partitions them). */
export function findExportFiles(dir: string): { file: string; kind: FileKind }[] {
  const out: { file: string; kind: FileKind }[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(csv|json|jsonl)$/i.test(name)) {
        const kind = KINDS.find((k) => name.toLowerCase().startsWith(k));
        if (kind) out.push({ file: p, kind });
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind) || a.file.localeCompare(b.file));
}

export async function importEthereumEtl(
  deps: { db: Db; repo: IngestionRepo },
  dir: string,
  opts: EtlImportOptions,
): Promise<EtlImportResult> {
  const { db, repo } = deps;
  const chainId = opts.chainId;
  // rows per transaction: large statements (writer.ts), and the offset saved with each batch for a resume
  const batchSize = opts.batchSize ?? 10_000;
  // batches written at once: PostgreSQL takes each on its own connection (a backend, a core); PGlite has one
  const writers = Math.max(1, opts.writers ?? (db.kind === 'postgres' ? 2 : 1));
  const root = realpathSync(dir);
  const source = `ethereum-etl:${chainId}:${root}`;
  const files = findExportFiles(root);
  if (!files.some((f) => f.kind !== 'blocks')) throw new Error(`no ethereum-etl transactions, logs or token_transfers files in ${dir}`);
  const done = await repo.importProgress(source);
  const result: EtlImportResult = { files: [], records: 0, wallets: new Set(), recordsWithoutTime: 0, dropped: newDropCounter() };

  // Block times and transaction senders, needed to date logs and to credit swaps to the account that sent them.
  const times = new Map<number, Date>();
  // base fee per block (blocks files): a transaction's fee counts at most that per gas (tx-fees.ts)
  const baseFees = new Map<number, bigint>();
  const senders = new Map<string, string>();
  // contracts created in the export, and by whom: a third party's call to one is what the deployment weighs
  const deployers = new Map<string, string>();
  for (const f of files.filter((x) => x.kind === 'blocks' || x.kind === 'transactions')) {
    for await (const { rows } of readRows(f.file, 0, 5000)) {
      for (const r of rows) {
        const block = num(f.kind === 'blocks' ? r.number : r.block_number);
        const ts = num(f.kind === 'blocks' ? r.timestamp : r.block_timestamp);
        if (block !== null && ts !== null) times.set(block, new Date(ts * 1000));
        const baseFee = f.kind === 'blocks' ? bigOrNull(r.base_fee_per_gas) : null;
        if (block !== null && baseFee !== null) baseFees.set(block, baseFee);
        if (f.kind === 'transactions' && str(r.hash) && str(r.from_address))
          senders.set(String(r.hash).toLowerCase(), String(r.from_address).toLowerCase());
        const created = f.kind === 'transactions' && !str(r.to_address) && num(r.receipt_status) !== 0 ? createdBy(r) : null;
        if (created) deployers.set(created, String(r.from_address).toLowerCase());
      }
    }
  }

  const timeOf = (r: Row) => {
    const ts = num(r.block_timestamp);
    return ts !== null ? new Date(ts * 1000) : (times.get(Number(r.block_number)) ?? null);
  };

  // Swap pools, and Uniswap V3 positions minted to wallets that paid for them (read from whole transactions, so
  // before the batches)
  const { pools, positions } = await scanLogs(files, chainId, senders, timeOf);
  if (positions.length) {
    const { wallets, stored, undated } = await db.tx((q) => storeActivity(q, positions));
    for (const w of wallets) result.wallets.add(w);
    result.records += stored;
    result.recordsWithoutTime += undated;
  }

  for (const f of files) {
    if (f.kind === 'blocks') continue;
    const rel = path.relative(root, f.file);
    const prev = done.get(rel);
    if (prev?.completed) {
      result.files.push({ file: rel, kind: f.kind, rows: prev.linesDone, resumedAt: prev.linesDone, skipped: true });
      continue;
    }
    let offset = prev?.linesDone ?? 0;
    const total = opts.progress ? await countRows(f.file) : 0;
    opts.progress?.start(`${f.kind} ${rel}`, total, offset);
    const entry = { file: rel, kind: f.kind, rows: offset, resumedAt: offset, skipped: false };
    // each batch is written while the next ones are read and decoded, up to `writers` batches at once; the offset
    // is saved once a batch and every batch before it are stored (writeQueue), so a resume never skips a batch
    const writes = writeQueue(writers);
    for await (const { rows, consumed } of readRows(f.file, offset, batchSize)) {
      try {
        checkIntegerFields(rows, f.kind, rel, offset + 1 + (/\.csv$/i.test(f.file) ? 1 : 0));
      } catch (e) {
        await writes.drain(); // the batches before it are kept (a run after the fix resumes from them)
        throw e;
      }
      let records: ActivityRecord[] = [];
      const nonces = new Map<string, number>();
      if (f.kind === 'transactions') records = transactionRecords(rows, chainId, timeOf, nonces, deployers, baseFees);
      else if (f.kind === 'logs') {
        const prices = await pricesForLogs(
          opts.prices,
          rows.flatMap((r) => rawLog(r, timeOf) ?? []),
          { chainId, pools },
        );
        records = rows.flatMap((r) => logRecords(r, { chainId, pools, dropped: result.dropped, prices }, timeOf, senders));
      }
      // token transfers already stored as logs are left out by the write itself (writer.ts)
      else records = rows.flatMap((r) => tokenTransferRecords(r, chainId, timeOf, senders));
      const skipStoredLogs = f.kind === 'token_transfers';
      offset += consumed;
      const end = offset;
      await writes.push(
        async () => {
          const { wallets, stored, undated } = await db.tx(async (q) => {
            const s = await storeActivity(q, records, { skipStoredLogs });
            if (nonces.size) await repo.recordNonces(nonces, chainId, q);
            return s;
          });
          for (const w of wallets) result.wallets.add(w);
          for (const w of nonces.keys()) result.wallets.add(w);
          result.records += stored;
          result.recordsWithoutTime += undated;
        },
        async () => {
          await repo.saveImportProgress(source, rel, end, false);
          entry.rows = end;
          opts.progress?.update(end);
        },
      );
    }
    await writes.drain();
    await repo.saveImportProgress(source, rel, offset, true);
    opts.progress?.stop();
    result.files.push(entry);
  }
  return result;
}

/** The contract a creating transaction made (its receipt's, else the CREATE address of its sender and nonce). */
function createdBy(r: Row): string | null {
  const from = str(r.from_address)?.toLowerCase();
  const nonce = num(r.nonce);
  return (
    str(r.receipt_contract_address)?.toLowerCase() ??
    (from && nonce !== null ? getContractAddress({ from: from as `0x${string}`, nonce: BigInt(nonce) }).toLowerCase() : null)
  );
}

function transactionRecords(
  rows: Row[],
  chainId: number,
  timeOf: (r: Row) => Date | null,
  nonces: Map<string, number>,
  deployers: Map<string, string>,
  baseFees: Map<number, bigint>,
): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const r of rows) {
    const from = str(r.from_address)?.toLowerCase();
    const hash = str(r.hash)?.toLowerCase();
    if (!from || !hash) continue;
    const nonce = num(r.nonce);
    if (nonce !== null) nonces.set(from, Math.max(nonces.get(from) ?? 0, nonce + 1));
    // what the sender paid for it (exports with receipts): backs the category its evidence belongs to
    const gasUsed = bigOrNull(r.receipt_gas_used);
    const gasPrice = bigOrNull(r.receipt_effective_gas_price) ?? bigOrNull(r.gas_price);
    if (gasUsed !== null && gasPrice !== null) {
      const fee = txFeeRecord({
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
      if (fee) out.push(fee);
    }
    if (num(r.receipt_status) === 0) continue; // failed: no value moved, nothing deployed
    const to = str(r.to_address)?.toLowerCase() ?? null;
    const block = Number(r.block_number);
    const at = timeOf(r);
    const value = str(r.value) ?? '0';
    if (!to) {
      const created = createdBy(r);
      if (created) out.push(deploymentRecord(chainId, from, created, block, at, true));
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

type LogCtx = { chainId: number; pools: Map<string, PoolInfo | null>; dropped: DropCounter; prices?: PriceLookup };

function rawLog(r: Row, timeOf: (r: Row) => Date | null) {
  const txHash = str(r.transaction_hash);
  const address = str(r.address);
  if (!txHash || !address) return null;
  return {
    address,
    topics: topicsOf(r.topics),
    data: str(r.data) ?? '0x',
    transactionHash: txHash,
    logIndex: Number(r.log_index),
    blockNumber: Number(r.block_number),
    timestamp: timeOf(r),
  };
}

function logRecords(r: Row, ctx: LogCtx, timeOf: (r: Row) => Date | null, senders: Map<string, string>): ActivityRecord[] {
  const log = rawLog(r, timeOf);
  return log ? decodeLog(log, { ...ctx, txFrom: senders.get(log.transactionHash.toLowerCase()) ?? null }) : [];
}

/**
 * What must be known of the whole export before its logs are decoded, in two passes over the logs (and
 * token_transfers) whatever their number; the passes read only ids, addresses and topics (no exact big integers):
 * - Morpho markets and V4 pool keys by id, cToken exchange rates: learned from the export's own CreateMarket,
 *   Initialize, Mint and Redeem logs (registry/markets.ts).
 * - The swap emitters that are real Uniswap pools. A pool's pair is not in its Swap event: it is inferred from the
 *   same transaction's token transfers into or out of the pool, and the pool counts only if the factory's CREATE2
 *   address for that pair (and a V3 fee tier) is the pool's own address.
 * - The `lp_position` records (positions.ts): the transactions in which the pinned position manager minted a
 *   position, then all of those transactions' logs.
 * The second pass keeps in memory only the transactions that swapped or minted.
 */
async function scanLogs(
  files: { file: string; kind: FileKind }[],
  chainId: number,
  senders: Map<string, string>,
  timeOf: (r: Row) => Date | null,
): Promise<{ pools: Map<string, PoolInfo | null>; positions: ActivityRecord[] }> {
  const logFiles = files.filter((f) => f.kind === 'logs');
  const protocolOf = new Map<string, 'uniswap-v2' | 'uniswap-v3'>();
  const poolsInTx = new Map<string, Set<string>>();
  const minting = new Set<string>();
  for (const f of logFiles) {
    for await (const { rows } of readRows(f.file, 0, 5000, { exactIntegers: false })) {
      learnFromLogs(
        chainId,
        rows.flatMap((r) => rawLog(r, () => null) ?? []),
      );
      for (const r of rows) {
        const topics = topicsOf(r.topics);
        const tx = str(r.transaction_hash)?.toLowerCase();
        const address = str(r.address);
        if (!tx || !address) continue;
        if (positionMintRecipient(chainId, { address, topics })) minting.add(tx);
        const t0 = topics[0]?.toLowerCase();
        const protocol = t0 ? SWAP_TOPICS.get(t0) : undefined;
        if (!protocol) continue;
        const pool = address.toLowerCase();
        protocolOf.set(pool, protocol);
        const set = poolsInTx.get(tx) ?? new Set<string>();
        set.add(pool);
        poolsInTx.set(tx, set);
      }
    }
  }
  const candidates = new Map<string, Set<string>>();
  const note = (tx: string | undefined, token: string | null, from: string | null, to: string | null) => {
    const inTx = tx ? poolsInTx.get(tx) : undefined;
    if (!inTx || !token) return;
    for (const pool of inTx) {
      if (pool !== from && pool !== to) continue;
      const set = candidates.get(pool) ?? new Set<string>();
      set.add(token);
      candidates.set(pool, set);
    }
  };
  const byTx = new Map<string, RawLog[]>();
  if (poolsInTx.size || minting.size) {
    for (const f of files.filter((x) => x.kind === 'logs' || (poolsInTx.size && x.kind === 'token_transfers'))) {
      for await (const { rows } of readRows(f.file, 0, 5000, { exactIntegers: false })) {
        for (const r of rows) {
          const tx = str(r.transaction_hash)?.toLowerCase();
          if (f.kind === 'token_transfers') {
            note(
              tx,
              str(r.token_address)?.toLowerCase() ?? null,
              str(r.from_address)?.toLowerCase() ?? null,
              str(r.to_address)?.toLowerCase() ?? null,
            );
            continue;
          }
          const topics = topicsOf(r.topics);
          const address = str(r.address);
          if (tx && address && minting.has(tx)) {
            const list = byTx.get(tx) ?? [];
            list.push({
              address,
              topics,
              data: str(r.data) ?? '0x',
              transactionHash: tx,
              logIndex: Number(r.log_index),
              blockNumber: Number(r.block_number),
              timestamp: timeOf(r),
            });
            byTx.set(tx, list);
          }
          if (topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
          note(tx, address?.toLowerCase() ?? null, `0x${topics[1].slice(26)}`.toLowerCase(), `0x${topics[2].slice(26)}`.toLowerCase());
        }
      }
    }
  }
  const pools = new Map<string, PoolInfo | null>();
  for (const [pool, protocol] of protocolOf) pools.set(pool, derivePool(chainId, protocol, pool, candidates.get(pool) ?? []));
  const positions = [...byTx].flatMap(([hash, logs]) => positionRecords(chainId, { hash, from: senders.get(hash) ?? null, logs }));
  return { pools, positions };
}

/** A value of an export that is not an exact integer (a value that went through floating point), named by file, line and field. */
export class EtlFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EtlFieldError';
  }
}

/** The integer fields read as BigInt (wei, gas): a float such as 1.5018869857704244e+29 has lost digits. */
const INTEGER_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['value', 'gas', 'gas_price', 'receipt_gas_used', 'receipt_effective_gas_price'],
  token_transfers: ['value'],
};
const EXACT_INTEGER = /^(?:\d+|0x[0-9a-fA-F]+)$/;

function checkIntegerFields(rows: Row[], kind: string, file: string, firstLine: number) {
  const fields = INTEGER_FIELDS[kind];
  if (!fields) return;
  rows.forEach((r, i) => {
    for (const field of fields) {
      const v = str(r[field]);
      if (v !== null && !EXACT_INTEGER.test(v)) {
        throw new EtlFieldError(
          `${file}, line ${firstLine + i}: field "${field}" is ${v.length > 60 ? `${v.slice(0, 60)}…` : v}, not an exact integer. ` +
            'Amounts must be written as integers (as ethereum-etl writes them); a tool that round-tripped the file through floating-point ' +
            'numbers (e.g. 1.5018869857704244e+29) has lost digits: export again, or convert the field to integers. The import stopped before ' +
            "this line's batch; what was imported is kept and running it again resumes there.",
        );
      }
    }
  });
}

/** A token_transfers row is the decoded form of an ERC-20 Transfer log: re-encoded and decoded like any log. */
function tokenTransferRecords(r: Row, chainId: number, timeOf: (r: Row) => Date | null, senders: Map<string, string>): ActivityRecord[] {
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
    { chainId, txFrom: senders.get(txHash.toLowerCase()) ?? null },
  );
}
