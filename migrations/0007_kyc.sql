-- Compliance: KYC sessions with an identity-verification provider, and the approved birth date
-- (encrypted, with its salted commitment for zero-knowledge age proofs).
CREATE TABLE kyc_sessions (
  id uuid PRIMARY KEY,
  did text NOT NULL,
  wallet_address text NOT NULL,
  provider text NOT NULL,
  provider_session_id text NOT NULL,
  -- pending | approved | rejected | expired | superseded
  status text NOT NULL DEFAULT 'pending',
  kyc_level text NOT NULL DEFAULT 'none',
  redirect_url text NOT NULL,
  expires_at timestamptz NOT NULL,
  result_event_id text,
  result_reason text,
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT kyc_sessions_provider_ref_key UNIQUE (provider, provider_session_id)
);
CREATE INDEX kyc_sessions_did_idx ON kyc_sessions (did, created_at);
CREATE INDEX kyc_sessions_wallet_idx ON kyc_sessions (wallet_address, created_at);
CREATE INDEX kyc_sessions_pending_idx ON kyc_sessions (expires_at) WHERE status = 'pending';

CREATE TABLE kyc_birth_dates (
  wallet_address text PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES kyc_sessions(id),
  -- AES-256-GCM (ctx.cipher); the plain value never reaches the database
  birth_date_encrypted text NOT NULL,
  salt_encrypted text,
  commitment text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
