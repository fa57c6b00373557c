-- Billing: API keys (hash only), checkout sessions, processed payment events (idempotency).
CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  tier text NOT NULL,
  owner_address text NOT NULL,
  organization_name text NOT NULL,
  contact_email text NOT NULL,
  stripe_customer_id text,
  stripe_subscription_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX api_keys_owner_idx ON api_keys (owner_address);
CREATE INDEX api_keys_subscription_idx ON api_keys (stripe_subscription_id);

CREATE TABLE checkout_sessions (
  id text PRIMARY KEY,
  api_key_id uuid NOT NULL REFERENCES api_keys(id),
  tier text NOT NULL,
  provider text NOT NULL,
  status text NOT NULL DEFAULT 'open',
  wallet_address text,
  success_url text,
  cancel_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);

CREATE TABLE payment_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  api_key_id uuid,
  payload jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
