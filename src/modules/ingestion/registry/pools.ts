// Establishes which swap emitters are real Uniswap pools: a pool counts only if its address is the factory's
// CREATE2 address for its token pair (and fee). The bulk import infers the pair from the same transaction's token
// transfers (trying each V3 fee tier); the JSON-RPC path reads token0/token1/fee from the pool. Results are cached.
import { EVENTS } from '../events.js';
import { poolDerives, V3_FEE_TIERS } from './index.js';
import type { PoolInfo } from './gate.js';

export const SWAP_TOPICS = new Map<string, 'uniswap-v2' | 'uniswap-v3'>([
  [EVENTS.find((e) => e.name === 'UniswapV2Swap')!.topic0, 'uniswap-v2'],
  [EVENTS.find((e) => e.name === 'UniswapV3Swap')!.topic0, 'uniswap-v3'],
]);

const cache = new Map<string, PoolInfo | null>();
const key = (chainId: number, pool: string) => `${chainId}:${pool.toLowerCase()}`;
const sorted = (a: string, b: string): [string, string] =>
  a.toLowerCase() < b.toLowerCase() ? [a.toLowerCase(), b.toLowerCase()] : [b.toLowerCase(), a.toLowerCase()];

/** The pool's pair if some pair among `candidates` (and a V3 fee tier) derives to it, else null. */
export function derivePool(
  chainId: number,
  protocol: 'uniswap-v2' | 'uniswap-v3',
  pool: string,
  candidates: Iterable<string>,
): PoolInfo | null {
  const cached = cache.get(key(chainId, pool));
  if (cached) return cached;
  const toks = [...new Set([...candidates].map((t) => t.toLowerCase()))].filter((t) => t !== pool.toLowerCase());
  for (let i = 0; i < toks.length; i++) {
    for (let j = i + 1; j < toks.length; j++) {
      const [t0, t1] = sorted(toks[i], toks[j]);
      if (protocol === 'uniswap-v2') {
        if (poolDerives(chainId, protocol, pool, t0, t1)) return remember(chainId, pool, { protocol, token0: t0, token1: t1 });
      } else {
        for (const fee of V3_FEE_TIERS)
          if (poolDerives(chainId, protocol, pool, t0, t1, fee)) return remember(chainId, pool, { protocol, token0: t0, token1: t1, fee });
      }
    }
  }
  return null;
}

function remember(chainId: number, pool: string, info: PoolInfo | null): PoolInfo | null {
  if (cache.size > 100_000) cache.clear();
  cache.set(key(chainId, pool), info);
  return info;
}

/** eth_call of a contract with no arguments. */
export type Call = (to: string, data: string) => Promise<string>;

const SEL = { token0: '0x0dfe1681', token1: '0xd21220a7', fee: '0xddca3f43' };
const word = (hex: string) => (hex && hex.length >= 66 ? hex.slice(0, 66) : null);

/**
 * JSON-RPC path: for each distinct emitter of a swap log, reads token0/token1 (and fee for V3) from the emitter
 * and keeps it only if the factory derivation agrees. A contract that lies about its tokens cannot pass: the
 * address itself must be the CREATE2 result.
 */
export async function poolsForLogs(
  chainId: number,
  logs: readonly { address: string; topics: string[] }[],
  call?: Call,
): Promise<Map<string, PoolInfo | null>> {
  const out = new Map<string, PoolInfo | null>();
  for (const l of logs) {
    const protocol = SWAP_TOPICS.get(l.topics[0]?.toLowerCase());
    const pool = l.address.toLowerCase();
    if (!protocol || out.has(pool)) continue;
    const k = key(chainId, pool);
    if (cache.has(k)) {
      out.set(pool, cache.get(k)!);
      continue;
    }
    if (!call) {
      out.set(pool, null);
      continue;
    }
    let info: PoolInfo | null = null;
    try {
      const [a, b] = await Promise.all([call(pool, SEL.token0), call(pool, SEL.token1)]);
      const t0 = word(a);
      const t1 = word(b);
      if (t0 && t1) {
        const token0 = `0x${t0.slice(26)}`;
        const token1 = `0x${t1.slice(26)}`;
        if (protocol === 'uniswap-v2') info = poolDerives(chainId, protocol, pool, token0, token1) ? { protocol, token0, token1 } : null;
        else {
          const f = word(await call(pool, SEL.fee));
          const fee = f ? Number(BigInt(f)) : undefined;
          info = fee !== undefined && poolDerives(chainId, protocol, pool, token0, token1, fee) ? { protocol, token0, token1, fee } : null;
        }
      }
    } catch {
      // not a pool (no such function) or a transient RPC error: not evidence now, and not remembered either
      out.set(pool, null);
      continue;
    }
    out.set(pool, remember(chainId, pool, info));
  }
  return out;
}
