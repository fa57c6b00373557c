-- One row per setting that every instance sharing this database must hold identically (encryption key, JWT
-- secret, hub token key, provider secrets). check_value is an HMAC of a fixed label keyed by the secret, never
-- the secret: an instance starting with another value sees a different check and refuses to start.
CREATE TABLE instance_key_checks (
  setting text PRIMARY KEY,
  check_value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
