// PostgreSQL's bulk path for activity records: COPY into a per-connection staging table (temporary: no WAL, no
// index), then one INSERT ... SELECT into wallet_activity in primary-key order, ON CONFLICT DO NOTHING. The result
// is the multi-row statements' (writer.ts): a record already stored, or a later duplicate of one in the same batch
// (`seq`, numbered as COPY reads the rows, keeps the batch's order among equal keys), is left out; the wallets that
// gained records are counted by the database. COPY's text costs the importer a fraction of the driver's encoding of
// 16 parameter arrays, and key order has the primary key's pages touched once each instead of at random.
//
// A bulk import's batch of new rows goes straight into wallet_activity by COPY instead (about a third less of the
// database's time than stage and INSERT: bench/etl-import.ts), in a savepoint: a row already stored (a re-import,
// an overlap with a sync) makes that COPY fail as a whole, and the batch takes the staged path. The decoding thread
// leaves out a batch's later duplicates itself (batches.ts), so the two paths store the same rows.
import { copyText } from '../../../platform/db/copy.js';
import type { Queryable } from '../../../platform/db/types.js';
import type { ActivityRecord } from '../decode.js';
import type { BulkInsertOptions } from './writer.js';

const COLUMNS = `chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id, amount,
  direction, protocol, ref, value_usd, tx_from`;
// ON COMMIT DELETE ROWS: what a failed statement left is gone with its transaction; each write also empties it
const STAGE = `CREATE TEMP TABLE IF NOT EXISTS wallet_activity_stage (seq bigint GENERATED ALWAYS AS IDENTITY, chain_id integer, tx_hash text, log_index integer,
  wallet text, kind text, block_number bigint, occurred_at timestamptz, contract text, counterparty text, token_id numeric, amount numeric,
  direction text, protocol text, ref text, value_usd numeric, tx_from text) ON COMMIT DELETE ROWS`;
const COPY = `COPY wallet_activity_stage (${COLUMNS}) FROM STDIN`;
const DIRECT = `COPY wallet_activity (${COLUMNS}) FROM STDIN`;
/** batches whose direct COPY met stored rows before an import stops trying it (a re-import: every batch would) */
const DIRECT_MISSES = 3;
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
function line(r: ActivityRecord, at: string): string {
  const txFrom = r.txFrom?.toLowerCase() ?? null;
  if (
    UNSAFE.test(
      `${r.txHash}${r.wallet}${r.contract ?? ''}${r.counterparty ?? ''}${r.tokenId ?? ''}${r.amount ?? ''}${r.direction ?? ''}${r.protocol ?? ''}${r.ref ?? ''}${r.valueUsd ?? ''}${txFrom ?? ''}`,
    )
  )
    return `${r.chainId}\t${copyText(r.txHash)}\t${r.logIndex}\t${copyText(r.wallet)}\t${r.kind}\t${r.blockNumber}\t${at}\t${copyText(
      r.contract,
    )}\t${copyText(r.counterparty)}\t${copyText(r.tokenId)}\t${copyText(r.amount)}\t${copyText(r.direction)}\t${copyText(
      r.protocol,
    )}\t${copyText(r.ref)}\t${copyText(r.valueUsd)}\t${copyText(txFrom)}\n`;
  return `${r.chainId}\t${r.txHash}\t${r.logIndex}\t${r.wallet}\t${r.kind}\t${r.blockNumber}\t${at}\t${nul(r.contract)}\t${nul(
    r.counterparty,
  )}\t${nul(r.tokenId)}\t${nul(r.amount)}\t${nul(r.direction)}\t${nul(r.protocol)}\t${nul(r.ref)}\t${nul(r.valueUsd)}\t${nul(txFrom)}\n`;
}

/** Records as COPY's text, one line each, in their order (made on the decoding thread, batches.ts). */
export function copyLines(records: ActivityRecord[]): string {
  let text = '';
  // a batch's records come block by block: one time's text serves its run
  let time = NaN;
  let at = '\\N';
  for (let i = 0; i < records.length; i++) {
    const d = records[i].occurredAt;
    if (!d) at = '\\N';
    else if (d.getTime() !== time) at = d.toISOString();
    time = d ? d.getTime() : NaN;
    text += line(records[i], at);
  }
  return text;
}

/** The records in one COPY and one INSERT ... SELECT (a token transfer's two records share a log: one statement). */
export function copyActivity(q: Queryable, records: ActivityRecord[], opts: BulkInsertOptions) {
  return insertCopied(q, copyLines(records), opts);
}

/** What a batch's COPY text holds, counted where it was made: a direct COPY's result, since it returns no rows. */
export interface CopySummary {
  wallets: string[];
  records: number;
  undated: number;
}

/** One import's direct COPY: how many of its batches met stored rows (past DIRECT_MISSES it takes the staged path). */
export interface DirectCopy {
  misses: number;
}

/** Records already written as COPY's text (copyLines) stored, as copyActivity does; with a summary of a batch free of
 *  duplicates and `direct`, by a direct COPY first (see above). */
export async function insertCopied(
  q: Queryable,
  text: string | Uint8Array,
  opts: BulkInsertOptions,
  summary?: CopySummary,
): Promise<{ wallets: Set<string>; stored: number; undated: number }> {
  if (!q.copyFrom) throw new Error('COPY needs a PostgreSQL transaction');
  const direct = opts.direct;
  // token transfers are filtered against stored logs of any wallet or kind: only the staged INSERT does that
  if (summary && direct && !opts.skipStoredLogs && direct.misses < DIRECT_MISSES) {
    await q.query('SAVEPOINT direct_copy');
    try {
      await q.copyFrom(DIRECT, text);
      await q.query('RELEASE SAVEPOINT direct_copy');
      return { wallets: new Set(summary.wallets), stored: summary.records, undated: summary.undated };
    } catch (e) {
      if (!storedAlready(e)) throw e;
      await q.query('ROLLBACK TO SAVEPOINT direct_copy');
      direct.misses++;
    }
  }
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

/** unique_violation: a row of the batch is stored (or being stored by another writer); deadlock_detected: two
 *  writers' COPYs waited on each other's rows. Either way the staged INSERT, which skips stored rows, stores the batch. */
function storedAlready(e: unknown): boolean {
  const code = (e as { code?: string }).code;
  return code === '23505' || code === '40P01';
}
