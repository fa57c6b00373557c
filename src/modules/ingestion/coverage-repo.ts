// SQL behind coverage and backoff: per wallet and chain, the source, the final block its last sync read up to and
// whether that sync read everything; per tracked wallet, consecutive failures and the time of the next try.
import type { Queryable } from '../../platform/db/types.js';
import { lazy } from '../../platform/lazy.js';
import { unreadCloneFactories } from './registry/index.js';

// viem derives the clone pools: loaded when a wallet first touched an unread clone factory's chain, then kept
const loadClonePools = lazy(() => import('./registry/clone-pools.js'));

export interface ChainCoverageRow {
  chainId: number;
  syncedToBlock: number | null;
  finalizedBlock: number | null;
  complete: boolean;
  source: string | null;
  syncedAt: Date | null;
}

type Unread = { chainId: number; address: string; protocol: string }[];
/** A list's protocol per chain and address, and its distinct addresses: made once per list (a service keeps one). */
const indexes = new WeakMap<Unread, { protocolAt: Map<string, string>; addresses: string[] }>();
function indexOf(unread: Unread) {
  let i = indexes.get(unread);
  if (!i)
    indexes.set(
      unread,
      (i = {
        protocolAt: new Map(unread.map((u) => [`${u.chainId}:${u.address}`, u.protocol])),
        addresses: [...new Set(unread.map((u) => u.address))],
      }),
    );
  return i;
}

