// SQL for KYC sessions and approved birth dates (stored only encrypted). Methods take an optional transaction.
import type { Queryable } from '../../platform/db/types.js';
import { maybeOne } from '../../platform/db/types.js';

// revoked: an approval withdrawn afterwards (by the wallet or an administrator); its birth date is deleted with it
export type SessionStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'superseded' | 'revoked';

export interface KycSessionRow {
  id: string;
  did: string;
  wallet_address: string;
  provider: string;
  provider_session_id: string;
  status: SessionStatus;
  kyc_level: 'none' | 'basic' | 'full';
  redirect_url: string;
  expires_at: Date;
  result_event_id: string | null;
  result_reason: string | null;
  completed_at: Date | null;
  created_at: Date;
}

export interface BirthDateRow {
  wallet_address: string;
  session_id: string;
  birth_date_encrypted: string;
  salt_encrypted: string | null;
  commitment: string | null;
}

export function createKycRepo(db: Queryable) {
  return {
    async insertSession(
      s: Pick<KycSessionRow, 'id' | 'did' | 'wallet_address' | 'provider' | 'provider_session_id' | 'redirect_url' | 'expires_at'>,
      q: Queryable = db,
    ) {
      await q.query(
        `INSERT INTO kyc_sessions (id, did, wallet_address, provider, provider_session_id, redirect_url, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [s.id, s.did, s.wallet_address, s.provider, s.provider_session_id, s.redirect_url, s.expires_at],
      );
    },
    /** Older pending sessions of the DID stop counting once a new one starts. */
    async supersedePending(did: string, q: Queryable = db) {
      await q.query(`UPDATE kyc_sessions SET status = 'superseded' WHERE did = $1 AND status = 'pending'`, [did]);
    },
    session(id: string, q: Queryable = db) {
      return maybeOne<KycSessionRow>(q, 'SELECT * FROM kyc_sessions WHERE id = $1', [id]);
    },
    byProviderRef(provider: string, ref: string, q: Queryable = db) {
      return maybeOne<KycSessionRow>(q, 'SELECT * FROM kyc_sessions WHERE provider = $1 AND provider_session_id = $2', [provider, ref]);
    },
    /** The session that decides a DID's status: an approved one (final), else the newest that was not superseded. */
    current(did: string, q: Queryable = db) {
      return maybeOne<KycSessionRow>(
        q,
        `SELECT * FROM kyc_sessions WHERE did = $1 AND status <> 'superseded' ORDER BY (status = 'approved') DESC, created_at DESC, id LIMIT 1`,
        [did],
      );
    },
    approvedFor(did: string, q: Queryable = db) {
      return maybeOne<KycSessionRow>(
        q,
        `SELECT * FROM kyc_sessions WHERE did = $1 AND status = 'approved' ORDER BY completed_at DESC LIMIT 1`,
        [did],
      );
    },
    /** Every DID's current session for a wallet. */
    currentForWallet(address: string, q: Queryable = db) {
      return q.query<KycSessionRow>(
        `SELECT DISTINCT ON (did) * FROM kyc_sessions WHERE wallet_address = $1 AND status <> 'superseded' ORDER BY did, created_at DESC, id`,
        [address],
      );
    },
    /** currentForWallet of many wallets in one statement (bulk scoring). */
    currentForWallets(addresses: string[], q: Queryable = db) {
      return q.query<KycSessionRow>(
        `SELECT DISTINCT ON (wallet_address, did) * FROM kyc_sessions WHERE wallet_address = ANY($1::text[]) AND status <> 'superseded'
          ORDER BY wallet_address, did, created_at DESC, id`,
        [addresses],
      );
    },
    /** Moves a pending session to its result; null when it was no longer pending (a concurrent callback won). */
    complete(id: string, r: { status: 'approved' | 'rejected'; level: string; eventId: string; reason: string | null }, q: Queryable = db) {
      return maybeOne<KycSessionRow>(
        q,
        `UPDATE kyc_sessions SET status = $2, kyc_level = $3, result_event_id = $4, result_reason = $5, completed_at = now()
         WHERE id = $1 AND status = 'pending' AND expires_at > now() RETURNING *`,
        [id, r.status, r.level, r.eventId, r.reason],
      );
    },
    /** Marks pending sessions past their expiry; returns the wallets affected. */
    async expireDue(q: Queryable = db): Promise<string[]> {
      const rows = await q.query<{ wallet_address: string }>(
        `UPDATE kyc_sessions SET status = 'expired' WHERE status = 'pending' AND expires_at <= now() RETURNING wallet_address`,
      );
      return [...new Set(rows.map((r) => r.wallet_address))];
    },
    async upsertBirthDate(r: BirthDateRow, q: Queryable = db) {
      await q.query(
        `INSERT INTO kyc_birth_dates (wallet_address, session_id, birth_date_encrypted, salt_encrypted, commitment) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (wallet_address) DO UPDATE SET session_id = EXCLUDED.session_id, birth_date_encrypted = EXCLUDED.birth_date_encrypted,
           salt_encrypted = EXCLUDED.salt_encrypted, commitment = EXCLUDED.commitment, updated_at = now()`,
        [r.wallet_address, r.session_id, r.birth_date_encrypted, r.salt_encrypted, r.commitment],
      );
    },
    async setCommitment(address: string, saltEncrypted: string, commitment: string, q: Queryable = db) {
      await q.query(
        'UPDATE kyc_birth_dates SET salt_encrypted = $2, commitment = $3, updated_at = now() WHERE wallet_address = $1 AND commitment IS NULL',
        [address, saltEncrypted, commitment],
      );
    },
    /** Withdraws every approved session of the wallet (all its DIDs); returns the sessions revoked. */
    revokeApproved(address: string, reason: string, q: Queryable = db) {
      return q.query<KycSessionRow>(
        `UPDATE kyc_sessions SET status = 'revoked', result_reason = $2, completed_at = now() WHERE wallet_address = $1 AND status = 'approved' RETURNING *`,
        [address, reason],
      );
    },
    /** The birth date and its commitment go with the approval: no age proof or age check can use them afterwards. */
    async deleteBirthDate(address: string, q: Queryable = db) {
      await q.query('DELETE FROM kyc_birth_dates WHERE wallet_address = $1', [address]);
    },
    birthDate(address: string, q: Queryable = db) {
      return maybeOne<BirthDateRow>(
        q,
        'SELECT wallet_address, session_id, birth_date_encrypted, salt_encrypted, commitment FROM kyc_birth_dates WHERE wallet_address = $1',
        [address],
      );
    },
  };
}

export type KycRepo = ReturnType<typeof createKycRepo>;
