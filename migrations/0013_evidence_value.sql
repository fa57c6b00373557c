-- Evidence v2 (model 2.0.0): every activity record carries its USD value where a price is known (stablecoins at
-- 1; null = unvalued), and only logs from the registry's pinned contracts are stored.
ALTER TABLE wallet_activity ADD COLUMN value_usd numeric;

-- Model 1.0.0 stored protocol events from any emitter (a self-deployed contract could forge them) and no values.
-- Log-derived records are a cache of the chain: drop them and rewind the log cursors so every wallet is read again
-- through the registry. Transaction-level records (native transfers, deployments; log_index -1) stay.
DELETE FROM wallet_activity WHERE log_index >= 0;
UPDATE wallet_sync SET last_block = NULL;
-- Bulk imports must be run again to be filtered and valued (their files are no longer marked done).
DELETE FROM ingest_import_files;
