-- Debt claims between wallets. Rows are never deleted: withdrawn and resolved claims stay as history
-- the scoring model reads (a creditor cannot wipe a debtor's record by withdrawing and re-filing).
CREATE TABLE debt_claims (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  creditor_address text NOT NULL,
  debtor_address text NOT NULL,
  claim_type text NOT NULL,
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Disputed', 'Resolved', 'Withdrawn')),
  amount numeric NOT NULL CHECK (amount >= 0.000001),
  currency text NOT NULL,
  description text NOT NULL,
  evidence_transaction_hash text NOT NULL,
  chain_id integer NOT NULL,
  protocol_name text NOT NULL,
  resolution_notes text,
  dispute_reason text,
  in_favor_of text CHECK (in_favor_of IN ('creditor', 'debtor')),
  created_by text,
  created_ip text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  resolved_at timestamptz,
  CHECK (creditor_address <> debtor_address)
);
CREATE INDEX debt_claims_debtor_idx ON debt_claims (debtor_address, created_at DESC, id DESC);
CREATE INDEX debt_claims_creditor_idx ON debt_claims (creditor_address, created_at DESC, id DESC);

CREATE TABLE debt_claim_events (
  id bigserial PRIMARY KEY,
  claim_id uuid NOT NULL REFERENCES debt_claims (id),
  from_status text,
  to_status text NOT NULL,
  actor text NOT NULL,
  note text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX debt_claim_events_claim_idx ON debt_claim_events (claim_id, id);
