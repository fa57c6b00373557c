// Reader for OFAC's legacy sdn.csv: no header row; columns ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
// Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks ("-0- " for empty). Addresses sit in the remarks as
// "Digital Currency Address - ETH 0x...;". The file ends with a lone 0x1A (DOS end-of-file) line.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { addEntry, SanctionsFileError, type SdnEntry } from './entries.js';

export const SDN_CSV_COLUMNS = ['ent_num', 'SDN_Name', 'SDN_Type', 'Program', 'Title', 'Call_Sign', 'Vess_type', 'Tonnage', 'GRT', 'Vess_flag', 'Vess_owner', 'Remarks'] as const;

const IN_REMARKS = /Digital Currency Address - ([A-Za-z0-9]+)[\s:]+(0x[0-9a-fA-F]{40})(?![0-9a-zA-Z])/g;

export async function parseSdnCsv(chunks: AsyncIterable<string>): Promise<{ publishedAt: null; entries: Map<string, SdnEntry> }> {
  const records = Readable.from(chunks).pipe(
    parse({ relax_quotes: true, relax_column_count: true, skip_empty_lines: true, bom: true, trim: false }),
  );
  const entries = new Map<string, SdnEntry>();
  let rows = 0;
  let bad = 0;
  try {
    for await (const rec of records as AsyncIterable<string[]>) {
      if (rec.length === 1 && rec[0].trim().replace(/\x1a/g, '') === '') continue;
      if (rec.length !== SDN_CSV_COLUMNS.length || !/^\s*\d+\s*$/.test(rec[0])) {
        bad++;
        continue;
      }
      rows++;
      const remarks = rec[11];
      if (!remarks.includes('Digital Currency Address')) continue;
      const name = rec[1].trim();
      for (const m of remarks.matchAll(IN_REMARKS)) addEntry(entries, m[2], name, m[1].toUpperCase(), rec[0].trim());
    }
  } catch (e) {
    throw new SanctionsFileError(`not a readable CSV file: ${(e as Error).message}`);
  }
  if (rows === 0 || bad > rows) {
    throw new SanctionsFileError(`not an OFAC sdn.csv file: expected rows of ${SDN_CSV_COLUMNS.length} columns (${SDN_CSV_COLUMNS.join(', ')}) starting with the numeric ent_num`);
  }
  return { publishedAt: null, entries };
}
