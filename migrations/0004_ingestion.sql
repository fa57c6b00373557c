-- Ingestion: normalized on-chain activity per wallet and chain, per-wallet sync cursors, bulk import progress.

-- One row per (log or transaction, wallet, kind). The key makes re-ingesting the same blocks a no-op.
-- log_index is -1 for transaction-level records; for contract deployments tx_hash holds the deployed address.
CREATE TABLE wallet_activity (
  chain_id integer NOT NULL,
  tx_hash text NOT NULL,
  log_index integer NOT NULL,
  wallet text NOT NULL,
  kind text NOT NULL,
  block_number bigint NOT NULL,
  occurred_at timestamptz, -- null when a bulk import has no block time for the record
  contract text,
  counterparty text,
  token_id numeric,
  amount numeric,
  direction text,
  protocol text,
  ref text,
  ingested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (chain_id, tx_hash, log_index, wallet, kind)
);
CREATE INDEX wallet_activity_wallet_idx ON wallet_activity (wallet, kind);

-- Per wallet and chain: the last block whose logs are fully stored (never advanced past a failed range),
-- the account's nonce and balance at the last sync, and how far CREATE addresses were checked.
CREATE TABLE wallet_sync (
  wallet text NOT NULL,
  chain_id integer NOT NULL,
  last_block bigint,
  nonce bigint NOT NULL DEFAULT 0,
  balance numeric,
  deploy_nonce_checked bigint NOT NULL DEFAULT 0,
  last_synced_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (wallet, chain_id)
);
CREATE INDEX wallet_sync_due_idx ON wallet_sync (last_synced_at);

-- Wallets the service has been asked about: the refresh schedule walks these. A refresh worker claims due wallets
-- for a lease (claimed_until) so that several instances do not sync the same wallet, and a failing one waits.
CREATE TABLE tracked_wallets (
  wallet text PRIMARY KEY,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_synced_at timestamptz,
  claimed_until timestamptz
);
CREATE INDEX tracked_wallets_due_idx ON tracked_wallets (last_synced_at NULLS FIRST);

-- Bulk import progress: per source directory and file, the line already imported (resumable).
CREATE TABLE ingest_import_files (
  source text NOT NULL,
  file text NOT NULL,
  lines_done bigint NOT NULL DEFAULT 0,
  completed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, file)
);
