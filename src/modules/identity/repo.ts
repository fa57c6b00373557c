// SQL for DIDs and credentials. Addresses are stored lowercase; every method takes an optional transaction.
import type { Queryable } from '../../platform/db/types.js';
import { maybeOne } from '../../platform/db/types.js';
import { createdKeySql } from '../../platform/http/pagination.js';
import { IDENTITY_EVIDENCE_TYPES, type CredentialKind } from './credential-types.js';

export interface DidRow {
  id: string;
  did: string;
  wallet_address: string;
  chain_id: number;
  did_document: string;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface CredentialRow {
  id: string;
  did_id: string;
  subject_did: string;
  wallet_address: string;
  credential_type: string;
  /** service_verified, holder_assertion, holder_signed; legacy_holder_written: holder claims signed as the service's before it signed only what it verified, revoked by 0036 */
  kind: CredentialKind;
  issuer_did: string;
  jwt: string;
  ipfs_hash: string;
  pinned: boolean;
  issued_by: string;
  issuance_date: Date;
  expiration_date: Date;
  revoked_at: Date | null;
  revoked_by: string | null;
  /** W3C Bitstring Status List entry (null for credentials issued before status lists existed) */
  status_list_id: number | null;
  status_index: number | null;
}

export interface StatusListRow {
  id: number;
  status_purpose: string;
  size: number;
  created_at: Date;
}

const DID_COLS = 'id, did, wallet_address, chain_id, did_document, is_active, created_at, updated_at';

export function createIdentityRepo(db: Queryable) {
  return {
    /** Inserts the DID unless the wallet already has one on that chain; returns null on conflict. */
    async insertDid(
      row: { did: string; walletAddress: string; chainId: number; document: string },
      q: Queryable = db,
    ): Promise<DidRow | null> {
      return maybeOne<DidRow>(
        q,
        `INSERT INTO dids (did, wallet_address, chain_id, did_document) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING RETURNING ${DID_COLS}`,
        [row.did, row.walletAddress, row.chainId, row.document],
      );
    },
    byDid(did: string, q: Queryable = db) {
      return maybeOne<DidRow>(q, `SELECT ${DID_COLS} FROM dids WHERE did = $1`, [did]);
    },
    byWalletChain(address: string, chainId: number, q: Queryable = db) {
      return maybeOne<DidRow>(q, `SELECT ${DID_COLS} FROM dids WHERE wallet_address = $1 AND chain_id = $2`, [address, chainId]);
    },
    byWallet(address: string, q: Queryable = db) {
      return q.query<DidRow>(`SELECT ${DID_COLS} FROM dids WHERE wallet_address = $1 ORDER BY created_at, chain_id`, [address]);
    },
    /** byWallet of many wallets in one statement (bulk scoring), each wallet's in the same order. */
    byWallets(addresses: string[], q: Queryable = db) {
      return q.query<DidRow>(`SELECT ${DID_COLS} FROM dids WHERE wallet_address = ANY($1::text[]) ORDER BY created_at, chain_id`, [
        addresses,
      ]);
    },
    async updateDocument(did: string, document: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('UPDATE dids SET did_document = $2, updated_at = now() WHERE did = $1 RETURNING id', [did, document]);
      return rows.length === 1;
    },
    async deactivate(did: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('UPDATE dids SET is_active = false, updated_at = now() WHERE did = $1 AND is_active RETURNING id', [did]);
      return rows.length === 1;
    },
    async insertCredential(c: Omit<CredentialRow, 'revoked_at' | 'revoked_by'>, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO credentials (id, did_id, subject_did, wallet_address, credential_type, issuer_did, jwt, ipfs_hash, pinned, issued_by, issuance_date, expiration_date,
           status_list_id, status_index, kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [
          c.id,
          c.did_id,
          c.subject_did,
          c.wallet_address,
          c.credential_type,
          c.issuer_did,
          c.jwt,
          c.ipfs_hash,
          c.pinned,
          c.issued_by,
          c.issuance_date,
          c.expiration_date,
          c.status_list_id,
          c.status_index,
          c.kind,
        ],
      );
    },
    /** The newest status list (the one new credentials go to). */
    latestStatusList(q: Queryable = db) {
      return maybeOne<StatusListRow>(q, 'SELECT * FROM credential_status_lists ORDER BY id DESC LIMIT 1');
    },
    statusList(id: number, q: Queryable = db) {
      return maybeOne<StatusListRow>(q, 'SELECT * FROM credential_status_lists WHERE id = $1', [id]);
    },
    async createStatusList(id: number, size: number, q: Queryable = db): Promise<void> {
      await q.query('INSERT INTO credential_status_lists (id, size) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, size]);
    },
    async statusEntriesUsed(listId: number, q: Queryable = db): Promise<number> {
      const row = await maybeOne<{ n: string | number }>(q, 'SELECT count(*) AS n FROM credentials WHERE status_list_id = $1', [listId]);
      return Number(row?.n ?? 0);
    },
    async statusIndexTaken(listId: number, index: number, q: Queryable = db): Promise<boolean> {
      return (await q.query('SELECT 1 FROM credentials WHERE status_list_id = $1 AND status_index = $2', [listId, index])).length > 0;
    },
    /** The revoked entries of a list, and when the list last changed. */
    revokedEntries(listId: number, q: Queryable = db) {
      return q.query<{ status_index: number; revoked_at: Date }>(
        'SELECT status_index, revoked_at FROM credentials WHERE status_list_id = $1 AND revoked_at IS NOT NULL',
        [listId],
      );
    },
    /** One page of a DID's credentials, newest first; `before` is the [issuance key, id] of the previous page's last one. */
    credentialsPage(didId: string, limit: number, before: string[] | null, q: Queryable = db) {
      return q.query<CredentialRow & { created_key: string }>(
        `SELECT *, ${createdKeySql('issuance_date')} AS created_key FROM credentials
          WHERE did_id = $1 AND ($2::timestamptz IS NULL OR (issuance_date, id) < ($2::timestamptz, $3::uuid))
          ORDER BY issuance_date DESC, id DESC LIMIT $4`,
        [didId, before?.[0] ?? null, before?.[1] ?? null, limit],
      );
    },
    credentialsOf(didId: string, q: Queryable = db) {
      return q.query<CredentialRow>('SELECT * FROM credentials WHERE did_id = $1 ORDER BY issuance_date DESC, id', [didId]);
    },
    credential(id: string, q: Queryable = db) {
      return maybeOne<CredentialRow>(q, 'SELECT * FROM credentials WHERE id = $1', [id]);
    },
    /** Marks a credential revoked; false when it already was (or does not exist). */
    async revoke(id: string, actor: string, q: Queryable = db): Promise<CredentialRow | null> {
      return maybeOne<CredentialRow>(
        q,
        'UPDATE credentials SET revoked_at = now(), revoked_by = $2 WHERE id = $1 AND revoked_at IS NULL RETURNING *',
        [id, actor],
      );
    },
    /** Revokes a wallet's unrevoked credentials of one kind and these types; returns how many. */
    async revokeOfKinds(address: string, kind: CredentialKind, types: string[], actor: string, q: Queryable = db): Promise<number> {
      const rows = await q.query(
        'UPDATE credentials SET revoked_at = now(), revoked_by = $4 WHERE wallet_address = $1 AND kind = $2 AND credential_type = ANY($3) AND revoked_at IS NULL RETURNING id',
        [address, kind, types, actor],
      );
      return rows.length;
    },
    /**
     * Unrevoked, unexpired credentials that count as identity evidence: only the service's own verified types backed by
     * a KYC (credential-types.ts). Holder assertions, holder-signed and legacy credentials never count.
     */
    /** activeCredentialCount of many wallets in one statement; wallets without any are absent. */
    async activeCredentialCounts(addresses: string[], q: Queryable = db): Promise<Map<string, number>> {
      const rows = await q.query<{ wallet_address: string; n: string | number }>(
        `SELECT wallet_address, count(*) AS n FROM credentials WHERE wallet_address = ANY($1::text[]) AND kind = 'service_verified'
           AND credential_type = ANY($2) AND revoked_at IS NULL AND expiration_date > now() GROUP BY wallet_address`,
        [addresses, [...IDENTITY_EVIDENCE_TYPES]],
      );
      return new Map(rows.map((r) => [r.wallet_address, Number(r.n)]));
    },
    async activeCredentialCount(address: string, q: Queryable = db): Promise<number> {
      const row = await maybeOne<{ n: string | number }>(
        q,
        `SELECT count(*) AS n FROM credentials WHERE wallet_address = $1 AND kind = 'service_verified' AND credential_type = ANY($2)
           AND revoked_at IS NULL AND expiration_date > now()`,
        [address, [...IDENTITY_EVIDENCE_TYPES]],
      );
      return Number(row?.n ?? 0);
    },
  };
}

export type IdentityRepo = ReturnType<typeof createIdentityRepo>;
