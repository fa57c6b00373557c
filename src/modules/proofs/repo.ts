// SQL of the proofs module: commitments (current and superseded) and issued proofs.
import type { Db, Queryable } from '../../platform/db/types.js';

export type CommitmentKind = 'score' | 'birth_date';
export const BIRTH_DATE_CATEGORY = -1;

export interface CommitmentRow {
  id: string;
  kind: CommitmentKind;
  address: string;
  category_id: number;
  score: number | null;
  salt_enc: string | null;
  commitment: string;
  is_current: boolean;
  created_at: Date;
  published_at: Date | null;
}

const COLS = 'id, kind, address, category_id, score, salt_enc, commitment, is_current, created_at, published_at';

export function createProofsRepo(db: Db) {
  return {
    async current(kind: CommitmentKind, address: string, categoryId: number, q: Queryable = db): Promise<CommitmentRow | null> {
      const rows = await q.query<CommitmentRow>(
        `SELECT ${COLS} FROM proof_commitments WHERE kind = $1 AND address = $2 AND category_id = $3 AND is_current`,
        [kind, address, categoryId],
      );
      return rows[0] ?? null;
    },

    /** Records a new current commitment, superseding the previous one, unless a concurrent caller won:
     *  then returns theirs if it commits to the same value, else retries once over it. */
    async replaceCurrent(row: {
      kind: CommitmentKind;
      address: string;
      categoryId: number;
      score: number | null;
      saltEnc: string | null;
      commitment: string;
    }): Promise<CommitmentRow> {
      return db.tx(async (q) => {
        await q.query(
          `UPDATE proof_commitments SET is_current = false, superseded_at = now()
            WHERE kind = $1 AND address = $2 AND category_id = $3 AND is_current`,
          [row.kind, row.address, row.categoryId],
        );
        const rows = await q.query<CommitmentRow>(
          `INSERT INTO proof_commitments (kind, address, category_id, score, salt_enc, commitment)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLS}`,
          [row.kind, row.address, row.categoryId, row.score, row.saltEnc, row.commitment],
        );
        return rows[0];
      });
    },

    async supersede(kind: CommitmentKind, address: string, categoryId: number, exceptScore?: number): Promise<number> {
      const rows = await db.query<{ id: string }>(
        `UPDATE proof_commitments SET is_current = false, superseded_at = now()
          WHERE kind = $1 AND address = $2 AND category_id = $3 AND is_current AND ($4::int IS NULL OR score IS DISTINCT FROM $4::int)
          RETURNING id`,
        [kind, address, categoryId, exceptScore ?? null],
      );
      return rows.length;
    },

    async byCommitment(commitment: string): Promise<CommitmentRow[]> {
      return db.query<CommitmentRow>(`SELECT ${COLS} FROM proof_commitments WHERE commitment = $1`, [commitment]);
    },

    /**
     * Claims up to `limit` current, unpublished commitments of the given kinds for `seconds`: concurrent publishers
     * (other instances) skip claimed rows, and a claim not followed by markPublished lapses.
     */
    async claimUnpublished(kinds: CommitmentKind[], limit: number, seconds: number): Promise<CommitmentRow[]> {
      return db.query<CommitmentRow>(
        `UPDATE proof_commitments SET publish_claimed_until = now() + make_interval(secs => $3)
          WHERE id IN (SELECT id FROM proof_commitments
                        WHERE is_current AND published_at IS NULL AND kind = ANY($1::text[])
                          AND (publish_claimed_until IS NULL OR publish_claimed_until < now())
                        ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING ${COLS}`,
        [kinds, limit, seconds],
      );
    },

    /**
     * Claims up to `limit` superseded commitments that were published and not yet cleared on-chain, for `seconds`
     * (as claimUnpublished): the publisher compare-and-clears them.
     */
    async claimToClear(kinds: CommitmentKind[], limit: number, seconds: number): Promise<CommitmentRow[]> {
      return db.query<CommitmentRow>(
        `UPDATE proof_commitments SET clear_claimed_until = now() + make_interval(secs => $3)
          WHERE id IN (SELECT id FROM proof_commitments
                        WHERE NOT is_current AND published_at IS NOT NULL AND cleared_at IS NULL AND kind = ANY($1::text[])
                          AND (clear_claimed_until IS NULL OR clear_claimed_until < now())
                        ORDER BY superseded_at LIMIT $2 FOR UPDATE SKIP LOCKED)
          RETURNING ${COLS}`,
        [kinds, limit, seconds],
      );
    },

    async markCleared(ids: string[]): Promise<void> {
      if (ids.length) await db.query('UPDATE proof_commitments SET cleared_at = now() WHERE id = ANY($1::uuid[])', [ids]);
    },

    async releaseClearClaims(ids: string[]): Promise<void> {
      if (ids.length)
        await db.query('UPDATE proof_commitments SET clear_claimed_until = NULL WHERE id = ANY($1::uuid[]) AND cleared_at IS NULL', [ids]);
    },

    /** Gives claimed rows back at once (their transaction failed), instead of waiting for the claim to lapse. */
    async releaseClaims(ids: string[]): Promise<void> {
      if (ids.length)
        await db.query('UPDATE proof_commitments SET publish_claimed_until = NULL WHERE id = ANY($1::uuid[]) AND published_at IS NULL', [
          ids,
        ]);
    },

    async markPublished(ids: string[], txHash: string): Promise<void> {
      if (ids.length)
        await db.query(`UPDATE proof_commitments SET published_at = now(), published_tx = $2 WHERE id = ANY($1::uuid[])`, [ids, txHash]);
    },

    async recordIssuance(r: { proofHash: string; proofType: string; address: string; commitment: string; issuedAt: Date }): Promise<void> {
      await db.query(
        `INSERT INTO proof_issuances (proof_hash, proof_type, address, commitment, issued_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (proof_hash) DO NOTHING`,
        [r.proofHash, r.proofType, r.address, r.commitment, r.issuedAt],
      );
    },

    /** Forgets issued proofs whose commitment was superseded at least `graceSeconds` ago: they can never verify again. */
    async pruneIssuances(graceSeconds: number): Promise<number> {
      const rows = await db.query<{ proof_hash: string }>(
        `DELETE FROM proof_issuances i USING proof_commitments c
          WHERE c.commitment = i.commitment AND NOT c.is_current AND c.superseded_at < now() - make_interval(secs => $1)
          RETURNING i.proof_hash`,
        [graceSeconds],
      );
      return rows.length;
    },

    async issuedAt(proofHash: string): Promise<Date | null> {
      const rows = await db.query<{ issued_at: Date }>('SELECT issued_at FROM proof_issuances WHERE proof_hash = $1', [proofHash]);
      return rows[0]?.issued_at ?? null;
    },
  };
}
export type ProofsRepo = ReturnType<typeof createProofsRepo>;
