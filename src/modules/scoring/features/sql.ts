// The features statement: one wallet's evidence aggregated into its model inputs, from the activity table the
// ingestion module writes (src/modules/ingestion). Self-dealing, griefing and dust are removed here; see
// docs/scoring-model.md for every rule.
/**
 * Whether the liquidity behind a self-dealing marker `m` (a row of lp/clp below) is still in the pool at `block`:
 * a V3 position until its liquidity (IncreaseLiquidity less DecreaseLiquidity, by token id, whoever sent them) is
 * zero or the NFT is burned (with no liquidity records, as over JSON-RPC, until the burn); a V2 pair's LP tokens
 * until the wallet has sent the pair back as many as were minted to it and holds none (sending them to another
 * wallet does not end it); a V4 pool until what the wallet added less what it removed is zero; Balancer: always.
 */
const live = (m: string, block: string) => `(CASE
  WHEN ${m}.protocol = 'uniswap-v3' AND ${m}.token_id IS NOT NULL THEN
    NOT EXISTS (SELECT 1 FROM wallet_activity e WHERE e.kind = 'lp_liquidity' AND e.contract = ${m}.npm AND e.token_id = ${m}.token_id
                  AND e.chain_id = ${m}.chain_id AND e.ref = 'burn' AND e.block_number <= ${block})
    AND COALESCE((SELECT sum(e.amount) FROM wallet_activity e WHERE e.kind = 'lp_liquidity' AND e.contract = ${m}.npm
                    AND e.token_id = ${m}.token_id AND e.chain_id = ${m}.chain_id AND e.block_number <= ${block}), 1) > 0
  WHEN ${m}.protocol = 'uniswap-v2' THEN
    (SELECT COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'in' AND t.counterparty = '0x0000000000000000000000000000000000000000'), 0)
              > COALESCE(sum(t.amount) FILTER (WHERE t.direction = 'out' AND t.counterparty = ${m}.contract), 0)
         OR COALESCE(sum(CASE WHEN t.direction = 'in' THEN t.amount ELSE -t.amount END), 0) > 0
       FROM wallet_activity t WHERE t.wallet = ${m}.wallet AND t.kind = 'transfer_erc20' AND t.chain_id = ${m}.chain_id
         AND t.contract = ${m}.contract AND t.block_number <= ${block})
  WHEN ${m}.protocol = 'uniswap-v4' THEN
    COALESCE((SELECT sum(e.amount) FROM wallet_activity e WHERE e.wallet = ${m}.wallet AND e.kind IN ('lp_position', 'lp_liquidity')
                AND e.chain_id = ${m}.chain_id AND e.contract = ${m}.contract AND e.block_number <= ${block}), 1) > 0
  ELSE true END)`;

/** A swap row `r` in a pool where the wallet's own liquidity sits (a marker of `lp` still live at the swap's block). */
const ownLiquidity = (r: string) =>
  `(${r}.kind = 'swap' AND EXISTS (SELECT 1 FROM lp WHERE lp.chain_id = ${r}.chain_id AND lp.contract = ${r}.contract
                                    AND lp.from_block <= ${r}.block_number AND ${live('lp', `${r}.block_number`)}))`;

