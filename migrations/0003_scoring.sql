-- Scoring: the current score per wallet and category, its change history, and dispute overrides.
CREATE TABLE scores (
  address text NOT NULL,
  category text NOT NULL,
  -- effective score: the model's, or a dispute's revised score while that category's evidence is unchanged
  score integer NOT NULL CHECK (score BETWEEN 0 AND 1000),
  model_score integer NOT NULL CHECK (model_score BETWEEN 0 AND 1000),
  -- confidence before decay; decay is applied at read time from decay_anchor
  confidence double precision NOT NULL,
  decay_anchor timestamptz,
  factors jsonb NOT NULL DEFAULT '[]'::jsonb,
  inputs_key text NOT NULL,
  offchain_key text NOT NULL DEFAULT '',
  offchain_at timestamptz,
  last_activity_at timestamptz,
  override_score integer CHECK (override_score BETWEEN 0 AND 1000),
  override_inputs_key text,
  override_dispute_id text,
  model_version text NOT NULL,
  calculated_at timestamptz NOT NULL,
  PRIMARY KEY (address, category)
);

CREATE TABLE score_changes (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  category text NOT NULL,
  old_score integer,
  new_score integer NOT NULL,
  confidence double precision NOT NULL,
  tier text NOT NULL,
  cause text NOT NULL,
  model_version text NOT NULL,
  calculated_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX score_changes_address_idx ON score_changes (address, created_at);
