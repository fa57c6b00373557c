-- Idempotency-Key records (Stripe's semantics): one row per (scope, key) for 24 hours. scope is the caller:
-- the API key id, the JWT subject, or the client IP. request_hash binds the key to one method, path and body;
-- a pending row is held by the instance running the request until locked_until (then another may take over).
-- The response body is stored encrypted: some creations (API keys) answer a secret exactly once.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  idem_key text NOT NULL,
  request_hash text NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'done')),
  locked_until timestamptz NOT NULL,
  response_status integer,
  response_headers jsonb,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
