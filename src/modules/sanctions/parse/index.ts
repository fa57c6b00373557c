// Reads an OFAC file from any byte stream (file, upload, download) in one pass: sniffs the format, hashes the bytes
// and hands the decoded text to the XML or CSV reader.
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { parseAdvancedXml } from './advanced-xml.js';
import { parseSdnCsv } from './sdn-csv.js';
import { SanctionsFileError, SanctionsFileTooLarge, type ListFormat, type ParsedList } from './entries.js';

export * from './entries.js';

export interface ParseOptions {
  /** Skip sniffing. */
  format?: ListFormat;
  /** Refuse files larger than this (uploads). */
  maxBytes?: number;
}

export function sniffFormat(head: Buffer): ListFormat {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i >= head.length) throw new SanctionsFileError('the file is empty');
  if (head[i] === 0x3c) return 'sdn_advanced_xml';
  if (head[i] === 0x50 && head[i + 1] === 0x4b) throw new SanctionsFileError('this is a ZIP archive: extract sdn_advanced.xml (or sdn.csv) from it and import that');
  return 'sdn_csv';
}

export async function parseSanctionsFile(source: AsyncIterable<Uint8Array | string>, opts: ParseOptions = {}): Promise<ParsedList> {
  const it = source[Symbol.asyncIterator]();
  const hash = createHash('sha256');
  let bytes = 0;
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
  const format = opts.format ?? sniffFormat(first);

  const decoder = new StringDecoder('utf8');
  let started = false;
  const decode = (b: Buffer) => {
    bytes += b.length;
    if (opts.maxBytes && bytes > opts.maxBytes) throw new SanctionsFileTooLarge(`the file is larger than ${opts.maxBytes} bytes`);
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
      await it.return?.();
    }
  }

  const parsed = format === 'sdn_advanced_xml' ? await parseAdvancedXml(text()) : await parseSdnCsv(text());
  return { format, publishedAt: parsed.publishedAt, entries: parsed.entries, sha256: hash.digest('hex'), bytes };
}
