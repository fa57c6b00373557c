// The features statement: a chunk of wallets' evidence aggregated into their model inputs, from the activity table
// the ingestion module writes (src/modules/ingestion). Self-dealing, griefing and dust are removed here; see
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

/** A swap row `r` in a pool where its wallet's own liquidity sits (a marker of `lp` still live at the swap's block). */
const ownLiquidity = (r: string) =>
  `(${r}.kind = 'swap' AND EXISTS (SELECT 1 FROM lp WHERE lp.wallet = ${r}.wallet AND lp.chain_id = ${r}.chain_id AND lp.contract = ${r}.contract
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
// Set-based: every wallet of the chunk ($1) at once, each part keyed by its wallet and grouped by it (a statement
// per wallet, or one correlated to each wallet, re-ran the whole plan per wallet: most of a rescoring's database
// time). A wallet's own rows are matched by (wallet, ...) IN (...), which PostgreSQL hashes once per statement.
export const FEATURES_MANY_SQL = `
WITH own AS (SELECT wallet, contract FROM wallet_activity WHERE wallet = ANY($1::text[]) AND kind = 'contract_deploy' AND contract IS NOT NULL),
-- pools holding the wallet's own liquidity, from the block it was added (while it is there: live): a V2 pair that minted the wallet LP tokens
-- in a transaction the wallet sent, in which it paid the pair one of the pair's own tokens (a stranger adding
-- liquidity in its name sends the transaction and pays itself, and a token of the stranger's emitting
-- Transfer(wallet -> pair) is not the pair's: it cannot wipe the wallet's trading credit this way), or a V3 pool of
-- an 'lp_position' (positions.ts)
lp AS (SELECT m.chain_id, m.contract, m.block_number AS from_block, m.wallet, 'uniswap-v2' AS protocol, NULL::numeric AS token_id, NULL::text AS npm
         FROM wallet_activity m
          WHERE m.wallet = ANY($1::text[]) AND m.kind = 'transfer_erc20' AND m.direction = 'in' AND m.contract IS NOT NULL
            AND m.counterparty = '0x0000000000000000000000000000000000000000' AND m.tx_from = m.wallet
            AND EXISTS (SELECT 1 FROM wallet_activity p WHERE p.wallet = m.wallet AND p.chain_id = m.chain_id AND p.tx_hash = m.tx_hash
                        AND p.kind = 'transfer_erc20' AND p.direction = 'out' AND p.counterparty = m.contract AND p.amount > 0
                        AND EXISTS (SELECT 1 FROM wallet_activity t WHERE t.wallet = m.wallet AND t.kind = 'swap' AND t.chain_id = m.chain_id
                                    AND t.contract = m.contract AND p.contract IN (split_part(t.ref, '/', 1), split_part(t.ref, '/', 2))))
       UNION ALL
       SELECT chain_id, contract, block_number, wallet, protocol, token_id, counterparty FROM wallet_activity
        WHERE wallet = ANY($1::text[]) AND kind = 'lp_position'),
