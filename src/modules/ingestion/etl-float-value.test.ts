// An ethereum-etl export whose `value` went through floating point (1.5018869857704244e+29, as
// tools that round-trip JSON through doubles write it) stops `credence ingest` with one line naming the file, the
// line and the field, not a BigInt stack trace; the rows before it are imported.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { randomAddress, testConfig } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { runIngestCommand } from '../../cli/ingest.js';

let errors: string[];
beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a.map(String).join(' ')));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

const tx = (i: number, value: string) => {
  const hash = `0x${i.toString(16).padStart(64, '0')}`;
  return `{"hash":"${hash}","nonce":${i},"block_number":19000000,"block_timestamp":1704067200,"transaction_index":${i},"from_address":"${randomAddress()}","to_address":"${randomAddress()}","value":${value},"gas":21000,"gas_price":1000000000,"receipt_status":1}`;
};

describe('credence ingest --format ethereum-etl with a float value', () => {
  for (const [name, file, body, line] of [
    ['JSON lines', 'transactions.json', [tx(1, '1000000000000000000'), tx(2, '1.5018869857704244e+29'), tx(3, '5')].join('\n') + '\n', 2],
    [
      'CSV',
      'token_transfers.csv',
      `token_address,from_address,to_address,value,transaction_hash,log_index,block_number\n${randomAddress()},${randomAddress()},${randomAddress()},1.5e+21,0x${'ab'.repeat(32)},0,19000000\n`,
      2,
    ],
  ] as const) {
    it(`${name}: exit 1 with one line naming file, line and field; no stack trace`, async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'credence-etl-float-'));
      writeFileSync(path.join(dir, file), body);
      const db = await testDatabase();
      try {
        const code = await runIngestCommand(['--format', 'ethereum-etl', '--chain', '1', dir], testConfig(), {
          db: { ...db, close: async () => undefined },
        });
        expect(code).toBe(1);
      } finally {
        await db.close();
      }
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(new RegExp(`^credence ingest: ${file.replace('.', '\\.')}, line ${line}: field "value" is 1\\.5`));
      expect(errors[0]).toContain('not an exact integer');
      expect(errors[0]).not.toContain('BigInt');
      expect(errors[0]).not.toMatch(/\n\s+at /);
    }, 120_000);
  }
});
