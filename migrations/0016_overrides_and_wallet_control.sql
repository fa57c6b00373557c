-- An admin's revisedScore survives new debt claims (issue 11): the claim points in force when the override was set,
-- so the effective score is the revision shifted by later claim changes (withdrawing restores it exactly).
ALTER TABLE scores ADD COLUMN override_claim_points double precision;

-- Wallets that proved control of their key (a SIWE sign-in or a signed DID update). A DID earns IDENTITY credit
-- only once its wallet is here: registration itself is public and proves nothing.
CREATE TABLE wallet_control_proofs (
  address text PRIMARY KEY,
  method text NOT NULL,
  proved_at timestamptz NOT NULL DEFAULT now()
);