-- transactions the wallet paid in without sending them (a contract wallet, a relayed call): it moved an allowlisted
-- token out, which no one can fake (a token of anyone's emitting Transfer(wallet -> x) is not allowlisted)
paid AS (SELECT DISTINCT wallet, chain_id, tx_hash FROM wallet_activity WHERE wallet = ANY($1::text[]) AND kind = 'transfer_erc20'
           AND direction = 'out' AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2),
-- mine: the row is of a transaction the wallet sent or paid in (only what the wallet did earns credit)
-- settles: a token sent back to whoever lent it in the same transaction (a flash loan repaid), or paid into the pool
-- the wallet swapped with in that transaction: no payment to anyone, so no counterparty and no transfer (SOCIAL)
sent AS (SELECT w.*, (w.tx_from = w.wallet OR (w.wallet, w.chain_id, w.tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM paid)) AS mine,
                (w.kind = 'transfer_erc20' AND w.direction = 'out' AND EXISTS (
                  SELECT 1 FROM wallet_activity r WHERE r.wallet = w.wallet AND r.chain_id = w.chain_id AND r.tx_hash = w.tx_hash
                     AND ((r.kind = 'transfer_erc20' AND r.direction = 'in' AND r.contract = w.contract AND r.counterparty = w.counterparty)
                          OR (r.kind = 'swap' AND r.contract = w.counterparty)))) AS settles,
                -- a position moved between holders (an aToken or a Comet balance transferred), not a Supply: the
                -- positions replay reads it; the supply counters do not
                COALESCE(w.ref IN ('atoken-transfer', 'comet-transfer'), false) AS moved
         FROM wallet_activity w WHERE w.wallet = ANY($1::text[])),
a AS (
  SELECT * FROM sent w WHERE
    -- transfers, mints and swaps in someone else's transaction (airdrops, logs naming the wallet) earn nothing
    NOT (kind IN ('transfer_native', 'transfer_erc20', 'transfer_erc721', 'transfer_erc1155', 'nft_mint', 'swap') AND NOT mine)
    AND NOT COALESCE(kind IN ('transfer_native', 'transfer_erc20', 'transfer_erc721', 'transfer_erc1155')
                     AND (wallet, counterparty) IN (SELECT wallet, contract FROM own), false)
    AND NOT COALESCE(kind IN ('transfer_erc20', 'transfer_erc721', 'transfer_erc1155', 'nft_mint') AND (wallet, contract) IN (SELECT wallet, contract FROM own), false)
    AND NOT COALESCE(kind IN ('lending_supply', 'lending_borrow', 'lending_repay', 'lending_withdraw', 'swap') AND value_usd < $2, false)
    AND NOT ${ownLiquidity('w')}
    AND kind NOT IN ('lp_position', 'lp_liquidity', 'tx_fee')
    -- a swap the explorer settled from token transfers (log index -3) is the same swap as its Swap log when a bulk
    -- import or a receipt stored that too: counted once
    AND NOT (kind = 'swap' AND log_index = -3 AND EXISTS (
      SELECT 1 FROM wallet_activity x WHERE x.wallet = w.wallet AND x.tx_hash = w.tx_hash AND x.kind = 'swap' AND x.log_index >= 0))
    AND NOT COALESCE(kind = 'gov_vote' AND COALESCE(amount, 0) = 0, false)
    AND NOT COALESCE(kind = 'gov_delegate' AND counterparty = wallet, false)
    AND NOT COALESCE(kind IN ('attestation_received', 'attestation_made') AND (protocol IS DISTINCT FROM 'eas-trusted' OR counterparty = wallet), false)
),
s AS (SELECT wallet, COALESCE(sum(nonce), 0) AS tx_count, array_agg(chain_id) FILTER (WHERE nonce > 0) AS chains
      FROM wallet_sync WHERE wallet IN (SELECT unnest($1::text[])) GROUP BY wallet),
-- trading: the wallet's swaps, per pair and UTC day; a swap counts in the share of its pair-day's volume that stayed
-- a net position (a round trip that returns everything within a day, a flash-funded one above all, earns nothing);
-- fees paid = volume x the pool's fee tier, capped per day (data/scoring/costs.json)
-- a swap in a pool where a wallet of the payer's funding cluster (the first wallet that sent it coin, and
-- wallets it paid in its own transactions) added liquidity, from that block on, is no conduct either; the fees of
-- swaps in established pools (data/scoring/established-pools.json) back the category, unless a position was minted
-- in the same pool and block (just-in-time liquidity takes the fee)
cl AS (SELECT wallet, counterparty AS w FROM wallet_activity
        WHERE wallet = ANY($1::text[]) AND kind IN ('transfer_native', 'transfer_erc20') AND direction = 'out' AND tx_from = wallet
          AND counterparty IS NOT NULL AND counterparty <> wallet
          AND ((kind = 'transfer_native' AND amount >= $8::numeric) OR (kind = 'transfer_erc20' AND protocol = 'listed' AND COALESCE(value_usd, $2) >= $2))
       UNION
       SELECT * FROM (SELECT DISTINCT ON (wallet) wallet, counterparty FROM wallet_activity
                       WHERE wallet = ANY($1::text[]) AND kind = 'transfer_native' AND direction = 'in' AND counterparty IS NOT NULL
                         AND amount >= $8::numeric ORDER BY wallet, block_number, log_index) first_funder),
