// A wallet's stored lending rows (wallet_activity lending_*), in chain order, and the replay's event for each: what
// the tests of positions moved between holders compare the features against.
import type { Queryable } from '../../src/platform/db/types.js';
import type { LendingEvent } from '../../src/modules/scoring/model/lending-positions.js';

export type LendingRow = {
  kind: LendingEvent['kind'];
  protocol: string;
  contract: string;
  counterparty: string | null;
  amount: string;
  value_usd: string | null;
  at: Date;
  block_number: string;
  log_index: number;
  ref: string | null;
  tx_from: string | null;
};

export function lendingRows(db: Queryable, wallet: string): Promise<LendingRow[]> {
  return db.query<LendingRow>(
    `SELECT kind, protocol, contract, counterparty, amount::text AS amount, value_usd::text AS value_usd, occurred_at AS at, block_number, log_index, ref, tx_from
       FROM wallet_activity WHERE wallet = $1 AND kind LIKE 'lending\\_%' ORDER BY block_number, log_index`,
    [wallet],
  );
}

export const asLendingEvent = (r: LendingRow, chainId = 1): LendingEvent => ({
  kind: r.kind,
  protocol: r.protocol,
  chainId,
  contract: r.contract,
  counterparty: r.counterparty,
  amount: Number(r.amount),
  usd: r.value_usd === null ? null : Number(r.value_usd),
  at: new Date(r.at).getTime(),
  block: Number(r.block_number),
  logIndex: r.log_index,
  ref: r.ref,
});
