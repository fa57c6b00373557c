-- Issued proofs are pruned once their commitment is superseded (such a proof can no longer verify): the join
-- from a superseded commitment to its issuances needs this index.
CREATE INDEX proof_issuances_commitment_idx ON proof_issuances (commitment);
