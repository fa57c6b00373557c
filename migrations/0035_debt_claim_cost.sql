-- Debt claims backed by cost (issue 19, model 3.0.0). The evidence must be a transaction the creditor sent that moved
-- priced value (the principal) to the debtor, above a floor, some time before the claim; the creditor weighs by its
-- own costly history; the debtor is told and has a notice period to dispute before a claim counts.
--   evidence_value_usd   USD the evidence moved from the creditor to the debtor (null: not checked or not priced)
--   evidence_at          the evidence block's time
--   evidence_problem     why the evidence does not count (null when it does, or not checked yet)
--   creditor_weight      0-1: the creditor's own costly history when the claim was checked (null: not checked)
--   notice_ends_at       the claim counts from then on (null: set by the claim's job, for claims filed before this)
ALTER TABLE debt_claims ADD COLUMN evidence_value_usd numeric;
ALTER TABLE debt_claims ADD COLUMN evidence_at timestamptz;
ALTER TABLE debt_claims ADD COLUMN evidence_problem text;
ALTER TABLE debt_claims ADD COLUMN creditor_weight double precision;
ALTER TABLE debt_claims ADD COLUMN notice_ends_at timestamptz;

-- Claims filed before this were verified by a weaker rule (any transaction between the parties, any history) and their
-- debtors were never told: every open claim is checked again and gets a full notice period from its next job run.
UPDATE debt_claims SET evidence_status = 'pending', job_due_at = clock_timestamp(), job_attempts = 0
  WHERE status IN ('Pending', 'Disputed');
