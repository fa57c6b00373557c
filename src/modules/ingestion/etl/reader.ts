// Reads ethereum-etl export files row by row: JSON lines (one object per line, big integers kept exact) or CSV
// with a header row. Rows are yielded in batches with the count of rows consumed, so an import can record its
// offset after each batch and resume from it.
import { isAscii } from 'node:buffer';
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';

export type Row = Record<string, string | number | boolean | null | string[] | undefined>;

/** Quotes integer literals too long for a double, so JSON.parse keeps them exact (values, gas prices). */
const BIG_INT = /([:[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g;

/**
 * A JSON line as an object, integers beyond 2^53 as their exact digits (strings). Most lines have none (logs): they
 * are parsed once as they are. A line with one has it re-read from its text by its key; anything less plain (a
 * nested object, a number in an array) goes through the quoting of every long literal.
 */
export function parseJsonLine(line: string): Row {
  const row = JSON.parse(line) as Row;
  for (const key in row) {
    const v = row[key];
    if (typeof v === 'number') {
      if (Number.isSafeInteger(v) || !Number.isInteger(v)) continue; // a float's digits are lost either way (fields.ts)
      const digits = literalOf(line, key);
      if (digits === null) return quotedParse(line);
      row[key] = digits;
    } else if (v !== null && typeof v === 'object' && !(Array.isArray(v) && v.every((x) => typeof x === 'string'))) {
      return quotedParse(line);
    }
  }
  return row;
}

const quotedParse = (line: string) => JSON.parse(line.replace(BIG_INT, '$1"$2"')) as Row;

/** The integer literal written for `key` (its last occurrence, as JSON.parse keeps), or null if not plainly there. */
function literalOf(line: string, key: string): string | null {
  const at = line.lastIndexOf(`${JSON.stringify(key)}:`);
  if (at < 0) return null;
  const m = /^\s*(-?\d+)(?=\s*[,}])/.exec(line.slice(at + key.length + 3, at + key.length + 3 + 100));
  return m ? m[1] : null;
}

const INPUT = '"input": "';

/** The line with its "input" string's text cut (when it is plainly there: no escape in it). */
function withoutInput(line: string): string {
  const at = line.indexOf(INPUT);
  if (at < 0) return line;
  const from = at + INPUT.length;
  const to = line.indexOf('"', from);
  if (to - from < 64) return line; // short: not worth a copy
  const escape = line.indexOf('\\', from);
  if (escape >= 0 && escape < to) return line;
  return line.slice(0, from) + line.slice(to);
}

/**
 * A file's lines, a chunk's worth at a time (1 MiB read at once and split on newlines: a stream and readline cost
 * more than the parsing). A line ends at \n; a \r before it is dropped.
 */
export async function* readLines(file: string): AsyncGenerator<string[]> {
  const fh = await open(file, 'r');
  let buf = Buffer.allocUnsafe(1 << 20);
  let kept = 0; // bytes of an unfinished line at the start of buf
  try {
    for (;;) {
      if (kept === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]); // a line longer than buf
      const { bytesRead } = await fh.read(buf, kept, buf.length - kept, null);
      const filled = kept + bytesRead;
      // a newline byte never falls inside a UTF-8 character: the text up to the last one decodes on its own
      const end = bytesRead === 0 ? filled : buf.lastIndexOf(10, filled - 1) + 1;
      if (end > 0) {
        // exports are ASCII as a rule (ethereum-etl escapes the rest): checked, then decoded at a fifth of UTF-8's cost
        const text = buf.toString(isAscii(buf.subarray(0, end)) ? 'ascii' : 'utf8', 0, end);
        const lines = text.split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        if (text.includes('\r')) for (let i = 0; i < lines.length; i++) if (lines[i].endsWith('\r')) lines[i] = lines[i].slice(0, -1);
        yield lines;
      }
      if (bytesRead === 0) break;
      kept = filled - end;
      buf.copyWithin(0, end, filled);
    }
  } finally {
    await fh.close();
  }
}

/**
 * `exactIntegers: false` (a pass that reads only ids, addresses and topics) parses JSON lines as they are. `keep`
 * (JSON lines only: a CSV row is always parsed) tells from a line's text whether its row can matter to the pass: a
 * line it refuses is counted as consumed but neither parsed nor yielded.
 */
export async function* readRows(
  file: string,
  skip: number,
  batchSize: number,
  opts: { exactIntegers?: boolean; keep?: (line: string) => boolean } = {},
): AsyncGenerator<{ rows: Row[]; consumed: number }> {
  const keep = opts.keep;
  const parseRow = opts.exactIntegers === false ? (line: string) => JSON.parse(line) as Row : parseJsonLine;
  // a transaction's calldata (a third of its line) is read by nothing: parsed as an empty string
  const parseLine = (line: string) => parseRow(withoutInput(line));
  let index = 0;
  let batch: Row[] = [];
  let consumed = 0;
  if (/\.csv$/i.test(file)) {
    const csv = createReadStream(file).pipe(parse({ columns: true, skip_empty_lines: true, relax_column_count: true }));
    for await (const row of csv as AsyncIterable<Row>) {
      if (++index <= skip) continue;
      batch.push(row);
      if (++consumed >= batchSize) {
        yield { rows: batch, consumed };
        batch = [];
        consumed = 0;
      }
    }
  } else {
    for await (const lines of readLines(file)) {
      for (const line of lines) {
        if (!line.trim()) continue;
        if (++index <= skip) continue;
        if (!keep || keep(line)) batch.push(parseLine(line));
        if (++consumed >= batchSize) {
          yield { rows: batch, consumed };
          batch = [];
          consumed = 0;
        }
      }
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
  for await (const lines of readLines(file)) for (const line of lines) if (line.trim()) n++;
  return n;
}

/**
 * The string a JSON line gives `key` (written with its quotes: '"topics"'; its last occurrence, as JSON.parse keeps),
 * read from the text: null for a null or an empty array's first element (`"topics": []`, with `first`), undefined
 * when the text is not plainly that (an escape, another layout): the caller then parses the line.
 */
export function stringField(line: string, key: string, first = false): string | null | undefined {
  let at = line.indexOf(key); // forward searches are the fast ones; a repeated key is read at its last
  if (at < 0) return undefined;
  if (line.indexOf(key, at + key.length) >= 0) at = line.lastIndexOf(key);
  let i = at + key.length;
  while (line.charCodeAt(i) === 32) i++;
  if (line.charCodeAt(i++) !== 58 /* : */) return undefined;
  while (line.charCodeAt(i) === 32) i++;
  if (first) {
    if (line.charCodeAt(i++) !== 91 /* [ */) return undefined;
    while (line.charCodeAt(i) === 32) i++;
    if (line.charCodeAt(i) === 93 /* ] */) return null;
  } else if (line.startsWith('null', i)) return null;
  if (line.charCodeAt(i++) !== 34 /* " */) return undefined;
  const end = line.indexOf('"', i);
  if (end < 0) return undefined;
  const value = line.slice(i, end);
  return value.includes('\\') ? undefined : value;
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
