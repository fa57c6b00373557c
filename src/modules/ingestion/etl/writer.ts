// How a bulk import writes: on PostgreSQL a batch's records COPYed into a staging table and moved into
// wallet_activity by one INSERT ... SELECT in key order (copy-insert.ts); elsewhere (PGlite, small writes) large
// multi-row statements. One batch's write in flight while the next batch is read and decoded, so reading, decoding
// and the database work at the same time instead of taking turns.
import type { Queryable } from '../../../platform/db/types.js';
import type { ActivityRecord } from '../decode.js';
import { copyActivity, type DirectCopy } from './copy-insert.js';

/** Fewer records than this are written by one statement: a COPY's extra round trips cost more than they save. */
const COPY_MIN = 100;

/** Records per INSERT: one statement's parameters are 16 arrays of this many values. */
const STATEMENT_ROWS = 5000;

const COLUMNS = `chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract, counterparty, token_id, amount,
  direction, protocol, ref, value_usd, tx_from`;
const ROWS = `unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::timestamptz[], $8::text[], $9::text[],
  $10::numeric[], $11::numeric[], $12::text[], $13::text[], $14::text[], $15::numeric[], $16::text[]) AS t(${COLUMNS})`;
const INSERT = `WITH inserted AS (
    INSERT INTO wallet_activity (${COLUMNS}) SELECT * FROM ${ROWS} ON CONFLICT DO NOTHING RETURNING wallet, occurred_at IS NULL AS undated)
  SELECT wallet, count(*)::int AS n, count(*) FILTER (WHERE undated)::int AS undated FROM inserted GROUP BY wallet`;
// Decoded token transfers repeat logs (which also tell ERC-721 from ERC-20): a record whose log is stored under any
// wallet or kind is left out, in the same statement. One primary-key probe per record (LATERAL ... LIMIT 1 is never
// planned as a hash join over a scan of every stored record, which a freshly loaded table's statistics invite).
const INSERT_NEW_LOGS = `WITH inserted AS (
    INSERT INTO wallet_activity (${COLUMNS})
    SELECT t.* FROM ${ROWS}
    LEFT JOIN LATERAL (SELECT 1 AS hit FROM wallet_activity a
      WHERE a.chain_id = t.chain_id AND a.tx_hash = t.tx_hash AND a.log_index = t.log_index LIMIT 1) stored ON true
    WHERE stored.hit IS NULL
    ON CONFLICT DO NOTHING RETURNING wallet, occurred_at IS NULL AS undated)
  SELECT wallet, count(*)::int AS n, count(*) FILTER (WHERE undated)::int AS undated FROM inserted GROUP BY wallet`;

export interface BulkInsertOptions {
  /** leave out records whose log (chain, transaction, log index) is already stored: token_transfers rows */
  skipStoredLogs?: boolean;
  /** a bulk import's batches of COPY text: tried straight into wallet_activity first (copy-insert.ts) */
  direct?: DirectCopy;
}

/**
 * Stores records, ignoring those already stored (as the ingestion repo's insertActivity does); returns the
 * wallets that gained at least one record, how many records were stored and how many of those have no time. The database answers each wallet
 * once per statement, not once per inserted row.
 */
export async function insertActivityBulk(q: Queryable, records: ActivityRecord[], opts: BulkInsertOptions = {}): Promise<Set<string>> {
  return (await storeActivity(q, records, opts)).wallets;
}

export async function storeActivity(
  q: Queryable,
  records: ActivityRecord[],
  opts: BulkInsertOptions = {},
): Promise<{ wallets: Set<string>; stored: number; undated: number }> {
  if (q.copyFrom && records.length >= COPY_MIN) return copyActivity(q, records, opts);
  const wallets = new Set<string>();
  let stored = 0;
  let undated = 0;
  // a transfer's records (sender and receiver) share a log: one statement, so none is left out for its twin
  const size = opts.skipStoredLogs ? Math.max(1, records.length) : STATEMENT_ROWS;
  for (let i = 0; i < records.length; i += size) {
    const chunk = records.slice(i, i + size);
    const col = <T>(f: (r: ActivityRecord) => T) => chunk.map(f);
    const rows = await q.query<{ wallet: string; n: number; undated: number }>(opts.skipStoredLogs ? INSERT_NEW_LOGS : INSERT, [
      col((r) => r.chainId),
      col((r) => r.txHash),
      col((r) => r.logIndex),
      col((r) => r.wallet),
      col((r) => r.kind),
      col((r) => r.blockNumber),
      col((r) => r.occurredAt),
      col((r) => r.contract),
      col((r) => r.counterparty),
      col((r) => r.tokenId),
      col((r) => r.amount),
      col((r) => r.direction),
      col((r) => r.protocol),
      col((r) => r.ref),
      col((r) => (r.valueUsd === null || r.valueUsd === undefined ? null : String(r.valueUsd))),
      col((r) => r.txFrom?.toLowerCase() ?? null),
    ]);
    for (const r of rows) {
      wallets.add(r.wallet);
      stored += Number(r.n);
      undated += Number(r.undated);
    }
  }
  return { wallets, stored, undated };
}

/**
 * Runs writes in the order given, with at most `concurrency` running at once (each in its own transaction, so on
 * PostgreSQL on its own connection): `push` returns once a slot is free and the write has started (the caller then
 * prepares the next batch while it runs). `after` (the batch's offset, saved once it is stored) runs once its write
 * and every write pushed before it are done, one after another in the order pushed: an offset never passes a batch
 * that is not stored. A failed write or `after` fails the next `push` or `drain`, and no `after` runs from then on
 * (a write already running may still commit: its records are re-read, and left out as stored, by the resume).
 */
export function writeQueue(concurrency = 1) {
  const running = new Set<Promise<unknown>>();
  let ordered: Promise<void> = Promise.resolve();
  let failed: { error: unknown } | null = null;
  return {
    async push(write: () => Promise<void>, after?: () => Promise<void>): Promise<void> {
      while (running.size >= concurrency) await Promise.race(running);
      if (failed) throw failed.error;
      const w = write();
      w.catch((e: unknown) => (failed ??= { error: e })); // before the slot frees: the next push sees it
      const before = ordered;
      ordered = Promise.all([w, before]).then(() => after?.());
      ordered.catch((e: unknown) => (failed ??= { error: e })); // reported by the next push or drain
      const slot: Promise<unknown> = w.then(
        (): boolean => running.delete(slot),
        (): boolean => running.delete(slot),
      );
      running.add(slot);
    },
    async drain(): Promise<void> {
      await ordered;
      await Promise.allSettled(running);
      if (failed) throw failed.error;
    },
  };
}
