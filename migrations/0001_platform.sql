-- Platform: audit trail, monthly query counters, Sign-In with Ethereum nonces.
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  actor text NOT NULL,
  action text NOT NULL,
  target text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_target_idx ON audit_log (target, created_at);

CREATE TABLE api_key_usage (
  api_key_id uuid NOT NULL,
  month date NOT NULL,
  query_count bigint NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (api_key_id, month)
);

CREATE TABLE siwe_nonces (
  nonce text PRIMARY KEY,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX siwe_nonces_expires_idx ON siwe_nonces (expires_at);
