-- Webhooks: subscriptions (secret encrypted), the durable delivery outbox, and one row per delivery attempt.
CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  api_key_id uuid NOT NULL,
  url text NOT NULL,
  wallet_address_filter text,
  secret_encrypted text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_delivery_at timestamptz,
  deactivated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_subscriptions_key_idx ON webhook_subscriptions (api_key_id, created_at);
CREATE INDEX webhook_subscriptions_filter_idx ON webhook_subscriptions (wallet_address_filter) WHERE is_active;

-- One message to one subscription. `body` is the exact JSON sent, so every retry signs the same bytes.
-- status: pending (due at next_attempt_at; a claimed row's next_attempt_at is its lease expiry),
-- delivered, failed (retry schedule exhausted).
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  event_type text NOT NULL DEFAULT 'score.updated',
  wallet_address text NOT NULL,
  category text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claim_token uuid,
  last_status_code integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (subscription_id, created_at);

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  status_code integer,
  duration_ms integer NOT NULL,
  error text,
  succeeded boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, attempt);
