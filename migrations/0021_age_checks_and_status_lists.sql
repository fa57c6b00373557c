-- Identity area (issue 13): who asked about a wallet's age, and the W3C Bitstring Status Lists of issued credentials.

-- Every age question an API key asked about a wallet (verify-age, age-verify, age proofs). The allowance of distinct
-- minimum ages per key and per wallet is counted from these rows, so it holds across instances; the wallet's owner
-- lists them.
CREATE TABLE age_checks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  wallet_address text NOT NULL,
  api_key_id uuid NOT NULL,
  -- the wallet that created the key: all keys of one owner share one allowance
  key_owner text NOT NULL,
  minimum_age integer NOT NULL,
  route text NOT NULL,
  -- null until answered; true/false once the proof was made or refused
  verified boolean,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX age_checks_wallet_idx ON age_checks (wallet_address, created_at);
CREATE INDEX age_checks_key_idx ON age_checks (wallet_address, api_key_id, created_at);

-- Status lists: list N is served at /api/v1/identity/status-lists/N; each holds `size` bits (statusPurpose revocation).
CREATE TABLE credential_status_lists (
  id integer PRIMARY KEY,
  status_purpose text NOT NULL DEFAULT 'revocation',
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Credentials issued before this migration have no status entry (null); new ones get a random free index.
ALTER TABLE credentials ADD COLUMN status_list_id integer REFERENCES credential_status_lists (id);
ALTER TABLE credentials ADD COLUMN status_index integer;
CREATE UNIQUE INDEX credentials_status_entry_idx ON credentials (status_list_id, status_index);
