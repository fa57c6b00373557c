// COPY's text of activity records: a field holding what COPY must escape (an export's text is not trusted) is
// escaped, whichever field it is in; clean records are written as they are; one time's text serves a run of records.
import { describe, expect, it } from 'vitest';
import { copyText } from '../../../platform/db/copy.js';
import type { ActivityRecord } from '../decode.js';
import { copyLines } from './copy-insert.js';

const at = new Date('2024-03-01T12:00:00Z');
const base: ActivityRecord = {
  chainId: 1,
  txHash: `0x${'ab'.repeat(32)}`,
  logIndex: 3,
  wallet: `0x${'11'.repeat(20)}`,
  kind: 'transfer_erc20',
  blockNumber: 19_000_000,
  occurredAt: at,
  contract: `0x${'22'.repeat(20)}`,
  counterparty: null,
  tokenId: null,
  amount: '1000',
  direction: 'out',
  protocol: null,
  ref: null,
  valueUsd: 12.5,
  txFrom: `0x${'AB'.repeat(20)}`,
};
const FIELDS = ['txHash', 'wallet', 'contract', 'counterparty', 'tokenId', 'amount', 'direction', 'protocol', 'ref', 'txFrom'] as const;

/** The line as copyText writes each field (the reference). */
const reference = (r: ActivityRecord) =>
  [
    r.chainId,
    copyText(r.txHash),
    r.logIndex,
    copyText(r.wallet),
    r.kind,
    r.blockNumber,
    r.occurredAt ? r.occurredAt.toISOString() : '\\N',
    copyText(r.contract),
    copyText(r.counterparty),
    copyText(r.tokenId),
    copyText(r.amount),
    copyText(r.direction),
    copyText(r.protocol),
    copyText(r.ref),
    copyText(r.valueUsd),
    copyText(r.txFrom?.toLowerCase() ?? null),
  ].join('\t') + '\n';

describe('copyLines', () => {
  it('writes clean records as they are, with \\N for nulls and the sender lowercase', () => {
    const later = { ...base, occurredAt: new Date(at.getTime() + 12_000) };
    const records = [base, { ...base, logIndex: 4 }, later, { ...base, occurredAt: null }, base];
    expect(copyLines(records)).toBe(records.map(reference).join(''));
  });

  it('escapes a backslash, tab, newline or carriage return in any text field', () => {
    const records = FIELDS.flatMap((f) => ['a\tb', 'a\nb', 'a\\b', 'a\rb'].map((v) => ({ ...base, [f]: v }) as ActivityRecord));
    const text = copyLines(records);
    expect(text).toBe(records.map(reference).join(''));
    // every line keeps its 17 columns
    for (const line of text.trimEnd().split('\n')) expect(line.split('\t')).toHaveLength(16);
  });
});
