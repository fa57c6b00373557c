-- Disputes against scores: the record, and every status change with who made it and when.
CREATE TABLE disputes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  wallet_address text NOT NULL,
  category text NOT NULL,
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'Pending',
  description text NOT NULL,
  evidence text,
  resolution_notes text,
  resolved_by text,
  revised_score integer CHECK (revised_score BETWEEN 0 AND 1000),
  -- who filed it: the API key (and that key's owner wallet) the submission came with
  submitted_by_key uuid,
  submitted_by_owner text,
  escalation_reason text,
  escalated_at timestamptz,
  escalation_chain_status text,
  escalation_tx_hash text,
  escalation_error text,
  escalation_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX disputes_wallet_idx ON disputes (wallet_address, created_at DESC);
CREATE INDEX disputes_chain_pending_idx ON disputes (escalation_chain_status) WHERE escalation_chain_status IN ('pending', 'failed');

CREATE TABLE dispute_history (
  id bigserial PRIMARY KEY,
  dispute_id uuid NOT NULL REFERENCES disputes (id),
  from_status text,
  to_status text NOT NULL,
  actor text NOT NULL,
  note text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX dispute_history_dispute_idx ON dispute_history (dispute_id, id);
