-- Model 3.0.0: only what the wallet did. Each activity record carries the sender of its transaction (`tx_from`,
-- lowercase; NULL when unknown): the ethereum-etl transactions file's from_address, the JSON-RPC transaction's
-- `from`, the explorer's txlist `from`. Age, active days and months, counterparties, outgoing transfers, swaps,
-- mints and deployments count only from transactions the wallet sent (see the features SQL in
-- src/modules/ingestion/repo.ts); inbound transfers, airdrops and logs naming the wallet in someone else's
-- transaction earn nothing.
ALTER TABLE wallet_activity ADD COLUMN tx_from text;

-- Transaction-level rows say who sent them: a native transfer's sender is the 'out' side, a deployment's the deployer.
UPDATE wallet_activity SET tx_from = wallet WHERE kind = 'contract_deploy' OR (kind = 'transfer_native' AND log_index = -1 AND direction = 'out');
UPDATE wallet_activity SET tx_from = counterparty WHERE kind = 'transfer_native' AND log_index = -1 AND direction = 'in';

-- Every other row is a cache of the chain: drop it and read every wallet's logs again (and run bulk imports again:
-- their files are no longer marked done), so each row is stored with its sender, swaps with their pool's fee tier
-- and pair, delegations to the wallet with the votes they moved (DelegateVotesChanged).
DELETE FROM wallet_activity WHERE NOT (kind = 'contract_deploy' OR (kind = 'transfer_native' AND log_index = -1));
UPDATE wallet_sync SET last_block = NULL;
DELETE FROM ingest_import_files;

-- A collection counts when it has independent holders: who else minted or bought it, by contract.
CREATE INDEX wallet_activity_nft_contract_idx ON wallet_activity (contract, wallet) WHERE kind IN ('nft_mint', 'transfer_erc721', 'transfer_erc1155');
-- A deployment weighs by its third-party callers: by contract.
CREATE INDEX wallet_activity_used_idx ON wallet_activity (wallet, contract) WHERE kind = 'contract_used';
