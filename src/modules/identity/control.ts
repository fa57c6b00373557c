// Proof that a wallet controls its key: a successful SIWE sign-in (the auth module reports it) or a JWT-authenticated
// DID update. DID registration is public (anyone may register any wallet's DID), so a DID earns IDENTITY credit only
// once its wallet is recorded here.
import type { Queryable } from '../../platform/db/types.js';

export type ControlMethod = 'siwe' | 'did_update';

export function createControlRepo(db: Queryable) {
  return {
    /** Records the first proof; true when this call recorded it (the wallet's identity signal changes). */
    async record(address: string, method: ControlMethod, q: Queryable = db): Promise<boolean> {
      const rows = await q.query(
        'INSERT INTO wallet_control_proofs (address, method) VALUES ($1, $2) ON CONFLICT (address) DO NOTHING RETURNING address',
        [address.toLowerCase(), method],
      );
      return rows.length === 1;
    },

    /** How and when the wallet first proved control, or null. */
    async proof(address: string, q: Queryable = db): Promise<{ method: ControlMethod; provedAt: Date } | null> {
      const rows = await q.query<{ method: ControlMethod; proved_at: Date }>(
        'SELECT method, proved_at FROM wallet_control_proofs WHERE address = $1',
        [address.toLowerCase()],
      );
      return rows.length ? { method: rows[0].method, provedAt: new Date(rows[0].proved_at) } : null;
    },

    async proved(address: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('SELECT 1 FROM wallet_control_proofs WHERE address = $1', [address.toLowerCase()]);
      return rows.length === 1;
    },
    /** The wallets among these that proved control (bulk scoring). */
    async provedAmong(addresses: string[], q: Queryable = db): Promise<Set<string>> {
      const rows = await q.query<{ address: string }>('SELECT address FROM wallet_control_proofs WHERE address = ANY($1::text[])', [
        addresses.map((a) => a.toLowerCase()),
      ]);
      return new Set(rows.map((r) => r.address));
    },
  };
}

export type ControlRepo = ReturnType<typeof createControlRepo>;
