-- API key lifecycle (issue 15): live and test keys, optional expiry, last use, rotation with a grace period,
-- and the one payment-processor subscription a key is on (plan changes update it, never add a second one).
ALTER TABLE api_keys ADD COLUMN environment text NOT NULL DEFAULT 'live';
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;
-- After a rotation the previous secret keeps working until previous_key_expires_at (same key id: same quota).
ALTER TABLE api_keys ADD COLUMN previous_key_hash text;
ALTER TABLE api_keys ADD COLUMN previous_key_expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN rotated_at timestamptz;
ALTER TABLE api_keys ADD COLUMN stripe_subscription_item_id text;
ALTER TABLE api_keys ADD COLUMN subscription_status text;
ALTER TABLE api_keys ADD COLUMN cancel_at_period_end boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX api_keys_previous_hash_idx ON api_keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL;
