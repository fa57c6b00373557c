-- Proofs: the salted commitments proofs are made against (a wallet's score per category; the birth date of an
-- approved KYC), which one is current, and the proofs handed out (for their issue time).
CREATE TABLE proof_commitments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN ('score', 'birth_date')),
  address text NOT NULL,
  -- category index (0..8) for scores; -1 for birth dates
  category_id smallint NOT NULL,
  -- the committed score (scores only; birth dates are kept, encrypted, by the compliance module)
  score integer,
  -- the salt, encrypted (scores only; the compliance module keeps the birth-date salt)
  salt_enc text,
  -- decimal string of the Poseidon commitment
  commitment text NOT NULL,
  is_current boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  superseded_at timestamptz,
  published_at timestamptz,
  published_tx text
);
CREATE UNIQUE INDEX proof_commitments_current_idx ON proof_commitments (kind, address, category_id) WHERE is_current;
CREATE INDEX proof_commitments_commitment_idx ON proof_commitments (commitment);
CREATE INDEX proof_commitments_unpublished_idx ON proof_commitments (created_at) WHERE is_current AND published_at IS NULL;

CREATE TABLE proof_issuances (
  -- sha256 of the proof string (lowercase hex)
  proof_hash text PRIMARY KEY,
  proof_type text NOT NULL,
  address text NOT NULL,
  commitment text NOT NULL,
  issued_at timestamptz NOT NULL DEFAULT now()
);
