-- Issue 23 (the web console). Queries per API key and UTC day, written behind with the monthly counter
-- (api_key_usage stays the quota's record; this is the history the usage chart draws).
CREATE TABLE api_key_usage_daily (
  api_key_id uuid NOT NULL,
  day date NOT NULL,
  query_count bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (api_key_id, day)
);

-- The admin disputes queue: every wallet's disputes of one environment, newest first, by status.
CREATE INDEX disputes_queue_idx ON disputes (environment, status, created_at DESC, id DESC);
CREATE INDEX disputes_env_created_idx ON disputes (environment, created_at DESC, id DESC);

-- The admin audit log: newest first (by id), filtered by action or actor (any letter case: addresses are written both ways).
CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (lower(actor), id DESC);
