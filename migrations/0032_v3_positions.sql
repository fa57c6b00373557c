-- Uniswap V3 position NFTs (the NonfungiblePositionManager's: 0xC36442b4... on Ethereum, OP Mainnet, Polygon and
-- Arbitrum One, 0x03a520b3... on Base, from @uniswap/sdk-core) were stored as NFT evidence (mints, transfers). A
-- position is liquidity, not a collectible: ingestion now stores no NFT record for them and, for a position the
-- wallet minted and paid for, an 'lp_position' marker (its pool), which removes the wallet's trading credit for its
-- swaps in that pool (see src/modules/ingestion/positions.ts). Log-derived records are a cache of the chain: drop
-- the position NFT rows and re-read those wallets' logs on those chains, so their positions are found.
CREATE TEMPORARY TABLE position_managers (chain_id integer, contract text);
INSERT INTO position_managers VALUES
  (1, '0xc36442b4a4522e871399cd717abdd847ab11fe88'),
  (10, '0xc36442b4a4522e871399cd717abdd847ab11fe88'),
  (137, '0xc36442b4a4522e871399cd717abdd847ab11fe88'),
  (42161, '0xc36442b4a4522e871399cd717abdd847ab11fe88'),
  (8453, '0x03a520b32c04bf3beef7beb72e919cf822ed34f1');

UPDATE wallet_sync SET last_block = NULL
WHERE (wallet, chain_id) IN (
  SELECT a.wallet, a.chain_id FROM wallet_activity a JOIN position_managers m ON m.chain_id = a.chain_id AND m.contract = a.contract
  WHERE a.kind = 'nft_mint');

-- a bulk import that held a position mint must be run again to find its pool (its files are no longer marked done)
DELETE FROM ingest_import_files WHERE EXISTS (
  SELECT 1 FROM wallet_activity a JOIN position_managers m ON m.chain_id = a.chain_id AND m.contract = a.contract
  WHERE a.kind = 'nft_mint' AND a.log_index >= 0);

DELETE FROM wallet_activity a USING position_managers m
WHERE m.chain_id = a.chain_id AND m.contract = a.contract AND a.kind IN ('nft_mint', 'transfer_erc721');

DROP TABLE position_managers;