export function createCoverageRepo(db: Queryable) {
  return {
    async recordChainState(
      wallet: string,
      chainId: number,
      s: { source: string; finalizedBlock: number; complete: boolean },
      q: Queryable = db,
    ) {
      await q.query(
        `INSERT INTO wallet_sync (wallet, chain_id, source, finalized_block, complete, last_synced_at) VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (wallet, chain_id) DO UPDATE
           SET source = EXCLUDED.source, finalized_block = GREATEST(COALESCE(wallet_sync.finalized_block, 0), EXCLUDED.finalized_block),
               complete = EXCLUDED.complete, last_synced_at = now(), last_error = CASE WHEN EXCLUDED.complete THEN NULL ELSE wallet_sync.last_error END`,
        [wallet, chainId, s.source, s.finalizedBlock, s.complete],
      );
    },

    /** The block of the wallet's first record of a kind on a chain (null: none). */
    async firstBlockOf(wallet: string, chainId: number, kind: string, q: Queryable = db): Promise<number | null> {
      const [r] = await q.query<{ b: string | number | null }>(
        'SELECT min(block_number) AS b FROM wallet_activity WHERE wallet = $1 AND chain_id = $2 AND kind = $3',
        [wallet, chainId, kind],
      );
      return r?.b === null || r?.b === undefined ? null : Number(r.b);
    },

    async chains(wallets: string[], q: Queryable = db): Promise<Map<string, ChainCoverageRow[]>> {
      const rows = await q.query<{
        wallet: string;
        chain_id: number;
        last_block: string | null;
        finalized_block: string | null;
        complete: boolean;
        source: string | null;
        last_synced_at: Date | null;
      }>(
        'SELECT wallet, chain_id, last_block, finalized_block, complete, source, last_synced_at FROM wallet_sync WHERE wallet = ANY($1::text[])',
        [wallets],
      );
      const out = new Map<string, ChainCoverageRow[]>();
      for (const r of rows) {
        const list = out.get(r.wallet) ?? out.set(r.wallet, []).get(r.wallet)!;
        list.push({
          chainId: Number(r.chain_id),
          syncedToBlock: r.last_block === null ? null : Number(r.last_block),
          finalizedBlock: r.finalized_block === null ? null : Number(r.finalized_block),
          complete: !!r.complete,
          source: r.source,
          syncedAt: r.last_synced_at ? new Date(r.last_synced_at) : null,
        });
      }
      return out;
    },

    /** Per wallet, the unread protocols (registry unreadContracts) its stored activity touched: a token sent to or
     *  received from one of their contracts, or a token one of them issues, or a pool of a listed clone factory
     *  (below). One statement for many wallets, and one more where such a factory is listed. */
    async unreadTouched(wallets: string[], unread: Unread, q: Queryable = db): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      if (!wallets.length || !unread.length) return out;
      // The addresses as one array each side is compared with (a hashed = ANY, whatever the list's length: joined to
      // the list instead, with an OR, the plan compared every row with every entry); the chain and the protocol are
      // matched here.
      const { protocolAt, addresses } = indexOf(unread);
      const rows = await q.query<{ wallet: string; chain_id: number; address: string }>(
        `SELECT wallet, chain_id, counterparty AS address FROM wallet_activity WHERE wallet = ANY($1::text[]) AND counterparty = ANY($2::text[])
         UNION
         SELECT wallet, chain_id, contract FROM wallet_activity WHERE wallet = ANY($1::text[]) AND contract = ANY($2::text[])`,
        [wallets, addresses],
      );
      const named = new Map<string, Set<string>>();
      for (const r of rows) {
        const protocol = protocolAt.get(`${Number(r.chain_id)}:${r.address}`);
        if (protocol) (named.get(r.wallet) ?? named.set(r.wallet, new Set()).get(r.wallet)!).add(protocol);
      }
      for (const [wallet, set] of named) out.set(wallet, [...set].sort());
      // Pools that are clones of a listed factory (Aerodrome, Velodrome V2) are not listed: two different tokens moved
      // between the wallet and one address in one transaction (a swap, or liquidity added or removed) name a pool
      // when the factory derives that address for the pair. Only the chains and wallets still unnamed are looked at.
      const factories = unreadCloneFactories().filter((f) => unread.some((u) => u.chainId === f.chainId && u.address === f.factory));
      if (!factories.length) return out;
      const { isClonePool } = await loadClonePools();
      const pairs = await q.query<{ wallet: string; chain_id: number; pool: string; tokens: string[] }>(
        `SELECT wallet, chain_id, counterparty AS pool, array_agg(DISTINCT contract) AS tokens FROM wallet_activity
          WHERE wallet = ANY($1::text[]) AND chain_id = ANY($2::int[]) AND kind = 'transfer_erc20' AND counterparty IS NOT NULL
          GROUP BY wallet, chain_id, tx_hash, counterparty HAVING count(DISTINCT contract) = 2`,
        [wallets, [...new Set(factories.map((f) => f.chainId))]],
      );
      const seen = new Set<string>();
      for (const p of pairs) {
        const [a, b] = [...p.tokens].sort();
        const key = `${p.wallet}:${p.chain_id}:${p.pool}:${a}:${b}`;
        if (seen.has(key)) continue;
        seen.add(key);
        for (const f of factories) {
          const named = out.get(p.wallet);
          if (f.chainId !== Number(p.chain_id) || named?.includes(f.protocol) || !isClonePool(f, p.pool, a, b)) continue;
          if (named) named.splice(0, named.length, ...[...named, f.protocol].sort());
          else out.set(p.wallet, [f.protocol]);
        }
      }
      return out;
    },

    /** A failed sync: the wallet is retried after base * 2^(failures-1) seconds, at most maxSeconds. */
    async recordFailure(wallet: string, baseSeconds: number, maxSeconds: number, q: Queryable = db): Promise<void> {
      await q.query(
        `UPDATE tracked_wallets SET failures = failures + 1, claimed_until = NULL,
           retry_at = now() + make_interval(secs => LEAST($3::float8, $2::float8 * power(2, LEAST(failures, 30))))
         WHERE wallet = $1`,
        [wallet, baseSeconds, maxSeconds],
      );
    },

    /** Whether a tracked wallet was ever synced, and whether its last failure still backs it off (retry_at ahead). */
    async readiness(wallet: string, q: Queryable = db): Promise<{ synced: boolean; backingOff: boolean }> {
      const [r] = await q.query<{ synced: boolean; backing_off: boolean }>(
        'SELECT last_synced_at IS NOT NULL AS synced, (retry_at IS NOT NULL AND retry_at > now()) AS backing_off FROM tracked_wallets WHERE wallet = $1',
        [wallet],
      );
      return { synced: !!r?.synced, backingOff: !!r?.backing_off };
    },

    async clearFailures(wallet: string, q: Queryable = db): Promise<void> {
      await q.query(
        'UPDATE tracked_wallets SET failures = 0, retry_at = NULL WHERE wallet = $1 AND (failures > 0 OR retry_at IS NOT NULL)',
        [wallet],
      );
    },
  };
}

export type CoverageRepo = ReturnType<typeof createCoverageRepo>;