-- payer: the wallet of the chunk whose cluster it is; wallet: the cluster's wallet that added the liquidity
clp AS (SELECT cl.wallet AS payer, x.chain_id, x.contract, x.block_number AS from_block, x.wallet,
                CASE WHEN x.kind = 'lp_position' THEN x.protocol ELSE 'uniswap-v2' END AS protocol, x.token_id, x.counterparty AS npm
         FROM wallet_activity x JOIN cl ON x.wallet = cl.w
         WHERE x.kind = 'lp_position'
            OR (x.kind = 'transfer_erc20' AND x.direction = 'in' AND x.counterparty = '0x0000000000000000000000000000000000000000'
                AND x.tx_from = x.wallet AND (cl.wallet, x.contract) IN (SELECT wallet, contract FROM a WHERE kind = 'swap'))),
sw0 AS (SELECT wallet, chain_id, tx_hash, contract, protocol, COALESCE(ref, contract) AS pair, (occurred_at AT TIME ZONE 'UTC')::date AS d, occurred_at,
              COALESCE(amount, 3000) / 1000000.0 AS fee, COALESCE(value_usd, $3) AS usd, value_usd IS NULL AS unvalued,
              CASE WHEN direction = 'in' THEN -1 ELSE 1 END * COALESCE(value_usd, $3) AS signed,
              EXISTS (SELECT 1 FROM clp WHERE clp.payer = a.wallet AND clp.chain_id = a.chain_id AND clp.contract = a.contract
                        AND clp.from_block <= a.block_number AND ${live('clp', 'a.block_number')}) AS cluster_lp,
              (a.chain_id || ':' || a.contract) = ANY($11::text[]) AS established,
              EXISTS (SELECT 1 FROM wallet_activity j WHERE j.kind = 'lp_position' AND j.contract = a.contract AND j.chain_id = a.chain_id
                        AND j.block_number = a.block_number) AS jit
       FROM a WHERE kind = 'swap'),
sw AS (SELECT * FROM sw0 WHERE NOT cluster_lp),
pd AS (SELECT wallet, chain_id, pair, d, abs(sum(signed)) AS net, sum(usd) AS gross FROM sw GROUP BY wallet, chain_id, pair, d),
sc AS (SELECT sw.*, CASE WHEN pd.gross > 0 THEN pd.net / pd.gross ELSE 0 END AS share FROM sw JOIN pd USING (wallet, chain_id, pair, d)),
scn AS (SELECT * FROM sc WHERE share > 0.05),
td AS (SELECT wallet, d, least($4, sum(fee * usd * share)) AS fees, least($4, COALESCE(sum(fee * usd * share) FILTER (WHERE established AND NOT jit), 0)) AS backed
       FROM scn GROUP BY wallet, d),
-- governance: votes at or above the floor, per proposal, each weighing ln(1 + votes/floor) / ln(1 + full/floor)
gv AS (SELECT wallet, contract, ref, max(protocol) AS protocol, min(occurred_at) AS t, max(amount) / 1e18 AS tokens FROM a WHERE kind = 'gov_vote'
       GROUP BY wallet, contract, ref HAVING max(amount) / 1e18 >= $6),
-- delegations received weigh the votes they moved to the wallet (DelegateVotesChanged in the same transaction)
dr AS (SELECT wallet, chain_id, tx_hash, count(*) AS n FROM a WHERE kind = 'gov_delegated_to' GROUP BY wallet, chain_id, tx_hash),
dv AS (SELECT wallet, chain_id, tx_hash, sum(amount) / 1e18 AS tokens, max(protocol) AS protocol, max(occurred_at) AS t
       FROM wallet_activity WHERE wallet = ANY($1::text[]) AND kind = 'gov_votes_changed' GROUP BY wallet, chain_id, tx_hash),
