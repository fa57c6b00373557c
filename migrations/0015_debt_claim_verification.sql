-- Debt claims weigh by what is verified (issue 11): whether the creditor signed in, whether the evidence
-- transaction was found on its chain between the two parties, whether the creditor has on-chain history of its own.
-- evidence_status: pending (not checked yet), found, not_found, unverifiable (no RPC for the chain, or it kept failing).
ALTER TABLE debt_claims ADD COLUMN creditor_signed_in boolean NOT NULL DEFAULT false;
ALTER TABLE debt_claims ADD COLUMN evidence_status text NOT NULL DEFAULT 'pending'
  CHECK (evidence_status IN ('pending', 'found', 'not_found', 'unverifiable'));
ALTER TABLE debt_claims ADD COLUMN creditor_has_history boolean;
ALTER TABLE debt_claims ADD COLUMN verified_at timestamptz;

-- The claim row is its own job row (issue 14): job_due_at is set in the same transaction that stores the claim,
-- and cleared only after the evidence check and the debtor's score recompute are done. A crash after commit
-- leaves it set, so any instance's claims worker picks it up (lease: job_lease_until).
ALTER TABLE debt_claims ADD COLUMN job_due_at timestamptz;
ALTER TABLE debt_claims ADD COLUMN job_lease_until timestamptz;
ALTER TABLE debt_claims ADD COLUMN job_attempts integer NOT NULL DEFAULT 0;
CREATE INDEX debt_claims_job_idx ON debt_claims (job_due_at) WHERE job_due_at IS NOT NULL;

-- Claims filed before this migration are checked like new ones.
UPDATE debt_claims SET job_due_at = clock_timestamp(), creditor_signed_in = (created_by IS NOT NULL AND created_by = creditor_address);
