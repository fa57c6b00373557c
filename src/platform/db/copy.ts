// COPY ... FROM STDIN over a pg client, as a query object the driver runs in its queue (the protocol pg-copy-streams
// speaks, without the dependency): the whole text is sent in one CopyData message, then CopyDone.
import type pg from 'pg';

interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyIn {
  private settle!: (e?: Error) => void;
  readonly done = new Promise<void>((resolve, reject) => (this.settle = (e) => (e ? reject(e) : resolve())));
  private failed = false;
  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {}
  submit(c: CopyConnection) {
    c.query(this.text);
  }
  handleCopyInResponse(c: CopyConnection) {
    if (this.data.length) c.sendCopyFromChunk(this.data);
    c.endCopyFrom();
  }
  // the driver hands a server error (or the connection's end) here and drops the query: ReadyForQuery never comes to it
  handleError(e: Error) {
    this.failed = true;
    this.settle(e);
  }
  handleReadyForQuery() {
    if (!this.failed) this.settle();
  }
  handleCommandComplete() {}
  handleCopyData() {}
  handleRowDescription() {}
  handleDataRow() {}
  handleEmptyQuery() {}
  handlePortalSuspended() {}
}

/** Runs `COPY <table> FROM STDIN` (text format) on the client with the given rows' text (or its UTF-8 bytes). */
export async function copyFromText(client: pg.ClientBase, sql: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const copy = new CopyIn(sql, bytes);
  void client.query(copy as unknown as pg.QueryConfig);
  await copy.done;
}

/** A value as COPY's text format writes it: \N for null, backslash, tab and line breaks escaped. */
export function copyText(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'number' ? String(v) : v;
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : s;
}
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
