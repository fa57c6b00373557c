// SQL for the record of age questions (who asked about which wallet, with which minimum age, and the answer).
// Addresses are stored lowercase; every method takes an optional transaction.
import type { Queryable } from '../../platform/db/types.js';
import { createdKeySql } from '../../platform/http/pagination.js';

export interface AgeCheckRow {
  id: string;
  wallet_address: string;
  api_key_id: string;
  key_owner: string;
  minimum_age: number;
  route: string;
  verified: boolean | null;
  reason: string | null;
  created_at: Date;
}

export function createAgeChecksRepo(db: Queryable) {
  return {
    /** Serializes the questions about one wallet until the transaction ends (the allowance check, then the insert). */
    async lockWallet(wallet: string, q: Queryable) {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`age-checks:${wallet}`]);
    },

    /** Questions about a wallet in the last `days` days (the database's clock, the same for every instance), oldest first. */
    recentFor(wallet: string, days: number, q: Queryable = db) {
      return q.query<Pick<AgeCheckRow, 'api_key_id' | 'key_owner' | 'minimum_age' | 'created_at'>>(
        `SELECT api_key_id, key_owner, minimum_age, created_at FROM age_checks
         WHERE wallet_address = $1 AND created_at > now() - $2 * interval '1 day' ORDER BY created_at`,
        [wallet, days],
      );
    },

    async insert(
      r: Pick<AgeCheckRow, 'wallet_address' | 'api_key_id' | 'key_owner' | 'minimum_age' | 'route'>,
      q: Queryable = db,
    ): Promise<string> {
      const rows = await q.query<{ id: string }>(
        'INSERT INTO age_checks (wallet_address, api_key_id, key_owner, minimum_age, route) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [r.wallet_address, r.api_key_id, r.key_owner, r.minimum_age, r.route],
      );
      return rows[0].id;
    },

    async settle(id: string, verified: boolean, reason: string | null, q: Queryable = db) {
      await q.query('UPDATE age_checks SET verified = $2, reason = $3 WHERE id = $1', [id, verified, reason]);
    },

    /** A question that got no answer (the proof service failed) gives its allowance back. */
    async forget(id: string, q: Queryable = db) {
      await q.query('DELETE FROM age_checks WHERE id = $1', [id]);
    },

    /** Newest first; `before` is the [created key, id] of the previous page's last question. */
    listFor(wallet: string, limit: number, before: string[] | null = null, q: Queryable = db) {
      return q.query<AgeCheckRow & { created_key: string }>(
        `SELECT *, ${createdKeySql()} AS created_key FROM age_checks
          WHERE wallet_address = $1 AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
          ORDER BY created_at DESC, id DESC LIMIT $2`,
        [wallet, limit, before?.[0] ?? null, before?.[1] ?? null],
      );
    },
  };
}

export type AgeChecksRepo = ReturnType<typeof createAgeChecksRepo>;