dd AS (SELECT dr.wallet, dr.n, dv.tokens / dr.n AS each, dv.protocol, dv.t FROM dr JOIN dv USING (wallet, chain_id, tx_hash) WHERE dv.tokens / dr.n >= $6),
-- gas the wallet paid (data/scoring/backing.json): per transaction it sent, at the chain's reference coin price
gas AS (SELECT g.wallet, g.chain_id, g.tx_hash, g.amount::float8 / 1e18 * COALESCE(px.usd, 0) AS usd
        FROM wallet_activity g LEFT JOIN unnest($12::int[], $13::float8[]) AS px(cid, usd) ON px.cid = g.chain_id
        WHERE g.wallet = ANY($1::text[]) AND g.kind = 'tx_fee' AND g.amount IS NOT NULL),
-- NFT: collections on the maintained list, or that enough other wallets minted or bought in their own transactions
nc AS (SELECT n.wallet, n.chain_id, n.contract
         FROM (SELECT DISTINCT wallet, chain_id, contract FROM a WHERE kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155')) n
        WHERE (n.chain_id || ':' || n.contract) = ANY($9::text[])
              OR (SELECT count(DISTINCT h.wallet) FROM wallet_activity h WHERE h.contract = n.contract AND h.chain_id = n.chain_id
                    AND h.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155') AND h.direction = 'in' AND h.tx_from = h.wallet AND h.wallet <> n.wallet) >= $10),
nf AS (SELECT a.* FROM a JOIN nc USING (wallet, chain_id, contract) WHERE a.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155')),
-- developer: third parties calling the wallet's contracts, not funded by it (no transfer from it in its own transactions)
du AS (SELECT u.wallet, u.contract, u.counterparty FROM wallet_activity u WHERE u.wallet = ANY($1::text[]) AND u.kind = 'contract_used'
         AND (u.wallet, u.contract) IN (SELECT wallet, contract FROM own) AND u.counterparty <> u.wallet
         AND (u.wallet, u.counterparty) NOT IN (SELECT f.wallet, f.counterparty FROM wallet_activity f WHERE f.wallet = ANY($1::text[])
                                      AND f.tx_from = f.wallet AND f.direction = 'out'
                                      AND f.kind IN ('transfer_native', 'transfer_erc20') AND f.counterparty IS NOT NULL)),
-- the counts over a, per wallet
ag AS (SELECT wallet,
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
  count(*) FILTER (WHERE kind = 'gov_vote' AND amount / 1e18 >= $6) AS votes,
  count(*) FILTER (WHERE kind = 'gov_delegate') AS delegations_made,
  -- NFTs the wallet moved itself in collections neither listed nor held by enough others: found, not counted
  count(*) FILTER (WHERE kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155') AND (wallet, chain_id, contract) NOT IN (SELECT wallet, chain_id, contract FROM nc)) AS nft_unlisted,
  count(*) FILTER (WHERE kind = 'contract_deploy') AS deployed,
  count(*) FILTER (WHERE kind = 'contract_deploy' AND ref = 'code') AS with_code,
  count(DISTINCT ref) FILTER (WHERE kind = 'ens_register') AS ens_names,
  count(*) FILTER (WHERE kind = 'attestation_received') AS att_received,
  count(*) FILTER (WHERE kind = 'attestation_made') AS att_made,
  count(*) FILTER (WHERE kind <> 'contract_used') AS evidence,
  max(occurred_at) FILTER (WHERE kind LIKE 'lending\\_%') AS lending_at,
  max(occurred_at) FILTER (WHERE kind IN ('gov_vote', 'gov_delegate', 'gov_delegated_to')) AS governance_at,
  max(occurred_at) FILTER (WHERE kind IN ('ens_register', 'attestation_received')) AS identity_at,
  max(occurred_at) FILTER (WHERE (mine AND direction = 'out' AND kind <> 'swap') OR kind = 'attestation_made') AS social_at,
  max(occurred_at) FILTER (WHERE kind = 'contract_deploy') AS developer_at
  FROM a GROUP BY wallet),
-- every lending row, dust included (a small final repayment still closes a loan): positions are rebuilt from them
-- (in the table's order, as a scan of one wallet's rows gave them)
lr AS (SELECT l.wallet, json_agg(json_build_array(l.kind, l.protocol, l.chain_id, l.contract, l.counterparty, l.amount::float8, l.value_usd::float8,
                   EXTRACT(EPOCH FROM l.occurred_at) * 1000, l.block_number, l.ref, l.log_index) ORDER BY l.ctid) AS lending_rows
         FROM wallet_activity l WHERE l.wallet = ANY($1::text[]) AND l.kind LIKE 'lending\\_%' AND l.occurred_at IS NOT NULL AND l.amount IS NOT NULL
        GROUP BY l.wallet),
tr AS (SELECT wallet, count(*) AS swaps, COALESCE(sum(usd * share) FILTER (WHERE NOT unvalued), 0) AS volume_usd,
              count(*) FILTER (WHERE unvalued) AS unvalued_swaps, count(DISTINCT contract) AS pools, count(DISTINCT protocol) AS swap_protocols,
              count(*) FILTER (WHERE jit) AS swaps_jit, max(occurred_at) AS trading_at
         FROM scn GROUP BY wallet),
tf AS (SELECT wallet, count(*) FILTER (WHERE fees >= $5) AS swap_days, COALESCE(sum(fees), 0) AS fees_usd, COALESCE(sum(backed), 0) AS backed_fees_usd
         FROM td GROUP BY wallet),
tcl AS (SELECT wallet, count(*) AS swaps_cluster_lp FROM sw0 WHERE cluster_lp GROUP BY wallet),
trt AS (SELECT wallet, count(*) AS swaps_round_trip FROM sc WHERE share <= 0.05 GROUP BY wallet),
-- (read from the table, not from sent: a second reader of sent would make PostgreSQL materialize it)
tol AS (SELECT o.wallet, count(*) AS swaps_own_lp FROM wallet_activity o
         WHERE o.wallet = ANY($1::text[]) AND o.wallet IN (SELECT wallet FROM lp) AND o.kind = 'swap'
           AND (o.tx_from = o.wallet OR (o.wallet, o.chain_id, o.tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM paid)) AND ${ownLiquidity('o')}
         GROUP BY o.wallet),
gs AS (SELECT wallet,
         COALESCE(sum(usd) FILTER (WHERE (wallet, chain_id, tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM a WHERE kind LIKE 'lending\\_%')), 0) AS gas_lending,
         COALESCE(sum(usd) FILTER (WHERE (wallet, chain_id, tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM scn)), 0) AS gas_trading,
         COALESCE(sum(usd) FILTER (WHERE (wallet, chain_id, tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM a WHERE kind IN ('gov_vote', 'gov_delegate'))), 0) AS gas_governance,
         COALESCE(sum(usd) FILTER (WHERE (wallet, chain_id, tx_hash) IN (SELECT wallet, chain_id, tx_hash FROM a WHERE kind <> 'contract_used')), 0) AS gas_total
         FROM gas GROUP BY wallet),
gvs AS (SELECT wallet, count(*) AS proposals, COALESCE(sum(least(1, ln(1 + tokens / $6) / ln(1 + $7 / $6))), 0) AS vote_power,
               count(DISTINCT contract) AS governors FROM gv GROUP BY wallet),
dds AS (SELECT wallet, COALESCE(sum(n), 0) AS delegations_received, COALESCE(sum(n * least(1, ln(1 + each / $6) / ln(1 + $7 / $6))), 0) AS delegated_power
          FROM dd GROUP BY wallet),
nfs AS (SELECT wallet, count(*) FILTER (WHERE kind = 'nft_mint') AS mints, count(*) FILTER (WHERE kind <> 'nft_mint' AND direction = 'in') AS nft_received,
               count(*) FILTER (WHERE kind <> 'nft_mint' AND direction = 'out') AS nft_sent, max(occurred_at) AS nft_at
          FROM nf GROUP BY wallet),
ncs AS (SELECT wallet, count(*) AS collections FROM nc GROUP BY wallet),
-- found and left out by \`a\`, so that the factors can say so: NFTs moved in someone else's transaction (an airdrop,
-- an operator's transfer), delegations to itself, attestations from untrusted attesters or about itself
nt AS (SELECT x.wallet, count(*) AS nft_not_theirs FROM wallet_activity x
        WHERE x.wallet = ANY($1::text[]) AND x.kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155') AND x.tx_from IS DISTINCT FROM x.wallet
          AND (x.wallet, x.chain_id, x.tx_hash) NOT IN (SELECT wallet, chain_id, tx_hash FROM paid)
        GROUP BY x.wallet),
lo AS (SELECT x.wallet, count(*) FILTER (WHERE x.kind = 'gov_delegate' AND x.counterparty = x.wallet) AS self_delegations,
              count(*) FILTER (WHERE x.kind = 'attestation_received' AND (x.protocol IS DISTINCT FROM 'eas-trusted' OR x.counterparty = x.wallet)) AS att_received_untrusted,
              count(*) FILTER (WHERE x.kind = 'attestation_made' AND (x.protocol IS DISTINCT FROM 'eas-trusted' OR x.counterparty = x.wallet)) AS att_made_untrusted
         FROM wallet_activity x WHERE x.wallet = ANY($1::text[]) AND x.kind IN ('gov_delegate', 'attestation_received', 'attestation_made')
        GROUP BY x.wallet),
dus AS (SELECT wallet, count(DISTINCT contract) AS used_contracts, count(DISTINCT counterparty) AS third_party_users FROM du GROUP BY wallet)
SELECT wanted.wallet AS wallet_key,
  (SELECT p.protocol FROM wallet_activity p WHERE p.contract = wanted.wallet AND p.kind = 'swap' LIMIT 1) AS pool_protocol,
  s.tx_count, s.chains AS sync_chains, ag.chains, ag.first_at, ag.last_at, ag.active_days, ag.active_months, ag.counterparties, ag.token_transfers,
  ag.distinct_tokens, ag.supplies, ag.borrows, ag.repays, ag.liquidations, ag.lending_protocols, ag.supplied_usd, ag.borrowed_usd,
  ag.repaid_usd, ag.liquidated_usd, ag.unvalued_supplies, ag.unvalued_borrows, ag.unvalued_repays, lr.lending_rows,
  tr.swaps, tr.volume_usd, tr.unvalued_swaps, tr.pools, tr.swap_protocols, tf.swap_days, tf.fees_usd, tf.backed_fees_usd,
  tcl.swaps_cluster_lp, tr.swaps_jit, trt.swaps_round_trip, tol.swaps_own_lp,
  gs.gas_lending, gs.gas_trading, gs.gas_governance, gs.gas_total,
  ag.votes, gvs.proposals, gvs.vote_power, ag.delegations_made, dds.delegations_received, dds.delegated_power, gvs.governors,
  nfs.mints, nfs.nft_received, nfs.nft_sent, ncs.collections, ag.nft_unlisted, nt.nft_not_theirs, lo.self_delegations,
  lo.att_received_untrusted, lo.att_made_untrusted, ag.deployed, ag.with_code, dus.used_contracts, dus.third_party_users,
  ag.ens_names, ag.att_received, ag.att_made, ag.evidence, ag.lending_at, tr.trading_at, ag.governance_at, nfs.nft_at, ag.identity_at,
  ag.social_at, ag.developer_at
FROM unnest($1::text[]) WITH ORDINALITY AS wanted(wallet, i)
LEFT JOIN s ON s.wallet = wanted.wallet
LEFT JOIN ag ON ag.wallet = wanted.wallet
LEFT JOIN lr ON lr.wallet = wanted.wallet
LEFT JOIN tr ON tr.wallet = wanted.wallet
LEFT JOIN tf ON tf.wallet = wanted.wallet
LEFT JOIN tcl ON tcl.wallet = wanted.wallet
LEFT JOIN trt ON trt.wallet = wanted.wallet
LEFT JOIN tol ON tol.wallet = wanted.wallet
LEFT JOIN gs ON gs.wallet = wanted.wallet
LEFT JOIN gvs ON gvs.wallet = wanted.wallet
LEFT JOIN dds ON dds.wallet = wanted.wallet
LEFT JOIN nfs ON nfs.wallet = wanted.wallet
LEFT JOIN ncs ON ncs.wallet = wanted.wallet
LEFT JOIN nt ON nt.wallet = wanted.wallet
LEFT JOIN lo ON lo.wallet = wanted.wallet
LEFT JOIN dus ON dus.wallet = wanted.wallet
ORDER BY wanted.i`;
