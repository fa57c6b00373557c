// Reads an OFAC file from any byte stream (file, upload, download) in one pass: sniffs the format, hashes the bytes
// and hands the decoded text to the XML or CSV reader.
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { parseAdvancedXml } from './advanced-xml.js';
import { parseSdnComments, parseSdnCsv } from './sdn-csv.js';
import { unzipIfArchive } from './zip.js';
import { SanctionsFileError, SanctionsFileTooLarge, type ListFormat, type ParsedList } from './entries.js';

export * from './entries.js';

export type ByteSource = AsyncIterable<Uint8Array | string>;

/** sdn_comments.csv, read: the remarks continued per ent_num, and the file's hash. */
export interface SdnComments {
  byEntry: Map<string, string>;
  sha256: string;
}

export interface ParseOptions {
  /** Skip sniffing. */
  format?: ListFormat;
  /** Refuse files larger than this (uploads). */
  maxBytes?: number;
  /** sdn_comments.csv for an sdn.csv (ignored for the advanced XML, which is complete). */
  comments?: SdnComments;
}

export function sniffFormat(head: Buffer): ListFormat {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i >= head.length) throw new SanctionsFileError('the file is empty');
  if (head[i] === 0x3c) return 'sdn_advanced_xml';
  if (head[i] === 0x50 && head[i + 1] === 0x4b) throw new SanctionsFileError('a ZIP archive inside a ZIP archive is not an SDN file');
  return 'sdn_csv';
}

/** Decodes UTF-8 (without BOM) as it streams, hashing and counting the bytes. */
async function reader(source: ByteSource, maxBytes?: number) {
  // Hashes and limits apply to the list file itself, inside its ZIP archive when zipped.
  const it = unzipIfArchive(source)[Symbol.asyncIterator]();
  const hash = createHash('sha256');
  const state = { bytes: 0 };
  const head: Buffer[] = [];
  let headLen = 0;
  let exhausted = false;
  while (headLen < 512 && !exhausted) {
    const r = await it.next();
    if (r.done) exhausted = true;
    else {
      const b = Buffer.from(r.value);
      head.push(b);
      headLen += b.length;
    }
  }
  const first = Buffer.concat(head);
  const decoder = new StringDecoder('utf8');
  let started = false;
  const decode = (b: Buffer) => {
    state.bytes += b.length;
    if (maxBytes && state.bytes > maxBytes) throw new SanctionsFileTooLarge(`the file is larger than ${maxBytes} bytes`);
    hash.update(b);
    let s = decoder.write(b);
    if (!started && s.length) {
      started = true;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    return s;
  };
  async function* text(): AsyncGenerator<string> {
    try {
      if (first.length) yield decode(first);
      while (!exhausted) {
        const r = await it.next();
        if (r.done) break;
        yield decode(Buffer.from(r.value));
      }
      const tail = decoder.end();
      if (tail) yield tail;
    } finally {
      await it.return?.(undefined);
    }
  }
  return { first, text, state, digest: () => hash.digest('hex') };
}

export async function readSdnComments(source: ByteSource, maxBytes?: number): Promise<SdnComments> {
  const r = await reader(source, maxBytes);
  const byEntry = await parseSdnComments(r.text());
  return { byEntry, sha256: r.digest() };
}

export async function parseSanctionsFile(source: ByteSource, opts: ParseOptions = {}): Promise<ParsedList> {
  const r = await reader(source, opts.maxBytes);
  const format = opts.format ?? sniffFormat(r.first);
  const comments = format === 'sdn_csv' ? opts.comments : undefined;
  const parsed = format === 'sdn_advanced_xml' ? await parseAdvancedXml(r.text()) : await parseSdnCsv(r.text(), comments?.byEntry);
  const fileHash = r.digest();
  // With its companion, the list is both files: identical pairs hash alike, a change in either makes a new version.
  const sha256 = comments ? createHash('sha256').update(`${fileHash}:${comments.sha256}`).digest('hex') : fileHash;
  return { format, publishedAt: parsed.publishedAt, entries: parsed.entries, sha256, bytes: r.state.bytes };
}
