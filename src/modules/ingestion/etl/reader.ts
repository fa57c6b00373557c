// Reads ethereum-etl export files row by row: JSON lines (one object per line, big integers kept exact) or CSV
// with a header row. Rows are yielded in batches with the count of rows consumed, so an import can record its
// offset after each batch and resume from it.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';

export type Row = Record<string, string | number | boolean | null | string[] | undefined>;

/** Quotes integer literals too long for a double, so JSON.parse keeps them exact (values, gas prices). */
const BIG_INT = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

export function parseJsonLine(line: string): Row {
  return JSON.parse(line.replace(BIG_INT, '$1"$2"')) as Row;
}

/**
 * `exactIntegers: false` (a pass that reads only ids, addresses and topics) parses JSON lines as they are: the
 * quoting of long integer literals is most of the cost of reading a line.
 */
export async function* readRows(
  file: string,
  skip: number,
  batchSize: number,
  opts: { exactIntegers?: boolean } = {},
): AsyncGenerator<{ rows: Row[]; consumed: number }> {
  const parseLine = opts.exactIntegers === false ? (line: string) => JSON.parse(line) as Row : parseJsonLine;
  const csv = /\.csv$/i.test(file);
  let index = 0;
  let batch: Row[] = [];
  let consumed = 0;
  const source: AsyncIterable<Row | string> = csv
    ? createReadStream(file).pipe(parse({ columns: true, skip_empty_lines: true, relax_column_count: true }))
    : createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const item of source) {
    if (typeof item === 'string' && !item.trim()) continue;
    index++;
    if (index <= skip) continue;
    batch.push(typeof item === 'string' ? parseLine(item) : item);
    consumed++;
    if (batch.length >= batchSize) {
      yield { rows: batch, consumed };
      batch = [];
      consumed = 0;
    }
  }
  if (batch.length || consumed) yield { rows: batch, consumed };
}

/** Counts the rows of a file (for the progress bar's total): JSON lines are counted, not parsed. */
export async function countRows(file: string): Promise<number> {
  let n = 0;
  if (/\.csv$/i.test(file)) {
    for await (const b of readRows(file, 0, 5000)) n += b.consumed;
    return n;
  }
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) if (line.trim()) n++;
  return n;
}

export const str = (v: unknown): string | null => (v === undefined || v === null || v === '' ? null : String(v));
export const num = (v: unknown): number | null => (str(v) === null ? null : Number(v));

/** ethereum-etl writes topics as a JSON array, or in CSV as one comma-separated string. */
export function topicsOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  const s = str(v);
  if (!s) return [];
  if (s.startsWith('[')) return (JSON.parse(s) as string[]).map(String);
  return s
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}
