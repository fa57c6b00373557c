-- Issue 20: the issuer key signs only what the service verified. Every credential signed before this migration
-- carried claims the holder wrote, presented as the service's findings: each is marked legacy_holder_written and
-- revoked, which sets its bit in the W3C status list it points to (credentials issued before status lists, 0021, are
-- revoked in the database: POST /identity/credentials/verify answers revoked). The scores of their holders are
-- recomputed at the next read (a model_version that is not the model's makes the scoring service recompute).
-- Safe to run again: only rows without a kind are touched.
ALTER TABLE credentials ADD COLUMN IF NOT EXISTS kind text
  CHECK (kind IN ('service_verified', 'holder_assertion', 'holder_signed', 'legacy_holder_written'));

UPDATE scores SET model_version = 'recompute:0036'
 WHERE address IN (SELECT wallet_address FROM credentials WHERE kind IS NULL AND revoked_at IS NULL AND expiration_date > now());

UPDATE credentials SET revoked_at = now(), revoked_by = 'migration 0036: holder-written claims signed as the service''s own'
 WHERE kind IS NULL AND revoked_at IS NULL;

UPDATE credentials SET kind = 'legacy_holder_written' WHERE kind IS NULL;

CREATE INDEX IF NOT EXISTS credentials_wallet_kind_idx ON credentials (wallet_address, kind, credential_type) WHERE revoked_at IS NULL;
