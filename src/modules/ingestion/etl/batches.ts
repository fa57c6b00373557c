// An export read and decoded into what the import writes, in order: each file's batches from its saved offset, with
// the position records found by the pre-pass over the logs after the transactions files'. Runs in a worker thread
// (worker.ts) or, when the logs need the main thread's oracle prices, in the importing thread itself; the writes stay
// with the importer.
import type { ActivityRecord, RawLog } from '../decode.js';
import type { DropCounter } from '../registry/gate.js';
import type { PriceReader } from '../pricing/index.js';
import { copyLines, type CopySummary } from './copy-insert.js';
import { checkIntegerFields } from './fields.js';
import { LogKeys } from './log-keys.js';
import { readRows, type Row } from './reader.js';
import { batchRecords, indexExport, type BatchContext } from './records.js';
import { mintedPositions, rowTime, scanLogs, type FileKind, type ScanResult } from './scan.js';
import { learnFromLogs } from '../registry/markets.js';

export interface ExportSpec {
  chainId: number;
  batchSize: number;
  /** every file of the export (blocks too: the index reads them) */
  files: { file: string; kind: FileKind }[];
  /** batches as COPY's text (PostgreSQL: copy-insert.ts) instead of records: made here, not by the writing thread */
  copy: boolean;
  /** with a decoding thread: the pre-pass over the logs runs on the importing thread meanwhile (thread.ts) */
  scanOnImporter?: boolean;
  /** the files to import, each from its saved offset (as the progress table names it: `rel`) */
  todo: { file: string; kind: FileKind; rel: string; offset: number }[];
}

export type BatchEvent =
  /** after the transactions files' batches, before any other: the position records found by the pre-pass, and the
   *  logs the registry learned markets from (registry/markets.ts): the importing thread learns them too */
  | { type: 'positions'; records: ActivityRecord[]; learned: RawLog[] }
  | {
      type: 'batch';
      nonces: Map<string, number>;
      consumed: number;
      records?: ActivityRecord[];
      copy?: Uint8Array;
      /** what `copy` holds: the wallets, records and undated records (copy-insert.ts's direct COPY) */
      summary?: CopySummary;
    }
  /** the file's batches are all given; the next event belongs to the next file of `todo` */
  | { type: 'file-end' };

/** rows decoded at a time within a batch */
const SLICE = 1000;

const newBatch = () => ({
  nonces: new Map<string, number>(),
  consumed: 0,
  copy: [] as Buffer[],
  records: [] as ActivityRecord[],
  wallets: new Set<string>(),
  count: 0,
  undated: 0,
});

/** A batch's event; its COPY bytes in one buffer of their own (transferred, not copied, to the importing thread). */
function batchEvent(b: ReturnType<typeof newBatch>, copy: boolean): BatchEvent {
  if (!copy) return { type: 'batch', nonces: b.nonces, consumed: b.consumed, records: b.records };
  const bytes = new Uint8Array(b.copy.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of b.copy) {
    bytes.set(c, at);
    at += c.length;
  }
  const summary = { wallets: [...b.wallets], records: b.count, undated: b.undated };
  return { type: 'batch', nonces: b.nonces, consumed: b.consumed, copy: bytes, summary };
}

/**
 * The records but those repeating an earlier one's key (chain, transaction, log index, wallet, kind) among the records
 * of the same log, which come together: the first is the one the database keeps either way (copy-insert.ts), and a
 * batch without repeats can be copied straight into wallet_activity. A repeat further apart stays: its batch's
 * direct COPY fails and the staged INSERT leaves it out.
 */
function withoutRepeats(records: ActivityRecord[]): ActivityRecord[] {
  let out: ActivityRecord[] | null = null;
  let start = 0; // first record of the current log
  for (let i = 1; i < records.length; i++) {
    const r = records[i];
    const head = records[start];
    if (r.txHash !== head.txHash || r.logIndex !== head.logIndex || r.chainId !== head.chainId) {
      start = i;
      out?.push(r);
      continue;
    }
    let repeat = false;
    for (let j = start; j < i && !repeat; j++) repeat = records[j].wallet === r.wallet && records[j].kind === r.kind;
    if (repeat) out ??= records.slice(0, i);
    else out?.push(r);
  }
  return out ?? records;
}

/**
 * The export's records, batch by batch. A value that is not an exact integer (EtlFieldError) ends it at its batch.
 * The pre-pass over the logs (scan.ts) runs while the transactions files' batches are decoded and written (they need
 * only the index): the database takes them while this thread reads the logs, instead of waiting for both.
 */
export async function* exportBatches(
  spec: ExportSpec,
  dropped: DropCounter,
  prices?: PriceReader,
  /** the pre-pass's result from the thread that ran it (thread.ts); without it the pre-pass runs here */
  scannedElsewhere?: Promise<ScanResult>,
): AsyncGenerator<BatchEvent> {
  const { chainId } = spec;
  const stop = new AbortController();
  // Swap pools, and Uniswap V3 positions minted to wallets that paid for them (read from whole transactions)
  const scan = scannedElsewhere ?? scanLogs(spec.files, chainId, stop.signal);
  scan.catch(() => undefined); // its failure is thrown where it is awaited (below), not as an unhandled rejection
  const index = await indexExport(spec.files);
  const timeOf = (r: Row) => rowTime(r) ?? index.times.get(Number(r.block_number)) ?? null;
  const ctx: BatchContext = { chainId, index, timeOf, pools: new Map(), dropped, prices, logKeys: new LogKeys(), deployed: new Set() };
  let scanned = false;
  async function* scanResult(): AsyncGenerator<BatchEvent> {
    const { pools, minted, learned } = await scan;
    // what the registry of the thread that scanned learned from the export, this one's learns before decoding
    if (scannedElsewhere) learnFromLogs(chainId, learned);
    ctx.pools = pools;
    scanned = true;
    yield { type: 'positions', records: mintedPositions(chainId, minted, index.senders, index.times), learned };
  }
  try {
    for (const f of spec.todo) {
      if (f.kind !== 'transactions' && !scanned) yield* scanResult();
      let line = f.offset + 1 + (/\.csv$/i.test(f.file) ? 1 : 0);
      // decoded a slice at a time, each slice's COPY text made bytes at once: what a batch holds while it is made
      // is its bytes, not its rows, records and strings (which the collector would copy at every scavenge)
      let batch = newBatch();
      for await (const { rows, consumed } of readRows(f.file, f.offset, SLICE)) {
        checkIntegerFields(rows, f.kind, f.rel, line);
        line += consumed;
        const records = await batchRecords(ctx, f.kind, rows, batch.nonces);
        if (spec.copy) {
          const kept = withoutRepeats(records);
          batch.copy.push(Buffer.from(copyLines(kept), 'utf8'));
          for (const r of kept) {
            batch.wallets.add(r.wallet);
            if (!r.occurredAt) batch.undated++;
          }
          batch.count += kept.length;
        } else for (const r of records) batch.records.push(r);
        batch.consumed += consumed;
        if (batch.consumed >= spec.batchSize) {
          yield batchEvent(batch, spec.copy);
          batch = newBatch();
        }
      }
      if (batch.consumed) yield batchEvent(batch, spec.copy);
      yield { type: 'file-end' };
    }
    if (!scanned) yield* scanResult();
  } finally {
    stop.abort();
  }
}
