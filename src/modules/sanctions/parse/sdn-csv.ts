// Reader for OFAC's legacy sdn.csv: no header row; columns ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
// Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks ("-0- " for empty). Addresses sit in the remarks as
// "Digital Currency Address - ETH 0x...;". The file ends with a lone 0x1A (DOS end-of-file) line.
// Remarks longer than the column are cut (anywhere, even inside an address) and continue in sdn_comments.csv
// (ent_num, remarks continued): entries with many addresses are only complete with that companion file.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { addEntry, SanctionsFileError, type SdnEntry } from './entries.js';

export const SDN_CSV_COLUMNS = [
  'ent_num',
  'SDN_Name',
  'SDN_Type',
  'Program',
  'Title',
  'Call_Sign',
  'Vess_type',
  'Tonnage',
  'GRT',
  'Vess_flag',
  'Vess_owner',
  'Remarks',
] as const;

const IN_REMARKS = /Digital Currency Address - ([A-Za-z0-9]+)[\s:]+(0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])/g;
const ENT_NUM = /^\s*\d+\s*$/;

async function* records(chunks: AsyncIterable<string>): AsyncGenerator<string[]> {
  const parser = Readable.from(chunks).pipe(
    parse({ relax_quotes: true, relax_column_count: true, skip_empty_lines: true, bom: true, trim: false }),
  );
  try {
    for await (const rec of parser as AsyncIterable<string[]>) {
      // a DOS end-of-file mark (Ctrl-Z) on a line of its own, as OFAC's files end
      // eslint-disable-next-line no-control-regex
      if (rec.length === 1 && rec[0].replace(/\x1a/g, '').trim() === '') continue;
      yield rec;
    }
  } catch (e) {
    if (e instanceof SanctionsFileError) throw e;
    throw new SanctionsFileError(`not a readable CSV file: ${(e as Error).message}`);
  }
}

/** sdn_comments.csv: ent_num -> the continuation of that entry's remarks. */
export async function parseSdnComments(chunks: AsyncIterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let bad = 0;
  for await (const rec of records(chunks)) {
    if (rec.length < 2 || !ENT_NUM.test(rec[0])) {
      bad++;
      continue;
    }
    const id = rec[0].trim();
    out.set(id, (out.get(id) ?? '') + rec.slice(1).join(','));
  }
  if (bad > out.size) throw new SanctionsFileError('not an OFAC sdn_comments.csv file: expected rows of ent_num and the remarks continued');
  return out;
}

export async function parseSdnCsv(
  chunks: AsyncIterable<string>,
  comments?: Map<string, string>,
): Promise<{ publishedAt: null; entries: Map<string, SdnEntry> }> {
  const entries = new Map<string, SdnEntry>();
  let rows = 0;
  let bad = 0;
  for await (const rec of records(chunks)) {
    if (rec.length !== SDN_CSV_COLUMNS.length || !ENT_NUM.test(rec[0])) {
      bad++;
      continue;
    }
    rows++;
    const id = rec[0].trim();
    const more = comments?.get(id);
    const remarks = more ? rec[11] + more : rec[11];
    if (!remarks.includes('Digital Currency Address')) continue;
    const name = rec[1].trim();
    for (const m of remarks.matchAll(IN_REMARKS)) addEntry(entries, m[2], name, m[1].toUpperCase(), id);
  }
  if (rows === 0 || bad > rows) {
    throw new SanctionsFileError(
      `not an OFAC sdn.csv file: expected rows of ${SDN_CSV_COLUMNS.length} columns (${SDN_CSV_COLUMNS.join(', ')}) starting with the numeric ent_num`,
    );
  }
  return { publishedAt: null, entries };
}
