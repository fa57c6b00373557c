-- Identity: DIDs (did:credence:<chainId>:<address>) with their DID documents, and issued verifiable credentials.
CREATE TABLE dids (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  did text NOT NULL UNIQUE,
  wallet_address text NOT NULL,
  chain_id integer NOT NULL,
  did_document text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT dids_wallet_chain_key UNIQUE (wallet_address, chain_id)
);

CREATE TABLE credentials (
  id uuid PRIMARY KEY,
  did_id uuid NOT NULL REFERENCES dids(id),
  subject_did text NOT NULL,
  wallet_address text NOT NULL,
  credential_type text NOT NULL,
  issuer_did text NOT NULL,
  jwt text NOT NULL,
  ipfs_hash text NOT NULL,
  pinned boolean NOT NULL DEFAULT false,
  issued_by text NOT NULL,
  issuance_date timestamptz NOT NULL,
  expiration_date timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_by text
);
CREATE INDEX credentials_did_idx ON credentials (did_id, issuance_date);
CREATE INDEX credentials_wallet_idx ON credentials (wallet_address);
