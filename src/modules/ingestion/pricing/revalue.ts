// Lending rows stored unvalued — before a price source was configured (a deployment upgraded from a version without
// one, an ethereum-etl import without CREDENCE_RPC_URL_<chain>), or read through a node without that block's state —
// are valued when the wallet syncs again over JSON-RPC: the same rule as decode (amount / decimals x the oracle price
// at the event's bucket, dust below the floor), through the same reader. Rows whose price is still unknown stay null.
import type { Queryable } from '../../../platform/db/types.js';
import { contractInfo } from '../registry/index.js';
import { evidenceValue } from '../registry/gate.js';
import type { PriceReader } from './reader.js';

interface Row {
  tx_hash: string;
  log_index: number;
  kind: string;
  contract: string | null;
  counterparty: string | null;
  protocol: string | null;
  amount: string;
  block_number: string;
}

/** The asset a lending row's amount is in: Aave names it (reserve / debt asset); a Comet market lends its base token. */
function assetOf(chainId: number, r: Row): string | null {
  if (r.protocol === 'compound-v3') return r.contract ? (contractInfo(chainId, r.contract)?.baseToken ?? null) : null;
  return r.counterparty;
}

/** Values what can be valued now; returns how many rows gained a value. */
export async function revalueStored(q: Queryable, reader: PriceReader, wallet: string): Promise<number> {
  const chainId = reader.chainId;
  const rows = await q.query<Row>(
    `SELECT tx_hash, log_index, kind, contract, counterparty, protocol, amount::text AS amount, block_number
       FROM wallet_activity
      WHERE wallet = $1 AND chain_id = $2 AND value_usd IS NULL AND amount IS NOT NULL
        AND kind IN ('lending_supply', 'lending_borrow', 'lending_repay', 'lending_withdraw', 'lending_liquidation')`,
    [wallet, chainId],
  );
  const wanted = rows.flatMap((r) => {
    const token = assetOf(chainId, r);
    return token ? [{ r, token, block: Number(r.block_number) }] : [];
  });
  if (!wanted.length) return 0;
  const price = await reader.read(wanted.map(({ token, block }) => ({ token, block })));
  let n = 0;
  for (const { r, token, block } of wanted) {
    const p = price(token, block);
    if (p === null || p === undefined) continue;
    const v = evidenceValue(chainId, token, r.amount, p);
    if (v === null) continue;
    await q.query(
      'UPDATE wallet_activity SET value_usd = $1 WHERE chain_id = $2 AND tx_hash = $3 AND log_index = $4 AND wallet = $5 AND kind = $6 AND value_usd IS NULL',
      [v, chainId, r.tx_hash, r.log_index, wallet, r.kind],
    );
    n++;
  }
  return n;
}
