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
import { decodeLog, deploymentRecord, type ActivityRecord } from '../decode.js';
import { ZERO_ADDRESS } from '../events.js';
import type { IngestionRepo } from '../repo.js';
import { newDropCounter, type DropCounter, type PoolInfo } from '../registry/gate.js';
import { pricesForLogs, type PriceLookup, type PriceReader } from '../pricing/index.js';
import { isPositionManager } from '../registry/index.js';
import { countRows, num, readRows, str, type Row } from './reader.js';
import { checkIntegerFields } from './fields.js';

export { EtlFieldError } from './fields.js';
import { KINDS, rawLog, scanLogs, TRANSFER_TOPIC, type FileKind } from './scan.js';
import { storeActivity, writeQueue } from './writer.js';

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

/** What the blocks and transactions files tell of the whole export. */
interface ExportIndex {
  /** block times, to date logs */
  times: Map<number, Date>;
  /** base fee per block (blocks files): a transaction's fee counts at most that per gas (tx-fees.ts) */
  baseFees: Map<number, bigint>;
  /** transaction senders, to credit swaps to the account that sent them */
  senders: Map<string, string>;
  /** contracts created in the export, and by whom: a third party's call to one is what the deployment weighs */
  deployers: Map<string, string>;
}

/** One import: what every step reads, and the result it adds to. */
interface EtlRun {
  db: Db;
  repo: IngestionRepo;
  opts: EtlImportOptions;
  chainId: number;
  root: string;
  /** the import's name in the progress table */
  source: string;
  batchSize: number;
  writers: number;
  index: ExportIndex;
  timeOf: (r: Row) => Date | null;
  pools: Map<string, PoolInfo | null>;
  result: EtlImportResult;
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

  const index = await indexExport(files);
  const timeOf = (r: Row) => {
    const ts = num(r.block_timestamp);
    return ts !== null ? new Date(ts * 1000) : (index.times.get(Number(r.block_number)) ?? null);
  };

  // Swap pools, and Uniswap V3 positions minted to wallets that paid for them (read from whole transactions, so
  // before the batches)
  const { pools, positions } = await scanLogs(files, chainId, index.senders, timeOf);
  if (positions.length) {
    const { wallets, stored, undated } = await db.tx((q) => storeActivity(q, positions));
    for (const w of wallets) result.wallets.add(w);
    result.records += stored;
    result.recordsWithoutTime += undated;
  }

  const run: EtlRun = { db, repo, opts, chainId, root, source, batchSize, writers, index, timeOf, pools, result };
  for (const f of files) {
    if (f.kind === 'blocks') continue;
    result.files.push(await importFile(run, f, done.get(path.relative(root, f.file))));
  }
  return result;
}

/** Block times and base fees, transaction senders and the contracts the export's transactions created. */
async function indexExport(files: { file: string; kind: FileKind }[]): Promise<ExportIndex> {
  const index: ExportIndex = { times: new Map(), baseFees: new Map(), senders: new Map(), deployers: new Map() };
  for (const f of files.filter((x) => x.kind === 'blocks' || x.kind === 'transactions')) {
    for await (const { rows } of readRows(f.file, 0, 5000)) {
      for (const r of rows) {
        const block = num(f.kind === 'blocks' ? r.number : r.block_number);
        const ts = num(f.kind === 'blocks' ? r.timestamp : r.block_timestamp);
        if (block !== null && ts !== null) index.times.set(block, new Date(ts * 1000));
        const baseFee = f.kind === 'blocks' ? bigOrNull(r.base_fee_per_gas) : null;
        if (block !== null && baseFee !== null) index.baseFees.set(block, baseFee);
        if (f.kind === 'transactions' && str(r.hash) && str(r.from_address))
          index.senders.set(String(r.hash).toLowerCase(), String(r.from_address).toLowerCase());
        const created = f.kind === 'transactions' && !str(r.to_address) && num(r.receipt_status) !== 0 ? createdBy(r) : null;
        if (created) index.deployers.set(created, String(r.from_address).toLowerCase());
      }
    }
  }
  return index;
}

/** One file from its saved offset, batch by batch; its line in the result. */
async function importFile(
  run: EtlRun,
  f: { file: string; kind: FileKind },
  prev: { linesDone: number; completed: boolean } | undefined,
): Promise<EtlImportResult['files'][number]> {
  const { db, repo, opts, chainId, source, result } = run;
  const rel = path.relative(run.root, f.file);
  if (prev?.completed) return { file: rel, kind: f.kind, rows: prev.linesDone, resumedAt: prev.linesDone, skipped: true };
  let offset = prev?.linesDone ?? 0;
  const total = opts.progress ? await countRows(f.file) : 0;
  opts.progress?.start(`${f.kind} ${rel}`, total, offset);
  const entry = { file: rel, kind: f.kind, rows: offset, resumedAt: offset, skipped: false };
  // each batch is written while the next ones are read and decoded, up to `writers` batches at once; the offset
  // is saved once a batch and every batch before it are stored (writeQueue), so a resume never skips a batch
  const writes = writeQueue(run.writers);
  for await (const { rows, consumed } of readRows(f.file, offset, run.batchSize)) {
    try {
      checkIntegerFields(rows, f.kind, rel, offset + 1 + (/\.csv$/i.test(f.file) ? 1 : 0));
    } catch (e) {
      await writes.drain(); // the batches before it are kept (a run after the fix resumes from them)
      throw e;
    }
    const nonces = new Map<string, number>();
    const records = await batchRecords(run, f.kind, rows, nonces);
    // token transfers already stored as logs are left out by the write itself (writer.ts)
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
  return entry;
}

/** A batch's records (and its senders' nonces, for a transactions file). */
async function batchRecords(run: EtlRun, kind: FileKind, rows: Row[], nonces: Map<string, number>) {
  const { chainId, timeOf, pools, index } = run;
  if (kind === 'transactions') return transactionRecords(rows, chainId, timeOf, nonces, index);
  if (kind === 'logs') {
    const prices = await pricesForLogs(
      run.opts.prices,
      rows.flatMap((r) => rawLog(r, timeOf) ?? []),
      { chainId, pools },
    );
    return rows.flatMap((r) => logRecords(r, { chainId, pools, dropped: run.result.dropped, prices }, timeOf, index.senders));
  }
  return rows.flatMap((r) => tokenTransferRecords(r, chainId, timeOf, index.senders));
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

/** A transactions batch's records: what each sender paid, the contracts deployed and used, native transfers; and
 *  each sender's next nonce (in `nonces`). */
function transactionRecords(
  rows: Row[],
  chainId: number,
  timeOf: (r: Row) => Date | null,
  nonces: Map<string, number>,
  { deployers, baseFees }: Pick<ExportIndex, 'deployers' | 'baseFees'>,
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

/** What the sender paid for the transaction (exports with receipts): backs the category its evidence belongs to. */
function feeRecord(
  r: Row,
  chainId: number,
  from: string,
  hash: string,
  timeOf: (r: Row) => Date | null,
  baseFees: Map<number, bigint>,
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

function logRecords(r: Row, ctx: LogCtx, timeOf: (r: Row) => Date | null, senders: Map<string, string>): ActivityRecord[] {
  const log = rawLog(r, timeOf);
  return log ? decodeLog(log, { ...ctx, txFrom: senders.get(log.transactionHash.toLowerCase()) ?? null }) : [];
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
