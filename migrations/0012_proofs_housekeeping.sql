-- Issued proofs are pruned once their commitment is superseded (such a proof can no longer verify): the join
-- from a superseded commitment to its issuances needs this index.
CREATE INDEX proof_issuances_commitment_idx ON proof_issuances (commitment);

-- A publisher claims the commitments it is about to send, so that other instances skip them; a claim that is not
-- followed by published_at (the instance died) lapses and the commitments are picked up again.
ALTER TABLE proof_commitments ADD COLUMN publish_claimed_until timestamptz;
