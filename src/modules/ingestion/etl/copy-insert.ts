// PostgreSQL's bulk path for activity records: COPY into a per-connection staging table (temporary: no WAL, no
// index), then one INSERT ... SELECT into wallet_activity in primary-key order, ON CONFLICT DO NOTHING. The result
// is the multi-row statements' (writer.ts): a record already stored, or a later duplicate of one in the same batch
// (`seq` keeps the batch's order among equal keys), is left out; the wallets that gained records are counted by the
// database. COPY's text costs the importer a fraction of the driver's encoding of 16 parameter arrays, and key
// order has the primary key's pages touched once each instead of at random.
import { copyText } from '../../../platform/db/copy.js';
import type { Queryable } from '../../../platform/db/types.js';
import type { ActivityRecord } from '../decode.js';
import type { BulkInsertOptions } from './writer.js';

const COLUMNS = `chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id, amount,
  direction, protocol, ref, value_usd, tx_from`;
// ON COMMIT DELETE ROWS: what a failed statement left is gone with its transaction; each write also empties it
const STAGE = `CREATE TEMP TABLE IF NOT EXISTS wallet_activity_stage (seq integer, chain_id integer, tx_hash text, log_index integer,
  wallet text, kind text, block_number bigint, occurred_at timestamptz, contract text, counterparty text, token_id numeric, amount numeric,
  direction text, protocol text, ref text, value_usd numeric, tx_from text) ON COMMIT DELETE ROWS`;
const COPY = `COPY wallet_activity_stage (seq, ${COLUMNS}) FROM STDIN`;
const ORDER = 'ORDER BY t.chain_id, t.tx_hash, t.log_index, t.wallet, t.kind, t.seq';
const COUNT = `SELECT wallet, count(*)::int AS n, count(*) FILTER (WHERE undated)::int AS undated FROM inserted GROUP BY wallet`;
const INSERT = `WITH t AS (DELETE FROM wallet_activity_stage RETURNING *),
  inserted AS (INSERT INTO wallet_activity (${COLUMNS}) SELECT ${COLUMNS} FROM t ${ORDER}
    ON CONFLICT DO NOTHING RETURNING wallet, occurred_at IS NULL AS undated)
  ${COUNT}`;
// token transfers: a record whose log is stored under any wallet or kind is left out (writer.ts), by a key probe
const INSERT_NEW_LOGS = `WITH t AS (DELETE FROM wallet_activity_stage RETURNING *),
  inserted AS (INSERT INTO wallet_activity (${COLUMNS}) SELECT ${COLUMNS.replace(/(\w+)/g, 't.$1')} FROM t
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM wallet_activity a
      WHERE a.chain_id = t.chain_id AND a.tx_hash = t.tx_hash AND a.log_index = t.log_index LIMIT 1) stored ON true
    WHERE stored.hit IS NULL ${ORDER}
    ON CONFLICT DO NOTHING RETURNING wallet, occurred_at IS NULL AS undated)
  ${COUNT}`;

const UNSAFE = /[\\\t\n\r]/;
const nul = (v: string | number | null | undefined) => v ?? '\\N';

/**
 * One record as a line of COPY's text format, in the stage's column order. Its text fields are checked for what COPY
 * must escape in one test over all of them (a test per field was most of the line's cost); a record with one is
 * written field by field through copyText. Numbers and the kind need no escape.
 */
function line(r: ActivityRecord, seq: number, at: string): string {
  const txFrom = r.txFrom?.toLowerCase() ?? null;
  if (
    UNSAFE.test(
      `${r.txHash}${r.wallet}${r.contract ?? ''}${r.counterparty ?? ''}${r.tokenId ?? ''}${r.amount ?? ''}${r.direction ?? ''}${r.protocol ?? ''}${r.ref ?? ''}${r.valueUsd ?? ''}${txFrom ?? ''}`,
    )
  )
    return `${seq}\t${r.chainId}\t${copyText(r.txHash)}\t${r.logIndex}\t${copyText(r.wallet)}\t${r.kind}\t${r.blockNumber}\t${at}\t${copyText(
      r.contract,
    )}\t${copyText(r.counterparty)}\t${copyText(r.tokenId)}\t${copyText(r.amount)}\t${copyText(r.direction)}\t${copyText(
      r.protocol,
    )}\t${copyText(r.ref)}\t${copyText(r.valueUsd)}\t${copyText(txFrom)}\n`;
  return `${seq}\t${r.chainId}\t${r.txHash}\t${r.logIndex}\t${r.wallet}\t${r.kind}\t${r.blockNumber}\t${at}\t${nul(r.contract)}\t${nul(
    r.counterparty,
  )}\t${nul(r.tokenId)}\t${nul(r.amount)}\t${nul(r.direction)}\t${nul(r.protocol)}\t${nul(r.ref)}\t${nul(r.valueUsd)}\t${nul(txFrom)}\n`;
}

/** Records as COPY's text, one line each, numbered in their order (made on the decoding thread, batches.ts). */
export function copyLines(records: ActivityRecord[], firstSeq = 0): string {
  let text = '';
  // a batch's records come block by block: one time's text serves its run
  let time = NaN;
  let at = '\\N';
  for (let i = 0; i < records.length; i++) {
    const d = records[i].occurredAt;
    if (!d) at = '\\N';
    else if (d.getTime() !== time) at = d.toISOString();
    time = d ? d.getTime() : NaN;
    text += line(records[i], firstSeq + i, at);
  }
  return text;
}

/** The records in one COPY and one INSERT ... SELECT (a token transfer's two records share a log: one statement). */
export function copyActivity(q: Queryable, records: ActivityRecord[], opts: BulkInsertOptions) {
  return insertCopied(q, copyLines(records), opts);
}

/** Records already written as COPY's text (copyLines) stored, as copyActivity does. */
export async function insertCopied(
  q: Queryable,
  text: string | Uint8Array,
  opts: BulkInsertOptions,
): Promise<{ wallets: Set<string>; stored: number; undated: number }> {
  if (!q.copyFrom) throw new Error('COPY needs a PostgreSQL transaction');
  await q.query(STAGE);
  await q.copyFrom(COPY, text);
  const rows = await q.query<{ wallet: string; n: number; undated: number }>(opts.skipStoredLogs ? INSERT_NEW_LOGS : INSERT);
  const wallets = new Set<string>();
  let stored = 0;
  let undated = 0;
  for (const r of rows) {
    wallets.add(r.wallet);
    stored += Number(r.n);
    undated += Number(r.undated);
  }
  return { wallets, stored, undated };
}
