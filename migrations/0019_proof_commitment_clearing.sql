-- Proofs: a published score (or birth-date) commitment that was superseded is cleared on-chain by the publisher
-- (compare-and-clear: only if the chain still holds that very commitment), within CREDENCE_COMMITMENT_CLEAR_SECONDS,
-- so an old proof stops verifying on-chain. cleared_at records it was done; a claim keeps instances apart, as for
-- publishing.
ALTER TABLE proof_commitments ADD COLUMN cleared_at timestamptz;
ALTER TABLE proof_commitments ADD COLUMN clear_claimed_until timestamptz;
CREATE INDEX proof_commitments_to_clear_idx ON proof_commitments (superseded_at)
  WHERE NOT is_current AND published_at IS NOT NULL AND cleared_at IS NULL;
