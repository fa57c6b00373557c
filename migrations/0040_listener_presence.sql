-- `credence webhooks listen` (issue 22): a temporary webhook lives while its stream is open. The instance holding the
-- stream refreshes listener_seen_at every minute; one whose instance died (no close to delete it) is swept once
-- stale, instead of failing its deliveries until deactivation and staying listed.
ALTER TABLE webhook_subscriptions ADD COLUMN listener_seen_at timestamptz;
