-- Issue 24. Billing state in the order Stripe's events happened: the creation time of the last event (or of our own
-- call to Stripe) applied to a key's current subscription, and the subscription each completed checkout made.
ALTER TABLE api_keys ADD COLUMN subscription_event_at timestamptz;
ALTER TABLE checkout_sessions ADD COLUMN subscription_id text;
CREATE INDEX checkout_sessions_key_idx ON checkout_sessions (api_key_id, status);

-- The built-in local payment provider's side of the world (what Stripe itself would hold): checkout sessions and
-- subscriptions as Stripe shapes them, answered to the Stripe SDK's own retrieve calls.
CREATE TABLE local_payment_objects (
  id text PRIMARY KEY,
  object jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Live and test kept apart (issue 24): a dispute or webhook made with test credentials (a cred_test_ key or a test sign-in) is
-- a test record, invisible to live credentials and they to it; score events (live) go only to live webhooks.
ALTER TABLE disputes ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('live', 'test'));
ALTER TABLE webhook_subscriptions ADD COLUMN environment text NOT NULL DEFAULT 'live' CHECK (environment IN ('live', 'test'));
