// Reads oracle prices over a chain's JSON-RPC endpoint, through the same transport as the sync (its rate limit,
// concurrency, retries and timeouts). One eth_call per (asset, bucket) ever: answers are cached per endpoint, and
// reads already under way for another wallet are shared. What an answer means:
//   a price in (0, maxUsdPerUnit]          USD per whole unit of the asset
//   a revert, "0x" (no oracle at that block), 0, an absurd price, a malformed answer, any other refusal
//                                          no price (the event is unvalued), remembered
//   no state for that block (a pruned node: "missing trie node", "header not found"...)
//                                          no price, and no older block is asked either (a node's state is a suffix
//                                          of the chain): a 2021 event is never valued at a newer block's price
//   rate limits and transient failures     retried by the transport; once it gives up, the error is thrown, so the
//                                          sync fails with its cursor kept and is retried later, never storing an
//                                          event unvalued for an outage
// Reads go newest bucket first, in rounds, so a node without history costs one round of refusals, not one per bucket.
import { keccak_256 } from '@noble/hashes/sha3';
import { classify, RpcError } from '../rpc-errors.js';
import type { ChainSource } from '../rpc-source.js';
import type { Outcome } from '../rpc-transport.js';
import { oracleFor, priceable, priceBlock } from './oracle.js';

/** USD per whole unit of `token` for an event at `block`; null/undefined: no price (unvalued). */
export type PriceLookup = (token: string, block: number) => number | null | undefined;

export type EthCalls = (calls: { to: string; data: string; block: number }[]) => Promise<Outcome<string>[]>;

export interface PriceStats {
  /** eth_call made */
  calls: number;
  priced: number;
  /** reverted, empty, zero or absurd answers */
  unpriced: number;
  /** refused for lack of state at the block */
  noState: number;
  /** buckets not asked because they are older than a block the node had no state for */
  skippedNoState: number;
  /** (asset, bucket) answered from the cache or a shared read */
  cached: number;
}

export interface PriceReader {
  readonly chainId: number;
  /** Prices of the priceable (token, block) pairs; the rest are left out (unvalued). */
  read(pairs: Iterable<{ token: string; block: number }>): Promise<PriceLookup>;
  readonly stats: PriceStats;
}

/** getAssetPrice(address)'s selector: the calldata is it and the address as one word (an ABI coder, viem's, no longer loads for it) */
const GET_ASSET_PRICE = Buffer.from(keccak_256('getAssetPrice(address)')).subarray(0, 4).toString('hex');
export const getAssetPriceCall = (token: string) => `0x${GET_ASSET_PRICE}${token.toLowerCase().slice(2).padStart(64, '0')}`;
/** reads per round: the transport splits them into its batches and admits them at its concurrency */
const ROUND = 100;
const CACHE_MAX = 200_000;

export function createPriceReader(chainId: number, ethCalls: EthCalls): PriceReader {
  const oracle = oracleFor(chainId);
  const stats: PriceStats = { calls: 0, priced: 0, unpriced: 0, noState: 0, skippedNoState: 0, cached: 0 };
  const cache = new Map<string, number | null>();
  const inflight = new Map<string, Promise<number | null>>();
  /** the newest block this endpoint said it has no state for: every bucket at or before it is unvalued */
  let noStateAt = -1;
  const key = (token: string, at: number) => `${token}:${at}`;

  function interpret(o: Outcome<string>, at: number): number | null {
    if (o.ok) {
      const hex = typeof o.value === 'string' ? o.value : '';
      if (!/^0x[0-9a-fA-F]{64}/.test(hex)) return unpriced(); // "0x": no contract there (yet)
      const raw = BigInt(hex.slice(0, 66));
      const usd = Number(raw) / 10 ** oracle!.decimals;
      if (raw === 0n || !Number.isFinite(usd) || usd > oracle!.maxUsdPerUnit) return unpriced();
      stats.priced++;
      return usd;
    }
    const c = classify(o.error);
    if (c.kind === 'no-state') {
      stats.noState++;
      noStateAt = Math.max(noStateAt, at);
      return null;
    }
    if (c.kind === 'rate' || c.kind === 'transient' || c.kind === 'range')
      throw o.error instanceof RpcError ? o.error : new Error(String(o.error));
    return unpriced(); // reverted (asset not listed at that block), or refused for good
  }
  function unpriced() {
    stats.unpriced++;
    return null;
  }

  /** Reads the given (token, block) pairs, newest first; resolves each key's price. */
  async function fetchAll(todo: { k: string; token: string; at: number }[]): Promise<Map<string, number | null>> {
    const out = new Map<string, number | null>();
    todo.sort((a, b) => b.at - a.at);
    for (let i = 0; i < todo.length; i += ROUND) {
      const round = todo.slice(i, i + ROUND).filter((x) => {
        if (x.at > noStateAt) return true;
        stats.skippedNoState++;
        out.set(x.k, null);
        return false;
      });
      if (!round.length) continue;
      stats.calls += round.length;
      const answers = await ethCalls(
        round.map((x) => ({
          to: oracle!.address,
          data: getAssetPriceCall(x.token),
          block: x.at,
        })),
      );
      round.forEach((x, j) => {
        const v = interpret(answers[j], x.at);
        out.set(x.k, v);
        // a refusal for lack of state is the endpoint's, not the asset's: the next node may have it
        if (v !== null || x.at > noStateAt) {
          if (cache.size >= CACHE_MAX) cache.clear();
          cache.set(x.k, v);
        }
      });
    }
    return out;
  }

  return {
    chainId,
    stats,
    async read(pairs) {
      const book = new Map<string, number | null>();
      if (!oracle) return () => null;
      const todo = new Map<string, { k: string; token: string; at: number }>();
      const shared: [string, Promise<number | null>][] = [];
      for (const p of pairs) {
        const token = p.token.toLowerCase();
        if (!priceable(chainId, token)) continue;
        const at = priceBlock(oracle, p.block);
        const k = key(token, at);
        if (book.has(k) || todo.has(k)) continue;
        if (cache.has(k)) {
          stats.cached++;
          book.set(k, cache.get(k)!);
        } else if (at <= noStateAt) {
          stats.skippedNoState++;
          book.set(k, null);
        } else if (inflight.has(k)) {
          stats.cached++;
          shared.push([k, inflight.get(k)!]);
        } else todo.set(k, { k, token, at });
      }
      if (todo.size) {
        const run = fetchAll([...todo.values()]);
        for (const k of todo.keys()) {
          const p = run.then((m) => m.get(k) ?? null);
          p.catch(() => undefined); // awaited below (and by any sync sharing it)
          inflight.set(k, p);
        }
        try {
          for (const [k, v] of await run) book.set(k, v);
        } finally {
          for (const k of todo.keys()) inflight.delete(k);
        }
      }
      for (const [k, p] of shared) book.set(k, await p);
      return (token, block) => book.get(key(token.toLowerCase(), priceBlock(oracle, block)));
    },
  };
}

const readers = new WeakMap<ChainSource, PriceReader>();

/** The price reader of a JSON-RPC source (one per source: its cache follows the endpoint's answers). */
export function priceReaderFor(source: ChainSource): PriceReader {
  let r = readers.get(source);
  if (!r) {
    r = createPriceReader(source.chainId, (calls) => source.callMany(calls));
    readers.set(source, r);
  }
  return r;
}
