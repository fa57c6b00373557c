// Bulk import of ethereum-etl exports (transactions, logs, token_transfers; CSV or JSON lines). Logs go through
// the same decoder as the JSON-RPC path. Each batch's records and the file's row offset are written in one
// transaction, so an interrupted import resumes where it stopped and a repeated one changes nothing.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { getContractAddress, pad, toHex } from 'viem';
import type { Db } from '../../../platform/db/types.js';
import { decodeLog, deploymentRecord, type ActivityRecord } from '../decode.js';
import { EVENTS, ZERO_ADDRESS } from '../events.js';
import type { IngestionRepo } from '../repo.js';
import { countRows, num, readRows, str, topicsOf, type Row } from './reader.js';

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
}

export interface EtlImportResult {
  files: { file: string; kind: FileKind; rows: number; resumedAt: number; skipped: boolean }[];
  records: number;
  /** wallets that gained activity (their scores need recomputing) */
  wallets: Set<string>;
  recordsWithoutTime: number;
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

export async function importEthereumEtl(deps: { db: Db; repo: IngestionRepo }, dir: string, opts: EtlImportOptions): Promise<EtlImportResult> {
  const { db, repo } = deps;
  const chainId = opts.chainId;
  const batchSize = opts.batchSize ?? 2000;
  const root = realpathSync(dir);
  const source = `ethereum-etl:${chainId}:${root}`;
  const files = findExportFiles(root);
  if (!files.some((f) => f.kind !== 'blocks')) throw new Error(`no ethereum-etl transactions, logs or token_transfers files in ${dir}`);
  const done = await repo.importProgress(source);
  const result: EtlImportResult = { files: [], records: 0, wallets: new Set(), recordsWithoutTime: 0 };

  // Block times and transaction senders, needed to date logs and to credit swaps to the account that sent them.
  const times = new Map<number, Date>();
  const senders = new Map<string, string>();
  for (const f of files.filter((x) => x.kind === 'blocks' || x.kind === 'transactions')) {
    for await (const { rows } of readRows(f.file, 0, 5000)) {
      for (const r of rows) {
        const block = num(f.kind === 'blocks' ? r.number : r.block_number);
        const ts = num(f.kind === 'blocks' ? r.timestamp : r.block_timestamp);
        if (block !== null && ts !== null) times.set(block, new Date(ts * 1000));
        if (f.kind === 'transactions' && str(r.hash) && str(r.from_address)) senders.set(String(r.hash).toLowerCase(), String(r.from_address).toLowerCase());
      }
    }
  }
  const timeOf = (r: Row) => {
    const ts = num(r.block_timestamp);
    return ts !== null ? new Date(ts * 1000) : (times.get(Number(r.block_number)) ?? null);
  };

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
    for await (const { rows, consumed } of readRows(f.file, offset, batchSize)) {
      let records: ActivityRecord[] = [];
      const nonces = new Map<string, number>();
      if (f.kind === 'transactions') records = transactionRecords(rows, chainId, timeOf, nonces);
      else if (f.kind === 'logs') records = rows.flatMap((r) => logRecords(r, chainId, timeOf, senders));
      else records = await newTokenTransfers(db, chainId, rows.flatMap((r) => tokenTransferRecords(r, chainId, timeOf)));
      offset += consumed;
      const end = offset;
      const changed = await db.tx(async (q) => {
        const c = await repo.insertActivity(records, q);
        if (nonces.size) await repo.recordNonces(nonces, chainId, q);
        await repo.saveImportProgress(source, rel, end, false, q);
        return c;
      });
      for (const w of changed) result.wallets.add(w);
      for (const w of nonces.keys()) result.wallets.add(w);
      if (changed.size) {
        result.records += records.length;
        result.recordsWithoutTime += records.filter((r) => !r.occurredAt).length;
      }
      entry.rows = offset;
      opts.progress?.update(offset);
    }
    await repo.saveImportProgress(source, rel, offset, true);
    opts.progress?.stop();
    result.files.push(entry);
  }
  return result;
}

