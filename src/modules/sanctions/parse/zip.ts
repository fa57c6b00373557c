// OFAC also publishes the list zipped (SDN_ADVANCED.ZIP): the archive's first entry is streamed out, inflated as it
// arrives (no temporary file, no whole-archive buffer). A plain file passes through unchanged.
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { SanctionsFileError } from './entries.js';

const LOCAL_HEADER = 0x04034b50;

export async function* unzipIfArchive(source: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  const it = source[Symbol.asyncIterator]();
  let buf = Buffer.alloc(0);
  let done = false;
  const fill = async (n: number) => {
    while (buf.length < n && !done) {
      const r = await it.next();
      if (r.done) done = true;
      else buf = Buffer.concat([buf, Buffer.from(r.value)]);
    }
    return buf.length >= n;
  };
  async function* rest(): AsyncGenerator<Buffer> {
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      yield Buffer.from(r.value);
    }
  }
  try {
    await fill(4);
    if (buf.length < 4 || buf.readUInt32LE(0) !== LOCAL_HEADER) {
      if (buf.length) yield buf;
      yield* rest();
      return;
    }
    if (!(await fill(30))) throw new SanctionsFileError('truncated ZIP archive');
    const flags = buf.readUInt16LE(6);
    const method = buf.readUInt16LE(8);
    const size = buf.readUInt32LE(18);
    const nameLen = buf.readUInt16LE(26);
    const extraLen = buf.readUInt16LE(28);
    if (!(await fill(30 + nameLen + extraLen))) throw new SanctionsFileError('truncated ZIP archive');
    const name = buf.toString('utf8', 30, 30 + nameLen);
    if (!/\.(xml|csv)$/i.test(name))
      throw new SanctionsFileError(`the ZIP archive's first file is "${name}", not an SDN .xml or .csv file`);
    if (flags & 1) throw new SanctionsFileError('encrypted ZIP archives are not supported');
    const head = buf.subarray(30 + nameLen + extraLen);
    async function* compressed(): AsyncGenerator<Buffer> {
      if (head.length) yield head;
      yield* rest();
    }
    if (method === 0) {
      // Stored: the size must be in the local header (no data descriptor, no ZIP64).
      if (flags & 8 || size === 0xffffffff) throw new SanctionsFileError('unsupported ZIP layout: stored entry without its size');
      let left = size;
      for await (const c of compressed()) {
        if (left <= 0) break;
        const part = c.subarray(0, left);
        left -= part.length;
        yield part;
      }
      if (left > 0) throw new SanctionsFileError('truncated ZIP archive');
      return;
    }
    if (method !== 8) throw new SanctionsFileError(`unsupported ZIP compression method ${method}`);
    // Deflate ends by itself; what follows it (data descriptor, other entries, central directory) is ignored.
    const inflater = Readable.from(compressed()).pipe(createInflateRaw());
    try {
      for await (const d of inflater) yield d as Buffer;
    } catch (e) {
      if (e instanceof SanctionsFileError) throw e;
      throw new SanctionsFileError(`corrupt ZIP archive: ${(e as Error).message}`);
    }
  } finally {
    await it.return?.();
  }
}
