-- Webhooks that survive outages. probe_at: while an endpoint is failing, the time its next single probe may
-- go (null while it is healthy: deliveries then go in parallel); during a probe it holds the probe's lease.
ALTER TABLE webhook_subscriptions ADD COLUMN probe_at timestamptz;
-- Test events (POST /webhooks/{id}/test) belong to no wallet or category.
ALTER TABLE webhook_deliveries ALTER COLUMN wallet_address DROP NOT NULL;
ALTER TABLE webhook_deliveries ALTER COLUMN category DROP NOT NULL;
-- A failing endpoint's next probe: its oldest due delivery.
CREATE INDEX webhook_deliveries_pending_sub_idx ON webhook_deliveries (subscription_id, created_at) WHERE status = 'pending';
