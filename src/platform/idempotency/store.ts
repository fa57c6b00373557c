// SQL of the Idempotency-Key records (migration 0025), in PostgreSQL so every instance sees the same keys.
import type { Db } from '../db/types.js';

export const KEEP_HOURS = 24;
/** How long a running request holds its key before another instance may take it over (it crashed). */
export const LOCK_SECONDS = 120;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim = { kind: 'owner' } | { kind: 'mismatch' } | { kind: 'running' } | { kind: 'done'; response: StoredResponse };

interface Row {
  request_hash: string;
  state: 'pending' | 'done';
  running: boolean;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
}

export function createIdempotencyStore(db: Db, seal: { encrypt(s: string): string; decrypt(s: string): string }) {
  return {
    /** Takes the key for this request, or tells what holds it. */
    async claim(scope: string, key: string, hash: string): Promise<Claim> {
      for (let attempt = 0; attempt < 3; attempt++) {
        const inserted = await db.query(
          `INSERT INTO idempotency_keys (scope, idem_key, request_hash, state, locked_until, expires_at)
           VALUES ($1, $2, $3, 'pending', now() + make_interval(secs => $4), now() + make_interval(hours => $5))
           ON CONFLICT (scope, idem_key) DO NOTHING RETURNING 1 AS ok`,
          [scope, key, hash, LOCK_SECONDS, KEEP_HOURS],
        );
        if (inserted.length) return { kind: 'owner' };
        const rows = await db.query<Row>(
          `SELECT request_hash, state, locked_until > now() AS running, response_status, response_headers, response_body
             FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND expires_at > now()`,
          [scope, key],
        );
        const row = rows[0];
        if (!row) {
          // expired (or released a moment ago): clear it and try again
          await db.query('DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND expires_at <= now()', [scope, key]);
          continue;
        }
        if (row.request_hash !== hash) return { kind: 'mismatch' };
        if (row.state === 'done') {
          return {
            kind: 'done',
            response: { status: row.response_status!, headers: row.response_headers ?? {}, body: seal.decrypt(row.response_body!) },
          };
        }
        if (row.running) return { kind: 'running' };
        // the instance that held it died mid-request: take it over
        const taken = await db.query(
          `UPDATE idempotency_keys SET locked_until = now() + make_interval(secs => $3)
            WHERE scope = $1 AND idem_key = $2 AND state = 'pending' AND locked_until <= now() RETURNING 1 AS ok`,
          [scope, key, LOCK_SECONDS],
        );
        if (taken.length) return { kind: 'owner' };
      }
      return { kind: 'running' };
    },

    async complete(scope: string, key: string, r: StoredResponse): Promise<void> {
      await db.query(
        `UPDATE idempotency_keys SET state = 'done', response_status = $3, response_headers = $4, response_body = $5
          WHERE scope = $1 AND idem_key = $2 AND state = 'pending'`,
        [scope, key, r.status, JSON.stringify(r.headers), seal.encrypt(r.body)],
      );
      // Opportunistic cleanup keeps the table to about a day of keys without a separate job.
      if (Math.random() < 0.01) await db.query('DELETE FROM idempotency_keys WHERE expires_at < now()');
    },

    /** An error answer frees the key: a corrected retry runs, and nothing was created to protect. */
    async release(scope: string, key: string): Promise<void> {
      await db.query(`DELETE FROM idempotency_keys WHERE scope = $1 AND idem_key = $2 AND state = 'pending'`, [scope, key]);
    },
  };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
