// Bulk import of ethereum-etl exports (transactions, logs, token_transfers; CSV or JSON lines). Logs go through
// the same decoder as the JSON-RPC path. The export is read and decoded on a thread of its own (thread.ts) while
// this one writes. Each batch's records are written in one transaction (on
// PostgreSQL two batches at once, on their own connections), and the file's row offset after it once it and every
// batch before it are stored: an interrupted import resumes at or before where it stopped (a batch stored but not
// yet counted in the offset is read again and its records left out as stored), and a repeated one changes nothing.
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../../../platform/db/types.js';
import type { IngestionRepo } from '../repo.js';
import { newDropCounter, type DropCounter } from '../registry/gate.js';
import type { PriceReader } from '../pricing/index.js';
import { countRows } from './reader.js';
import { exportBatches, type BatchEvent, type ExportSpec } from './batches.js';
import { workerBatches } from './thread.js';

export { EtlFieldError } from './fields.js';
import { KINDS, type FileKind } from './scan.js';
import { storeActivity, writeQueue } from './writer.js';
import { insertCopied, type DirectCopy } from './copy-insert.js';

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
  /** read and decode on a thread of its own (default; with `prices` never): its young generation is sized for the
   *  decoding's garbage (thread.ts), which made it the faster path on two cores too */
  decodeThread?: boolean;
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

/** One import: what every step reads, and the result it adds to. */
interface EtlRun {
  db: Db;
  repo: IngestionRepo;
  opts: EtlImportOptions;
  chainId: number;
  /** the import's name in the progress table */
  source: string;
  writers: number;
  /** the export's next batch or file end (batches.ts), from the decoding thread or this one */
  next: () => Promise<IteratorResult<BatchEvent>>;
  result: EtlImportResult;
  /** batches copied straight into wallet_activity while they hold no stored rows (copy-insert.ts) */
  direct: DirectCopy;
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

  const todo = files
    .filter((f) => f.kind !== 'blocks')
    .map((f) => ({ ...f, rel: path.relative(root, f.file), prev: done.get(path.relative(root, f.file)) }));
  const spec: ExportSpec = {
    chainId,
    batchSize,
    files,
    copy: false,
    todo: todo.filter((f) => !f.prev?.completed).map((f) => ({ file: f.file, kind: f.kind, rel: f.rel, offset: f.prev?.linesDone ?? 0 })),
  };
  // oracle prices are read over the main thread's JSON-RPC client: with them the export is decoded here
  // on PostgreSQL the decoding thread also writes the batches as COPY's text (this thread only sends them) while this
  // one runs the pre-pass over the logs (thread.ts): the writes leave it mostly idle
  const events =
    !(opts.decodeThread ?? true) || opts.prices
      ? exportBatches(spec, result.dropped, opts.prices)
      : workerBatches({ ...spec, copy: db.kind === 'postgres', scanOnImporter: db.kind === 'postgres' }, result.dropped);
  // the export's batches; the Uniswap V3 positions minted to wallets that paid for them (the pre-pass over whole
  // transactions), which come between two files, are stored as they come
  const next = async (): Promise<IteratorResult<BatchEvent>> => {
    for (;;) {
      const ev = await events.next();
      if (ev.done || ev.value.type !== 'positions') return ev;
      const positions = ev.value.records;
      if (positions.length) addStored(result, await db.tx((q) => storeActivity(q, positions)));
    }
  };
  try {
    const run: EtlRun = { db, repo, opts, chainId, source, writers, next, result, direct: { misses: 0 } };
    for (const f of todo) result.files.push(await importFile(run, f));
    // to the end: the decoding thread's drop counts come with its last event
    while (!(await next()).done);
  } finally {
    await events.return(undefined);
  }
  return result;
}

/** Attempts of a batch's transaction that a deadlock aborted before the import gives up. */
const DEADLOCK_ATTEMPTS = 5;

/**
 * A batch's transaction, again (staged, never straight in) if PostgreSQL broke a deadlock by aborting it. Staged
 * batches take their rows in key order and never wait on each other in a cycle, but a batch COPYed straight in takes
 * them in the export's order: two writers with rows in common (an export that repeats rows, a sync of the same
 * wallets) can each hold a row the other waits for. One is aborted; its rolled-back transaction is simply run again.
 */
async function retryDeadlocks<T>(run: EtlRun, write: (direct: DirectCopy | undefined) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write(attempt === 1 ? run.direct : undefined);
    } catch (e) {
      if ((e as { code?: string }).code !== '40P01' || attempt >= DEADLOCK_ATTEMPTS) throw e;
      run.direct.misses++;
    }
  }
}

/** What one write stored, added to the import's result. */
function addStored(result: EtlImportResult, s: { wallets: Set<string>; stored: number; undated: number }): void {
  for (const w of s.wallets) result.wallets.add(w);
  result.records += s.stored;
  result.recordsWithoutTime += s.undated;
}

/** One file from its saved offset, batch by batch; its line in the result. */
async function importFile(
  run: EtlRun,
  f: { file: string; kind: FileKind; rel: string; prev?: { linesDone: number; completed: boolean } },
): Promise<EtlImportResult['files'][number]> {
  const { db, repo, opts, chainId, source, result } = run;
  const { rel, prev } = f;
  if (prev?.completed) return { file: rel, kind: f.kind, rows: prev.linesDone, resumedAt: prev.linesDone, skipped: true };
  let offset = prev?.linesDone ?? 0;
  const total = opts.progress ? await countRows(f.file) : 0;
  opts.progress?.start(`${f.kind} ${rel}`, total, offset);
  const entry = { file: rel, kind: f.kind, rows: offset, resumedAt: offset, skipped: false };
  // each batch is written while the next ones are read and decoded, up to `writers` batches at once; the offset
  // is saved once a batch and every batch before it are stored (writeQueue), so a resume never skips a batch
  const writes = writeQueue(run.writers);
  // token transfers already stored as logs are left out by the write itself (writer.ts)
  const skipStoredLogs = f.kind === 'token_transfers';
  try {
    for (let ev = await run.next(); !ev.done && ev.value.type === 'batch'; ev = await run.next()) {
      const { records, copy, nonces, consumed, summary } = ev.value;
      offset += consumed;
      const end = offset;
      await writes.push(
        async () => {
          const write = (direct: DirectCopy | undefined) =>
            db.tx(async (q) => {
              const s =
                copy !== undefined
                  ? await insertCopied(q, copy, { skipStoredLogs, direct }, summary)
                  : await storeActivity(q, records ?? [], { skipStoredLogs });
              if (nonces.size) await repo.recordNonces(nonces, chainId, q);
              return s;
            });
          const stored = await retryDeadlocks(run, write);
          addStored(result, stored);
          for (const w of nonces.keys()) result.wallets.add(w);
        },
        async () => {
          await repo.saveImportProgress(source, rel, end, false);
          entry.rows = end;
          opts.progress?.update(end);
        },
      );
    }
  } catch (e) {
    await writes.drain(); // the batches before a bad line are kept (a run after the fix resumes from them)
    throw e;
  }
  await writes.drain();
  await repo.saveImportProgress(source, rel, offset, true);
  opts.progress?.stop();
  return entry;
}
