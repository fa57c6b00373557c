// The exact-integer check of an export's amounts, before a batch is decoded.
import { str, type Row } from './reader.js';

/** A value of an export that is not an exact integer (a value that went through floating point), named by file, line and field. */
export class EtlFieldError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EtlFieldError';
  }
}

/** The integer fields read as BigInt (wei, gas): a float such as 1.5018869857704244e+29 has lost digits. */
const INTEGER_FIELDS: Partial<Record<string, string[]>> = {
  transactions: ['value', 'gas', 'gas_price', 'receipt_gas_used', 'receipt_effective_gas_price'],
  token_transfers: ['value'],
};
const EXACT_INTEGER = /^(?:\d+|0x[0-9a-fA-F]+)$/;

export function checkIntegerFields(rows: Row[], kind: string, file: string, firstLine: number) {
  const fields = INTEGER_FIELDS[kind];
  if (!fields) return;
  rows.forEach((r, i) => {
    for (const field of fields) {
      const v = str(r[field]);
      if (v !== null && !EXACT_INTEGER.test(v)) {
        throw new EtlFieldError(
          `${file}, line ${firstLine + i}: field "${field}" is ${v.length > 60 ? `${v.slice(0, 60)}…` : v}, not an exact integer. ` +
            'Amounts must be written as integers (as ethereum-etl writes them); a tool that round-tripped the file through floating-point ' +
            'numbers (e.g. 1.5018869857704244e+29) has lost digits: export again, or convert the field to integers. The import stopped before ' +
            "this line's batch; what was imported is kept and running it again resumes there.",
        );
      }
    }
  });
}
