// An export read and decoded into what the import writes, in order: the position records found by the pre-pass
// over the logs, then each file's batches from its saved offset. Runs in a worker thread (worker.ts) or, when the
// logs need the main thread's oracle prices, in the importing thread itself; the writes stay with the importer.
import type { ActivityRecord, RawLog } from '../decode.js';
import type { DropCounter } from '../registry/gate.js';
import type { PriceReader } from '../pricing/index.js';
import { copyLines } from './copy-insert.js';
import { checkIntegerFields } from './fields.js';
import { num, readRows, type Row } from './reader.js';
import { batchRecords, indexExport } from './records.js';
import { scanLogs, type FileKind } from './scan.js';

export interface ExportSpec {
  chainId: number;
  batchSize: number;
  /** every file of the export (blocks too: the index reads them) */
  files: { file: string; kind: FileKind }[];
  /** batches as COPY's text (PostgreSQL: copy-insert.ts) instead of records: made here, not by the writing thread */
  copy: boolean;
  /** the files to import, each from its saved offset (as the progress table names it: `rel`) */
  todo: { file: string; kind: FileKind; rel: string; offset: number }[];
}

export type BatchEvent =
  /** and the logs the registry learned markets from (registry/markets.ts): the importing thread learns them too */
  | { type: 'positions'; records: ActivityRecord[]; learned: RawLog[] }
  | { type: 'batch'; nonces: Map<string, number>; consumed: number; records?: ActivityRecord[]; copy?: string }
  /** the file's batches are all given; the next event belongs to the next file of `todo` */
  | { type: 'file-end' };

/** The export's records, batch by batch. A value that is not an exact integer (EtlFieldError) ends it at its batch. */
export async function* exportBatches(spec: ExportSpec, dropped: DropCounter, prices?: PriceReader): AsyncGenerator<BatchEvent> {
  const { chainId } = spec;
  const index = await indexExport(spec.files);
  const timeOf = (r: Row) => {
    const ts = num(r.block_timestamp);
    return ts !== null ? new Date(ts * 1000) : (index.times.get(Number(r.block_number)) ?? null);
  };
  // Swap pools, and Uniswap V3 positions minted to wallets that paid for them (read from whole transactions, so
  // before the batches)
  const { pools, positions, learned } = await scanLogs(spec.files, chainId, index.senders, timeOf);
  yield { type: 'positions', records: positions, learned };
  const ctx = { chainId, index, timeOf, pools, dropped, prices };
  for (const f of spec.todo) {
    let line = f.offset + 1 + (/\.csv$/i.test(f.file) ? 1 : 0);
    for await (const { rows, consumed } of readRows(f.file, f.offset, spec.batchSize)) {
      checkIntegerFields(rows, f.kind, f.rel, line);
      line += consumed;
      const nonces = new Map<string, number>();
      const records = await batchRecords(ctx, f.kind, rows, nonces);
      yield { type: 'batch', nonces, consumed, ...(spec.copy ? { copy: copyLines(records) } : { records }) };
    }
    yield { type: 'file-end' };
  }
}
