-- Ingestion coverage and backoff (issue 12).
-- wallet_sync: which source read the chain for the wallet, the final block its last sync read up to, and whether
-- that sync read everything up to it (logs and deployments): the `coverage` of score entries comes from here.
ALTER TABLE wallet_sync ADD COLUMN source text;
ALTER TABLE wallet_sync ADD COLUMN finalized_block bigint;
ALTER TABLE wallet_sync ADD COLUMN complete boolean NOT NULL DEFAULT false;

-- tracked_wallets: consecutive failed syncs and when the wallet may be tried again (exponential backoff), so a
-- failing wallet does not come back at every lease.
ALTER TABLE tracked_wallets ADD COLUMN failures integer NOT NULL DEFAULT 0;
ALTER TABLE tracked_wallets ADD COLUMN retry_at timestamptz;