function transactionRecords(rows: Row[], chainId: number, timeOf: (r: Row) => Date | null, nonces: Map<string, number>): ActivityRecord[] {
  const out: ActivityRecord[] = [];
  for (const r of rows) {
    const from = str(r.from_address)?.toLowerCase();
    const hash = str(r.hash)?.toLowerCase();
    if (!from || !hash) continue;
    const nonce = num(r.nonce);
    if (nonce !== null) nonces.set(from, Math.max(nonces.get(from) ?? 0, nonce + 1));
    if (num(r.receipt_status) === 0) continue; // failed: no value moved, nothing deployed
    const to = str(r.to_address)?.toLowerCase() ?? null;
    const block = Number(r.block_number);
    const at = timeOf(r);
    const value = str(r.value) ?? '0';
    if (!to) {
      const created = str(r.receipt_contract_address)?.toLowerCase() ?? (nonce !== null ? getContractAddress({ from: from as `0x${string}`, nonce: BigInt(nonce) }).toLowerCase() : null);
      if (created) out.push(deploymentRecord(chainId, from, created, block, at, true));
      continue;
    }
    if (value === '0' || /^0+$/.test(value)) continue;
    const base = { chainId, txHash: hash, logIndex: -1, kind: 'transfer_native' as const, blockNumber: block, occurredAt: at, contract: null, tokenId: null, amount: value, protocol: null, ref: null };
    out.push({ ...base, wallet: from, direction: 'out', counterparty: to });
    if (to !== from) out.push({ ...base, wallet: to, direction: 'in', counterparty: from });
  }
  return out;
}

function logRecords(r: Row, chainId: number, timeOf: (r: Row) => Date | null, senders: Map<string, string>): ActivityRecord[] {
  const txHash = str(r.transaction_hash);
  const address = str(r.address);
  if (!txHash || !address) return [];
  return decodeLog(
    { address, topics: topicsOf(r.topics), data: str(r.data) ?? '0x', transactionHash: txHash, logIndex: Number(r.log_index), blockNumber: Number(r.block_number), timestamp: timeOf(r) },
    { chainId, txFrom: senders.get(txHash.toLowerCase()) ?? null },
  );
}

/** A token_transfers row is the decoded form of an ERC-20 Transfer log: re-encoded and decoded like any log. */
function tokenTransferRecords(r: Row, chainId: number, timeOf: (r: Row) => Date | null): ActivityRecord[] {
  const from = str(r.from_address) ?? ZERO_ADDRESS;
  const to = str(r.to_address) ?? ZERO_ADDRESS;
  const token = str(r.token_address);
  const txHash = str(r.transaction_hash);
  if (!token || !txHash) return [];
  const topics = [TRANSFER_TOPIC, pad(from as `0x${string}`), pad(to as `0x${string}`)];
  const data = pad(toHex(BigInt(str(r.value) ?? '0')));
  return decodeLog({ address: token, topics, data, transactionHash: txHash, logIndex: Number(r.log_index), blockNumber: Number(r.block_number), timestamp: timeOf(r) }, { chainId });
}

/** token_transfers repeat logs already decoded (which also know ERC-721 from ERC-20): keep only the others. */
async function newTokenTransfers(db: Db, chainId: number, records: ActivityRecord[]): Promise<ActivityRecord[]> {
  if (!records.length) return records;
  const rows = await db.query<{ tx_hash: string; log_index: number }>(
    `SELECT DISTINCT tx_hash, log_index FROM wallet_activity
     WHERE chain_id = $1 AND (tx_hash, log_index) IN (SELECT * FROM unnest($2::text[], $3::int[]))`,
    [chainId, records.map((r) => r.txHash), records.map((r) => r.logIndex)],
  );
  const seen = new Set(rows.map((r) => `${r.tx_hash}:${r.log_index}`));
  return records.filter((r) => !seen.has(`${r.txHash}:${r.logIndex}`));
}
