// SQL for the activity store, the sync cursors and bulk-import progress. Every method takes an optional
// transaction handle.
import type { Queryable } from '../../platform/db/types.js';
import { FEATURES_CHUNK, featuresFor, featuresForMany, poolLabel, type ChunkSizer } from '../scoring/index.js';
import type { ActivityRecord } from './decode.js';
import { storeActivity } from './etl/writer.js';

export interface SyncState {
  chainId: number;
  lastBlock: number | null;
  nonce: number;
  deployNonceChecked: number;
}

export function createIngestionRepo(db: Queryable) {
  return {
    /** Stores records, ignoring those already stored; returns the wallets that gained at least one record. */
    /** Stores new records (a record already stored is left alone); returns the wallets that got any. */
    async insertActivity(records: ActivityRecord[], q: Queryable = db): Promise<Set<string>> {
      return (await storeActivity(q, records)).wallets;
    },

    async syncStates(wallet: string, q: Queryable = db): Promise<SyncState[]> {
      const rows = await q.query<{
        chain_id: number;
        last_block: string | number | null;
        nonce: string | number;
        deploy_nonce_checked: string | number;
      }>('SELECT chain_id, last_block, nonce, deploy_nonce_checked FROM wallet_sync WHERE wallet = $1', [wallet]);
      return rows.map((r) => ({
        chainId: r.chain_id,
        lastBlock: r.last_block === null ? null : Number(r.last_block),
        nonce: Number(r.nonce),
        deployNonceChecked: Number(r.deploy_nonce_checked),
      }));
    },

    /** Moves the log cursor forward only (a late or repeated sync never moves it back). */
    async advanceCursor(wallet: string, chainId: number, lastBlock: number, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO wallet_sync (wallet, chain_id, last_block, last_synced_at, last_error) VALUES ($1, $2, $3, now(), NULL)
         ON CONFLICT (wallet, chain_id) DO UPDATE
           SET last_block = GREATEST(COALESCE(wallet_sync.last_block, -1), EXCLUDED.last_block), last_synced_at = now(), last_error = NULL`,
        [wallet, chainId, lastBlock],
      );
    },

    async recordAccount(
      wallet: string,
      chainId: number,
      a: { nonce: number; balance?: string | null; deployNonceChecked?: number },
      q: Queryable = db,
    ) {
      await q.query(
        `INSERT INTO wallet_sync (wallet, chain_id, nonce, balance, deploy_nonce_checked) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (wallet, chain_id) DO UPDATE
           SET nonce = GREATEST(wallet_sync.nonce, EXCLUDED.nonce),
               balance = COALESCE(EXCLUDED.balance, wallet_sync.balance),
               deploy_nonce_checked = GREATEST(wallet_sync.deploy_nonce_checked, EXCLUDED.deploy_nonce_checked)`,
        [wallet, chainId, a.nonce, a.balance ?? null, a.deployNonceChecked ?? 0],
      );
    },

    /** Bulk import: the highest nonce seen per sender becomes its transaction count (never lowered). */
    async recordNonces(nonces: Map<string, number>, chainId: number, q: Queryable = db): Promise<void> {
      // in one order (by wallet): two imports' batches written at once lock the rows they share in the same order
      const entries = [...nonces].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      for (let i = 0; i < entries.length; i += 1000) {
        const chunk = entries.slice(i, i + 1000);
        await q.query(
          `INSERT INTO wallet_sync (wallet, chain_id, nonce)
           SELECT w, $1, n FROM unnest($2::text[], $3::bigint[]) AS t(w, n)
           ON CONFLICT (wallet, chain_id) DO UPDATE SET nonce = GREATEST(wallet_sync.nonce, EXCLUDED.nonce)`,
          [chainId, chunk.map((e) => e[0]), chunk.map((e) => e[1])],
        );
      }
    },

    async recordError(wallet: string, chainId: number, message: string, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO wallet_sync (wallet, chain_id, last_error) VALUES ($1, $2, $3)
         ON CONFLICT (wallet, chain_id) DO UPDATE SET last_error = EXCLUDED.last_error`,
        [wallet, chainId, message.slice(0, 500)],
      );
    },

    /** Marks a wallet as tracked; returns true when it was not tracked before. */
    async track(wallet: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('INSERT INTO tracked_wallets (wallet) VALUES ($1) ON CONFLICT DO NOTHING RETURNING wallet', [wallet]);
      return rows.length === 1;
    },

    async markSynced(wallet: string, q: Queryable = db): Promise<void> {
      await q.query('UPDATE tracked_wallets SET last_synced_at = now(), claimed_until = NULL WHERE wallet = $1', [wallet]);
    },

    async isSynced(wallet: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('SELECT 1 FROM tracked_wallets WHERE wallet = $1 AND last_synced_at IS NOT NULL', [wallet]);
      return rows.length === 1;
    },

    /** Tracked wallets last synced before the cutoff (never-synced first) and not claimed by another worker. */
    async dueWallets(olderThanSeconds: number, limit: number, q: Queryable = db): Promise<string[]> {
      const rows = await q.query<{ wallet: string }>(
        `SELECT wallet FROM tracked_wallets
         WHERE (last_synced_at IS NULL OR last_synced_at < now() - make_interval(secs => $1))
           AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY last_synced_at NULLS FIRST LIMIT $2`,
        [olderThanSeconds, limit],
      );
      return rows.map((r) => r.wallet);
    },

    /** Claims due wallets for leaseSeconds (SKIP LOCKED: concurrent workers claim disjoint sets). */
    async claimDue(olderThanSeconds: number, limit: number, leaseSeconds: number, q: Queryable = db): Promise<string[]> {
      const rows = await q.query<{ wallet: string }>(
        `UPDATE tracked_wallets SET claimed_until = now() + make_interval(secs => $3)
         WHERE wallet IN (
           SELECT wallet FROM tracked_wallets
           WHERE (last_synced_at IS NULL OR last_synced_at < now() - make_interval(secs => $1))
             AND (claimed_until IS NULL OR claimed_until < now())
             AND (retry_at IS NULL OR retry_at < now())
           ORDER BY last_synced_at NULLS FIRST LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING wallet`,
        [olderThanSeconds, limit, leaseSeconds],
      );
      return rows.map((r) => r.wallet);
    },

    async importProgress(source: string, q: Queryable = db): Promise<Map<string, { linesDone: number; completed: boolean }>> {
      const rows = await q.query<{ file: string; lines_done: string | number; completed_at: Date | null }>(
        'SELECT file, lines_done, completed_at FROM ingest_import_files WHERE source = $1',
        [source],
      );
      return new Map(rows.map((r) => [r.file, { linesDone: Number(r.lines_done), completed: r.completed_at !== null }]));
    },

    async saveImportProgress(source: string, file: string, linesDone: number, completed: boolean, q: Queryable = db): Promise<void> {
      await q.query(
        `INSERT INTO ingest_import_files (source, file, lines_done, completed_at, updated_at)
         VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END, now())
         ON CONFLICT (source, file) DO UPDATE
           SET lines_done = EXCLUDED.lines_done, completed_at = EXCLUDED.completed_at, updated_at = now()`,
        [source, file, linesDone, completed],
      );
    },

    features: (wallet: string, q: Queryable = db) => featuresFor(q, wallet),
    /** Features of many wallets, one statement per chunk of wallets; in the order given (duplicates too). */
    featuresMany: (wallets: string[], q: Queryable = db, chunk: number | ChunkSizer = FEATURES_CHUNK) => featuresForMany(q, wallets, chunk),
  };
}

export type IngestionRepo = ReturnType<typeof createIngestionRepo>;

/** A Uniswap pool the registry verified (it emitted swaps stored as evidence): a protocol contract, not a user. */
export async function verifiedPool(q: Queryable, address: string): Promise<{ label: string } | undefined> {
  const [p] = await q.query<{ protocol: string }>("SELECT protocol FROM wallet_activity WHERE contract = $1 AND kind = 'swap' LIMIT 1", [
    address.toLowerCase(),
  ]);
  return p ? { label: poolLabel(p.protocol) } : undefined;
}