// Features by value, from pinned evidence only (decode stored nothing else). Self-dealing is removed here:
// transfers with, and tokens/NFTs of, contracts the wallet deployed; swaps in a Uniswap V2 pair, from the block
// where the pair minted liquidity tokens to the wallet in a transaction where the wallet paid tokens into the pair
// (trading against its own liquidity: the fee goes back to itself; a V2 pair is its own LP token; LP tokens sent to
// a trader, or minted to it by a stranger who added the liquidity, take nothing away); swaps in a
// Uniswap V3 pool, on the same chain, from the block where the wallet opened a position there (an 'lp_position'
// record: a position NFT the pinned NonfungiblePositionManager minted to the wallet in a transaction the wallet
// sent or paid the pool in, see positions.ts; a position sent to the wallet, or minted to it by someone else,
// takes nothing away), each while that liquidity is in the pool (`live`); the 'lp_position' and 'lp_liquidity' records themselves (no credit of any kind); valued lending and swaps
// below the dust floor;
// zero-weight votes; self-delegation; attestations other than trusted ones ('eas-trusted') and self-attestations.
export const FEATURES_SQL = `
WITH own AS (SELECT contract FROM wallet_activity WHERE wallet = $1 AND kind = 'contract_deploy' AND contract IS NOT NULL),
-- pools holding the wallet's own liquidity, from the block it was added (while it is there: live): a V2 pair that minted the wallet LP tokens
-- in a transaction the wallet sent, in which it paid the pair one of the pair's own tokens (a stranger adding
-- liquidity in its name sends the transaction and pays itself, and a token of the stranger's emitting
-- Transfer(wallet -> pair) is not the pair's: it cannot wipe the wallet's trading credit this way), or a V3 pool of
-- an 'lp_position' (positions.ts)
lp AS (SELECT m.chain_id, m.contract, m.block_number AS from_block, $1::text AS wallet, 'uniswap-v2' AS protocol, NULL::numeric AS token_id, NULL::text AS npm
         FROM wallet_activity m
          WHERE m.wallet = $1 AND m.kind = 'transfer_erc20' AND m.direction = 'in' AND m.contract IS NOT NULL
            AND m.counterparty = '0x0000000000000000000000000000000000000000' AND m.tx_from = $1
            AND EXISTS (SELECT 1 FROM wallet_activity p WHERE p.wallet = $1 AND p.chain_id = m.chain_id AND p.tx_hash = m.tx_hash
                        AND p.kind = 'transfer_erc20' AND p.direction = 'out' AND p.counterparty = m.contract AND p.amount > 0
                        AND EXISTS (SELECT 1 FROM wallet_activity t WHERE t.wallet = $1 AND t.kind = 'swap' AND t.chain_id = m.chain_id
                                    AND t.contract = m.contract AND p.contract IN (split_part(t.ref, '/', 1), split_part(t.ref, '/', 2))))
       UNION ALL
       SELECT chain_id, contract, block_number, wallet, protocol, token_id, counterparty FROM wallet_activity WHERE wallet = $1 AND kind = 'lp_position'),
-- transactions the wallet paid in without sending them (a contract wallet, a relayed call): it moved an allowlisted
-- token out, which no one can fake (a token of anyone's emitting Transfer(wallet -> x) is not allowlisted)
paid AS (SELECT DISTINCT chain_id, tx_hash FROM wallet_activity WHERE wallet = $1 AND kind = 'transfer_erc20' AND direction = 'out'
           AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2),
-- mine: the row is of a transaction the wallet sent or paid in (only what the wallet did earns credit)
-- settles: a token sent back to whoever lent it in the same transaction (a flash loan repaid), or paid into the pool
-- the wallet swapped with in that transaction: no payment to anyone, so no counterparty and no transfer (SOCIAL)
sent AS (SELECT w.*, (w.tx_from = $1 OR EXISTS (SELECT 1 FROM paid p WHERE p.chain_id = w.chain_id AND p.tx_hash = w.tx_hash)) AS mine,
                (w.kind = 'transfer_erc20' AND w.direction = 'out' AND EXISTS (
                  SELECT 1 FROM wallet_activity r WHERE r.wallet = $1 AND r.chain_id = w.chain_id AND r.tx_hash = w.tx_hash
                     AND ((r.kind = 'transfer_erc20' AND r.direction = 'in' AND r.contract = w.contract AND r.counterparty = w.counterparty)
                          OR (r.kind = 'swap' AND r.contract = w.counterparty)))) AS settles,
                -- a position moved between holders (an aToken or a Comet balance transferred), not a Supply: the
                -- positions replay reads it; the supply counters do not
                COALESCE(w.ref IN ('atoken-transfer', 'comet-transfer'), false) AS moved
         FROM wallet_activity w WHERE w.wallet = $1),
a AS (
  SELECT * FROM sent w WHERE wallet = $1
    -- transfers, mints and swaps in someone else's transaction (airdrops, logs naming the wallet) earn nothing
    AND NOT (kind IN ('transfer_native', 'transfer_erc20', 'transfer_erc721', 'transfer_erc1155', 'nft_mint', 'swap') AND NOT mine)
    AND NOT COALESCE(kind IN ('transfer_native', 'transfer_erc20', 'transfer_erc721', 'transfer_erc1155') AND counterparty IN (SELECT contract FROM own), false)
    AND NOT COALESCE(kind IN ('transfer_erc20', 'transfer_erc721', 'transfer_erc1155', 'nft_mint') AND contract IN (SELECT contract FROM own), false)
    AND NOT COALESCE(kind IN ('lending_supply', 'lending_borrow', 'lending_repay', 'lending_withdraw', 'swap') AND value_usd < $2, false)
    AND NOT ${ownLiquidity('w')}
    AND kind NOT IN ('lp_position', 'lp_liquidity', 'tx_fee')
    -- a swap the explorer settled from token transfers (log index -3) is the same swap as its Swap log when a bulk
    -- import or a receipt stored that too: counted once
    AND NOT (kind = 'swap' AND log_index = -3 AND EXISTS (
      SELECT 1 FROM wallet_activity x WHERE x.wallet = $1 AND x.tx_hash = w.tx_hash AND x.kind = 'swap' AND x.log_index >= 0))
    AND NOT COALESCE(kind = 'gov_vote' AND COALESCE(amount, 0) = 0, false)
    AND NOT COALESCE(kind = 'gov_delegate' AND counterparty = $1, false)
    AND NOT COALESCE(kind IN ('attestation_received', 'attestation_made') AND (protocol IS DISTINCT FROM 'eas-trusted' OR counterparty = $1), false)
),
s AS (SELECT COALESCE(sum(nonce), 0) AS tx_count, array_agg(chain_id) FILTER (WHERE nonce > 0) AS chains
      FROM wallet_sync WHERE wallet = $1),
-- trading: the wallet's swaps, per pair and UTC day; a swap counts in the share of its pair-day's volume that stayed
-- a net position (a round trip that returns everything within a day, a flash-funded one above all, earns nothing);
-- fees paid = volume x the pool's fee tier, capped per day (data/scoring/costs.json)
-- a swap in a pool where a wallet of the payer's funding cluster (the first wallet that sent it coin, and
-- wallets it paid in its own transactions) added liquidity, from that block on, is no conduct either; the fees of
-- swaps in established pools (data/scoring/established-pools.json) back the category, unless a position was minted
-- in the same pool and block (just-in-time liquidity takes the fee)
cl AS (SELECT counterparty AS w FROM wallet_activity
        WHERE wallet = $1 AND kind IN ('transfer_native', 'transfer_erc20') AND direction = 'out' AND tx_from = $1
          AND counterparty IS NOT NULL AND counterparty <> $1
          AND ((kind = 'transfer_native' AND amount >= $8::numeric) OR (kind = 'transfer_erc20' AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2))
       UNION
       SELECT * FROM (SELECT counterparty FROM wallet_activity WHERE wallet = $1 AND kind = 'transfer_native' AND direction = 'in'
                        AND counterparty IS NOT NULL AND amount >= $8::numeric ORDER BY block_number, log_index LIMIT 1) first_funder),
clp AS (SELECT x.chain_id, x.contract, x.block_number AS from_block, x.wallet,
                CASE WHEN x.kind = 'lp_position' THEN x.protocol ELSE 'uniswap-v2' END AS protocol, x.token_id, x.counterparty AS npm
         FROM wallet_activity x JOIN cl ON x.wallet = cl.w
         WHERE x.kind = 'lp_position'
            OR (x.kind = 'transfer_erc20' AND x.direction = 'in' AND x.counterparty = '0x0000000000000000000000000000000000000000'
                AND x.tx_from = x.wallet AND x.contract IN (SELECT contract FROM a WHERE kind = 'swap'))),
sw0 AS (SELECT chain_id, tx_hash, contract, protocol, COALESCE(ref, contract) AS pair, (occurred_at AT TIME ZONE 'UTC')::date AS d, occurred_at,
              COALESCE(amount, 3000) / 1000000.0 AS fee, COALESCE(value_usd, $3) AS usd, value_usd IS NULL AS unvalued,
              CASE WHEN direction = 'in' THEN -1 ELSE 1 END * COALESCE(value_usd, $3) AS signed,
              EXISTS (SELECT 1 FROM clp WHERE clp.chain_id = a.chain_id AND clp.contract = a.contract AND clp.from_block <= a.block_number
                        AND ${live('clp', 'a.block_number')}) AS cluster_lp,
              (a.chain_id || ':' || a.contract) = ANY($11::text[]) AS established,
              EXISTS (SELECT 1 FROM wallet_activity j WHERE j.kind = 'lp_position' AND j.contract = a.contract AND j.chain_id = a.chain_id
                        AND j.block_number = a.block_number) AS jit
       FROM a WHERE kind = 'swap'),
sw AS (SELECT * FROM sw0 WHERE NOT cluster_lp),
pd AS (SELECT chain_id, pair, d, abs(sum(signed)) AS net, sum(usd) AS gross FROM sw GROUP BY chain_id, pair, d),
sc AS (SELECT sw.*, CASE WHEN pd.gross > 0 THEN pd.net / pd.gross ELSE 0 END AS share FROM sw JOIN pd USING (chain_id, pair, d)),
scn AS (SELECT * FROM sc WHERE share > 0.05),
td AS (SELECT d, least($4, sum(fee * usd * share)) AS fees, least($4, COALESCE(sum(fee * usd * share) FILTER (WHERE established AND NOT jit), 0)) AS backed
       FROM scn GROUP BY d),
-- governance: votes at or above the floor, per proposal, each weighing ln(1 + votes/floor) / ln(1 + full/floor)
gv AS (SELECT contract, ref, max(protocol) AS protocol, min(occurred_at) AS t, max(amount) / 1e18 AS tokens FROM a WHERE kind = 'gov_vote'
       GROUP BY contract, ref HAVING max(amount) / 1e18 >= $6),
-- delegations received weigh the votes they moved to the wallet (DelegateVotesChanged in the same transaction)
dr AS (SELECT chain_id, tx_hash, count(*) AS n FROM a WHERE kind = 'gov_delegated_to' GROUP BY chain_id, tx_hash),
dv AS (SELECT chain_id, tx_hash, sum(amount) / 1e18 AS tokens, max(protocol) AS protocol, max(occurred_at) AS t
       FROM wallet_activity WHERE wallet = $1 AND kind = 'gov_votes_changed' GROUP BY chain_id, tx_hash),
dd AS (SELECT dr.n, dv.tokens / dr.n AS each, dv.protocol, dv.t FROM dr JOIN dv USING (chain_id, tx_hash) WHERE dv.tokens / dr.n >= $6),
-- gas the wallet paid (data/scoring/backing.json): per transaction it sent, at the chain's reference coin price
gas AS (SELECT g.chain_id, g.tx_hash, g.amount::float8 / 1e18 * COALESCE(px.usd, 0) AS usd
        FROM wallet_activity g LEFT JOIN unnest($12::int[], $13::float8[]) AS px(cid, usd) ON px.cid = g.chain_id
        WHERE g.wallet = $1 AND g.kind = 'tx_fee' AND g.amount IS NOT NULL),
-- NFT: collections on the maintained list, or that enough other wallets minted or bought in their own transactions
nc AS (SELECT DISTINCT n.chain_id, n.contract FROM a n WHERE n.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155')
         AND ((n.chain_id || ':' || n.contract) = ANY($9::text[])
              OR (SELECT count(DISTINCT h.wallet) FROM wallet_activity h WHERE h.contract = n.contract AND h.chain_id = n.chain_id
                    AND h.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155') AND h.direction = 'in' AND h.tx_from = h.wallet AND h.wallet <> $1) >= $10)),
nf AS (SELECT a.* FROM a JOIN nc USING (chain_id, contract) WHERE a.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155')),
-- developer: third parties calling the wallet's contracts, not funded by it (no transfer from it in its own transactions)
du AS (SELECT u.contract, u.counterparty FROM wallet_activity u WHERE u.wallet = $1 AND u.kind = 'contract_used'
         AND u.contract IN (SELECT contract FROM own) AND u.counterparty <> $1
         AND u.counterparty NOT IN (SELECT f.counterparty FROM wallet_activity f WHERE f.wallet = $1 AND f.tx_from = $1 AND f.direction = 'out'
                                      AND f.kind IN ('transfer_native', 'transfer_erc20') AND f.counterparty IS NOT NULL))
SELECT
  (SELECT tx_count FROM s) AS tx_count,
  (SELECT chains FROM s) AS sync_chains,
  array_agg(DISTINCT chain_id) AS chains,
  -- age and activity: only transactions the wallet sent or paid in, its votes and delegations (never inbound records)
  min(occurred_at) FILTER (WHERE (mine OR kind IN ('gov_vote', 'gov_delegate')) AND kind NOT IN ('gov_votes_changed', 'contract_used')) AS first_at,
  max(occurred_at) FILTER (WHERE (mine OR kind IN ('gov_vote', 'gov_delegate')) AND kind NOT IN ('gov_votes_changed', 'contract_used')) AS last_at,
  count(DISTINCT (occurred_at AT TIME ZONE 'UTC')::date) FILTER (WHERE (mine OR kind IN ('gov_vote', 'gov_delegate')) AND kind NOT IN ('gov_votes_changed', 'contract_used')) AS active_days,
  count(DISTINCT date_trunc('month', occurred_at AT TIME ZONE 'UTC')) FILTER (WHERE (mine OR kind IN ('gov_vote', 'gov_delegate')) AND kind NOT IN ('gov_votes_changed', 'contract_used')) AS active_months,
  -- counterparties: addresses the wallet paid something real (0.001 of the coin, an allowlisted token above dust)
  count(DISTINCT counterparty) FILTER (WHERE mine AND counterparty IS NOT NULL AND direction = 'out' AND NOT settles
    AND ((kind = 'transfer_native' AND amount >= $8::numeric) OR (kind = 'transfer_erc20' AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2))) AS counterparties,
  count(*) FILTER (WHERE mine AND direction = 'out' AND NOT settles AND kind = 'transfer_erc20' AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2) AS token_transfers,
  count(DISTINCT contract) FILTER (WHERE mine AND ((kind = 'transfer_erc20' AND protocol = 'listed') OR kind IN ('transfer_erc721', 'transfer_erc1155', 'nft_mint'))) AS distinct_tokens,
  count(*) FILTER (WHERE kind = 'lending_supply' AND NOT moved) AS supplies,
  count(*) FILTER (WHERE kind = 'lending_borrow') AS borrows,
  count(*) FILTER (WHERE kind = 'lending_repay') AS repays,
  count(*) FILTER (WHERE kind = 'lending_liquidation') AS liquidations,
  count(DISTINCT protocol) FILTER (WHERE kind LIKE 'lending\\_%') AS lending_protocols,
  COALESCE(sum(value_usd) FILTER (WHERE kind = 'lending_supply' AND NOT moved), 0) AS supplied_usd,
  COALESCE(sum(value_usd) FILTER (WHERE kind = 'lending_borrow'), 0) AS borrowed_usd,
  COALESCE(sum(value_usd) FILTER (WHERE kind = 'lending_repay'), 0) AS repaid_usd,
  COALESCE(sum(value_usd) FILTER (WHERE kind = 'lending_liquidation'), 0) AS liquidated_usd,
  count(*) FILTER (WHERE kind = 'lending_supply' AND NOT moved AND value_usd IS NULL) AS unvalued_supplies,
  count(*) FILTER (WHERE kind = 'lending_borrow' AND value_usd IS NULL) AS unvalued_borrows,
  count(*) FILTER (WHERE kind = 'lending_repay' AND value_usd IS NULL) AS unvalued_repays,
  -- every lending row, dust included (a small final repayment still closes a loan): positions are rebuilt from them
  (SELECT json_agg(json_build_array(l.kind, l.protocol, l.chain_id, l.contract, l.counterparty, l.amount::float8, l.value_usd::float8,
                   EXTRACT(EPOCH FROM l.occurred_at) * 1000, l.block_number, l.ref, l.log_index))
     FROM wallet_activity l WHERE l.wallet = $1 AND l.kind LIKE 'lending\\_%' AND l.occurred_at IS NOT NULL AND l.amount IS NOT NULL) AS lending_rows,
  (SELECT count(*) FROM scn) AS swaps,
  (SELECT COALESCE(sum(usd * share), 0) FROM scn WHERE NOT unvalued) AS volume_usd,
  (SELECT count(*) FROM scn WHERE unvalued) AS unvalued_swaps,
  (SELECT count(DISTINCT contract) FROM scn) AS pools,
  (SELECT count(DISTINCT protocol) FROM scn) AS swap_protocols,
  (SELECT count(*) FROM td WHERE fees >= $5) AS swap_days,
  (SELECT COALESCE(sum(fees), 0) FROM td) AS fees_usd,
  (SELECT COALESCE(sum(backed), 0) FROM td) AS backed_fees_usd,
  (SELECT count(*) FROM sw0 WHERE cluster_lp) AS swaps_cluster_lp,
  (SELECT count(*) FROM scn WHERE jit) AS swaps_jit,
  (SELECT count(*) FROM sc WHERE share <= 0.05) AS swaps_round_trip,
  -- (read from the table, not from sent: a second reader of sent would make PostgreSQL materialize it, ~20% slower)
  CASE WHEN EXISTS (SELECT 1 FROM lp) THEN (SELECT count(*) FROM wallet_activity o WHERE o.wallet = $1 AND o.kind = 'swap'
     AND (o.tx_from = $1 OR EXISTS (SELECT 1 FROM paid p WHERE p.chain_id = o.chain_id AND p.tx_hash = o.tx_hash)) AND ${ownLiquidity('o')}) ELSE 0 END AS swaps_own_lp,
  (SELECT COALESCE(sum(usd), 0) FROM gas WHERE EXISTS (SELECT 1 FROM a WHERE a.chain_id = gas.chain_id AND a.tx_hash = gas.tx_hash AND a.kind LIKE 'lending\\_%')) AS gas_lending,
  (SELECT COALESCE(sum(usd), 0) FROM gas WHERE EXISTS (SELECT 1 FROM scn WHERE scn.chain_id = gas.chain_id AND scn.tx_hash = gas.tx_hash)) AS gas_trading,
  (SELECT COALESCE(sum(usd), 0) FROM gas WHERE EXISTS (SELECT 1 FROM a WHERE a.chain_id = gas.chain_id AND a.tx_hash = gas.tx_hash AND a.kind IN ('gov_vote', 'gov_delegate'))) AS gas_governance,
  (SELECT COALESCE(sum(usd), 0) FROM gas WHERE EXISTS (SELECT 1 FROM a WHERE a.chain_id = gas.chain_id AND a.tx_hash = gas.tx_hash AND a.kind <> 'contract_used')) AS gas_total,
  count(*) FILTER (WHERE kind = 'gov_vote' AND amount / 1e18 >= $6) AS votes,
  (SELECT count(*) FROM gv) AS proposals,
  (SELECT COALESCE(sum(least(1, ln(1 + tokens / $6) / ln(1 + $7 / $6))), 0) FROM gv) AS vote_power,
  count(*) FILTER (WHERE kind = 'gov_delegate') AS delegations_made,
  (SELECT COALESCE(sum(n), 0) FROM dd) AS delegations_received,
  (SELECT COALESCE(sum(n * least(1, ln(1 + each / $6) / ln(1 + $7 / $6))), 0) FROM dd) AS delegated_power,
  (SELECT count(DISTINCT contract) FROM gv) AS governors,
  (SELECT count(*) FROM nf WHERE kind = 'nft_mint') AS mints,
  (SELECT count(*) FROM nf WHERE kind <> 'nft_mint' AND direction = 'in') AS nft_received,
  (SELECT count(*) FROM nf WHERE kind <> 'nft_mint' AND direction = 'out') AS nft_sent,
  (SELECT count(*) FROM nc) AS collections,
  -- NFTs the wallet moved itself in collections neither listed nor held by enough others: found, not counted
  count(*) FILTER (WHERE kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155') AND (chain_id, contract) NOT IN (SELECT chain_id, contract FROM nc)) AS nft_unlisted,
  -- found and left out by \`a\`, so that the factors can say so: NFTs moved in someone else's transaction (an airdrop,
  -- an operator's transfer), delegations to itself, attestations from untrusted attesters or about itself
  (SELECT count(*) FROM wallet_activity x WHERE x.wallet = $1 AND x.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155')
     AND x.tx_from IS DISTINCT FROM $1 AND NOT EXISTS (SELECT 1 FROM paid p WHERE p.chain_id = x.chain_id AND p.tx_hash = x.tx_hash)) AS nft_not_theirs,
  (SELECT count(*) FROM wallet_activity x WHERE x.wallet = $1 AND x.kind = 'gov_delegate' AND x.counterparty = $1) AS self_delegations,
  (SELECT count(*) FILTER (WHERE x.kind = 'attestation_received') FROM wallet_activity x WHERE x.wallet = $1
     AND x.kind IN ('attestation_received', 'attestation_made') AND (x.protocol IS DISTINCT FROM 'eas-trusted' OR x.counterparty = $1)) AS att_received_untrusted,
  (SELECT count(*) FILTER (WHERE x.kind = 'attestation_made') FROM wallet_activity x WHERE x.wallet = $1
     AND x.kind IN ('attestation_received', 'attestation_made') AND (x.protocol IS DISTINCT FROM 'eas-trusted' OR x.counterparty = $1)) AS att_made_untrusted,
  count(*) FILTER (WHERE kind = 'contract_deploy') AS deployed,
  count(*) FILTER (WHERE kind = 'contract_deploy' AND ref = 'code') AS with_code,
  (SELECT count(DISTINCT contract) FROM du) AS used_contracts,
  (SELECT count(DISTINCT counterparty) FROM du) AS third_party_users,
  count(DISTINCT ref) FILTER (WHERE kind = 'ens_register') AS ens_names,
  count(*) FILTER (WHERE kind = 'attestation_received') AS att_received,
  count(*) FILTER (WHERE kind = 'attestation_made') AS att_made,
  count(*) FILTER (WHERE kind <> 'contract_used') AS evidence,
  max(occurred_at) FILTER (WHERE kind LIKE 'lending\\_%') AS lending_at,
  (SELECT max(occurred_at) FROM scn) AS trading_at,
  max(occurred_at) FILTER (WHERE kind IN ('gov_vote', 'gov_delegate', 'gov_delegated_to')) AS governance_at,
  (SELECT max(occurred_at) FROM nf) AS nft_at,
  max(occurred_at) FILTER (WHERE kind IN ('ens_register', 'attestation_received')) AS identity_at,
  max(occurred_at) FILTER (WHERE (mine AND direction = 'out' AND kind <> 'swap') OR kind = 'attestation_made') AS social_at,
  max(occurred_at) FILTER (WHERE kind = 'contract_deploy') AS developer_at
FROM a`;

// Many wallets in one statement: the per-wallet aggregation above, correlated to each wallet of the list (LATERAL;
// `wanted` is a name the aggregation does not use), with verifiedPool()'s probe. Planning this statement costs more
// than running it for one wallet: a chunk is planned once, and on PostgreSQL, as a prepared statement, once per
// connection.
export const FEATURES_MANY_SQL = `
SELECT wanted.wallet AS wallet_key,
  (SELECT p.protocol FROM wallet_activity p WHERE p.contract = wanted.wallet AND p.kind = 'swap' LIMIT 1) AS pool_protocol, f.*
FROM unnest($1::text[]) WITH ORDINALITY AS wanted(wallet, i)
CROSS JOIN LATERAL (${FEATURES_SQL.replace(/\$1(?!\d)/g, 'wanted.wallet')}) f
ORDER BY wanted.i`;
