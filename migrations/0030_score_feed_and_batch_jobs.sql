-- Score history per wallet and category, the polling feed of score changes (cursor = score_changes.id, made
-- commit-ordered by a lock in the writing transaction), and asynchronous bulk scoring jobs with stored results.
CREATE INDEX score_changes_history_idx ON score_changes (address, category, id);

CREATE TABLE batch_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  api_key_id uuid NOT NULL,
  category text NOT NULL,
  addresses text[] NOT NULL,           -- lowercase, in request order (duplicates kept)
  total integer NOT NULL,
  processed integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'queued', -- queued | running | completed | failed
  error text,
  attempts integer NOT NULL DEFAULT 0,
  claimed_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  expires_at timestamptz NOT NULL DEFAULT now() + interval '7 days'
);
CREATE INDEX batch_jobs_due_idx ON batch_jobs (status, created_at) WHERE status IN ('queued', 'running');
CREATE INDEX batch_jobs_key_idx ON batch_jobs (api_key_id, created_at);

-- One row per chunk of up to 100 results, as JSON lines in request order.
CREATE TABLE batch_job_results (
  job_id uuid NOT NULL REFERENCES batch_jobs(id) ON DELETE CASCADE,
  chunk integer NOT NULL,
  lines text NOT NULL,
  PRIMARY KEY (job_id, chunk)
);
