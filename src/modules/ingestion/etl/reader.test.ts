// The export reader's own parts: lines split from 1 MiB reads (multi-byte characters and lines across the reads'
// edges, CRLF, no final newline, a line longer than a read) and JSON lines with integers beyond 2^53 kept exact.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countRows, parseJsonLine, readLines, readRows } from './reader.js';

const dir = mkdtempSync(path.join(tmpdir(), 'credence-reader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function linesOf(text: string): Promise<string[]> {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  const out: string[] = [];
  for await (const chunk of readLines(file)) out.push(...chunk);
  return out;
}

describe('readLines', () => {
  it('splits at every newline whatever the reads, characters of several bytes intact', async () => {
    // lines of varied lengths with 2-, 3- and 4-byte characters, ~3.5 MiB: some fall across the 1 MiB reads
    const lines = Array.from({ length: 40_000 }, (_, i) => `{"i":${i},"s":"${'é€𝄞'.repeat(i % 7)}${'x'.repeat((i * 37) % 120)}"}`);
    expect(await linesOf(`${lines.join('\n')}\n`)).toEqual(lines);
    expect(await linesOf(lines.join('\n'))).toEqual(lines); // no final newline
    expect(await linesOf(`${lines.join('\r\n')}\r\n`)).toEqual(lines); // CRLF
  });

  it('reads a line longer than a read, and an empty file', async () => {
    const long = `{"data":"0x${'ab'.repeat(1_500_000)}"}`;
    expect(await linesOf(`a\n${long}\nb\n`)).toEqual(['a', long, 'b']);
    expect(await linesOf('')).toEqual([]);
  });

  it('keeps blank lines for readRows to skip, and counts rows without them', async () => {
    const file = path.join(dir, 'blank.json');
    writeFileSync(file, '{"a":1}\n\n  \n{"a":2}\n');
    expect(await countRows(file)).toBe(2);
    const batches = [];
    for await (const b of readRows(file, 1, 10)) batches.push(b);
    expect(batches).toEqual([{ rows: [{ a: 2 }], consumed: 1 }]);
  });
});

describe('readRows', () => {
  it("reads a transaction's calldata as empty (nothing reads it) and every other field as written", async () => {
    const file = path.join(dir, 'transactions.json');
    const long = `0x${'ab'.repeat(300)}`;
    const lines = [
      { hash: '0x01', input: long, value: '150188698577042440000000000001', to_address: null },
      { hash: '0x02', input: '0xa9059cbb', nonce: 7 },
      { hash: '0x03', input: `${long}\\"x`, after: 'kept' }, // an escape: left to JSON.parse as it is
    ];
    writeFileSync(
      file,
      lines
        .map((l) =>
          JSON.stringify(l)
            .replace('"value":"150188698577042440000000000001"', '"value": 150188698577042440000000000001')
            .replace('"input":"', '"input": "'),
        )
        .join('\n'),
    );
    const rows = [];
    for await (const b of readRows(file, 0, 10)) rows.push(...b.rows);
    expect(rows).toEqual([
      { hash: '0x01', input: '', value: '150188698577042440000000000001', to_address: null },
      { hash: '0x02', input: '0xa9059cbb', nonce: 7 },
      { hash: '0x03', input: `${long}\\"x`, after: 'kept' },
    ]);
  });
});

describe('parseJsonLine', () => {
  it('keeps integers beyond 2^53 as their digits, wherever and however they are written', () => {
    const big = '150188698577042440000000000001';
    expect(parseJsonLine(`{"value": ${big}, "gas": 21000}`)).toEqual({ value: big, gas: 21000 });
    expect(parseJsonLine(`{"value":${big}}`)).toEqual({ value: big });
    expect(parseJsonLine(`{"value": -${big} }`)).toEqual({ value: `-${big}` });
    // a duplicate key: JSON.parse keeps the last, so do the digits
    expect(parseJsonLine(`{"value": 1, "value": ${big}}`)).toEqual({ value: big });
    // nested numbers and escaped keys go through the quoting of every long literal
    expect(parseJsonLine(`{"a": [${big}, 1], "value": ${big}}`)).toEqual({ a: [big, 1], value: big });
    expect(parseJsonLine(`{"v\\u0061lue": ${big}}`)).toEqual({ value: big });
    // small integers stay numbers; a float keeps its (lossy) number, for the field check to refuse
    expect(parseJsonLine('{"value": 9007199254740991}')).toEqual({ value: 9007199254740991 });
    expect(parseJsonLine('{"value": 1.5018869857704244e+29}')).toEqual({ value: 1.5018869857704244e29 });
    expect(parseJsonLine('{"topics": ["0x01", "0x02"], "n": null}')).toEqual({ topics: ['0x01', '0x02'], n: null });
  });
});
