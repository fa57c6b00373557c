// How a bulk import writes: large multi-row statements, and one batch's write in flight while the next batch is
// read and decoded, so reading, decoding and the database work at the same time instead of taking turns.
import type { Queryable } from '../../../platform/db/types.js';
import type { ActivityRecord } from '../decode.js';

/** Records per INSERT: one statement's parameters are 16 arrays of this many values. */
const STATEMENT_ROWS = 5000;

/**
 * Stores records, ignoring those already stored (as the ingestion repo's insertActivity does); returns the
 * wallets that gained at least one record. The database answers each wallet once per statement, not once per
 * inserted row.
 */
export async function insertActivityBulk(q: Queryable, records: ActivityRecord[]): Promise<Set<string>> {
  const changed = new Set<string>();
  for (let i = 0; i < records.length; i += STATEMENT_ROWS) {
    const chunk = records.slice(i, i + STATEMENT_ROWS);
    const col = <T>(f: (r: ActivityRecord) => T) => chunk.map(f);
    const rows = await q.query<{ wallet: string }>(
      `WITH inserted AS (
         INSERT INTO wallet_activity (chain_id, tx_hash, log_index, wallet, kind, block_number, occurred_at, contract,
           counterparty, token_id, amount, direction, protocol, ref, value_usd, tx_from)
         SELECT * FROM unnest($1::int[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::timestamptz[],
           $8::text[], $9::text[], $10::numeric[], $11::numeric[], $12::text[], $13::text[], $14::text[], $15::numeric[], $16::text[])
         ON CONFLICT DO NOTHING RETURNING wallet)
       SELECT DISTINCT wallet FROM inserted`,
      [
        col((r) => r.chainId), col((r) => r.txHash), col((r) => r.logIndex), col((r) => r.wallet), col((r) => r.kind),
        col((r) => r.blockNumber), col((r) => r.occurredAt), col((r) => r.contract), col((r) => r.counterparty),
        col((r) => r.tokenId), col((r) => r.amount), col((r) => r.direction), col((r) => r.protocol), col((r) => r.ref),
        col((r) => (r.valueUsd === null || r.valueUsd === undefined ? null : String(r.valueUsd))),
        col((r) => r.txFrom?.toLowerCase() ?? null),
      ],
    );
    for (const r of rows) changed.add(r.wallet);
  }
  return changed;
}

/**
 * Runs writes one after another, in the order given, with at most one running: `push` returns once the write
 * before it is done (the caller then prepares the next batch while this one runs). A failed write fails the
 * next `push` or `drain`, so nothing after it is written.
 */
export function writeQueue() {
  let pending: Promise<void> = Promise.resolve();
  return {
    async push(write: () => Promise<void>): Promise<void> {
      const before = pending;
      pending = before.then(write);
      // the failure is reported by the next push or drain, never as an unhandled rejection meanwhile
      pending.catch(() => undefined);
      await before;
    },
    drain(): Promise<void> {
      return pending;
    },
  };
}
