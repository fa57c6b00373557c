// Router swaps in the wallet's explorer lists: which of its transactions swapped (candidateSwaps), the direct ones
// settled from the token list alone (directSwap), and which swap emitters are factory pools (poolsFor).
import { encodeAbiParameters, pad } from 'viem';
import { decodeLog, type RawLog } from '../decode.js';
import { EVENTS, EVENTS_BY_TOPIC } from '../events.js';
import { derivePool, poolsForLogs, SWAP_TOPICS } from '../registry/pools.js';
import type { PoolInfo } from '../registry/gate.js';
import type { ExplorerSource, Row } from './source.js';
import { lc, noValue, ok, time } from './rows.js';

const TRANSFER = EVENTS.find((e) => e.name === 'Transfer')!.topic0;

/** The wallet's own successful transactions that sent an asset and received a different one. */
export function candidateSwaps(
  wallet: string,
  txs: Row[],
  internal: Row[],
  erc20: Row[],
): { hash: string; tx: Row; moves: Row[]; gotNative: boolean }[] {
  const out: { hash: string; tx: Row; moves: Row[]; gotNative: boolean }[] = [];
  for (const t of txs) {
    if (lc(t.from) !== wallet || !ok(t)) continue;
    const hash = lc(t.hash);
    const moves = erc20.filter((r) => lc(r.hash) === hash);
    const sent = new Set(moves.filter((r) => lc(r.from) === wallet).map((r) => lc(r.contractAddress)));
    const got = new Set(moves.filter((r) => lc(r.to) === wallet).map((r) => lc(r.contractAddress)));
    const gotNative = internal.some((r) => lc(r.hash) === hash && lc(r.to) === wallet);
    if (!noValue(t.value)) sent.add('native');
    if (gotNative) got.add('native');
    if ([...got].some((g) => [...sent].some((s) => s !== g))) out.push({ hash, tx: t, moves, gotNative });
  }
  return out;
}

const only = <T>(xs: T[]): T | null => (xs.length && xs.every((x) => x === xs[0]) ? xs[0] : null);
const PROBE = 2n ** 200n;

/**
 * A router swap settled from the wallet's token list, without its receipt: every token the wallet sent in the
 * transaction is one allowlisted token, all paid to one pool that derives from the factory for the pair the wallet
 * sent and received (derivePool), and every token it received is the other one, all from one address other than
 * the pool (the router, which took the pool's output: the Swap's recipient). Returned as the Swap log the receipt
 * would show (amount in: what the wallet paid the pool; amount out: what the router paid on), to be decoded with
 * the transaction's sender like a receipt's swap logs. Null where the list cannot settle it, and the receipt is
 * read as before: a native leg, several tokens, pools or payers (multi-hop or split routes), a pool that does not
 * derive from the pair, or a value that would depend on the pool's own output, which the wallet's list does not
 * show (a router may keep a fee from it). The Swap log's own index is not in the lists: the record has log index
 * -3 (transaction-level, like -1 for the value transfer and -2 for internal transfers).
 */
export function directSwap(
  chainId: number,
  wallet: string,
  t: Row,
  moves: Row[],
): { log: RawLog; pools: Map<string, PoolInfo | null> } | null {
  if (!noValue(t.value)) return null;
  const sent = moves.filter((r) => lc(r.from) === wallet);
  const got = moves.filter((r) => lc(r.to) === wallet);
  const tokenIn = only(sent.map((r) => lc(r.contractAddress)));
  const tokenOut = only(got.map((r) => lc(r.contractAddress)));
  const pool = only(sent.map((r) => lc(r.to)));
  const payer = only(got.map((r) => lc(r.from)));
  if (!tokenIn || !tokenOut || tokenIn === tokenOut || !pool || !payer || payer === pool || payer === wallet || pool === wallet)
    return null;
  const info = pairPool(chainId, pool, tokenIn, tokenOut);
  if (!info) return null;
  const pools = new Map<string, PoolInfo | null>([[pool, info]]);
  const amountIn = sent.reduce((s, r) => s + BigInt(r.value || '0'), 0n);
  const amountOut = got.reduce((s, r) => s + BigInt(r.value || '0'), 0n);
  const topic0 = [...SWAP_TOPICS].find(([, p]) => p === info.protocol)![0];
  const inputs = EVENTS_BY_TOPIC.get(topic0)!.abi.inputs.filter((i) => !i.indexed);
  const inIs0 = tokenIn === info.token0;
  const build = (out: bigint): RawLog => {
    // V2: amount0In, amount1In, amount0Out, amount1Out; V3: amount0, amount1 as the pool sees them (in > 0, out < 0)
    const values =
      info.protocol === 'uniswap-v2'
        ? inIs0
          ? [amountIn, 0n, 0n, out]
          : [0n, amountIn, out, 0n]
        : [...(inIs0 ? [amountIn, -out] : [-out, amountIn]), 0n, 0n, 0];
    const data = encodeAbiParameters(inputs, values);
    return {
      address: pool,
      topics: [topic0, pad(payer as `0x${string}`), pad(payer as `0x${string}`)],
      data,
      transactionHash: lc(t.hash),
      logIndex: -3,
      blockNumber: Number(t.blockNumber),
      timestamp: time(t),
    };
  };
  // the value must not depend on the amount out (the pool's, not seen): the same at none and at any amount
  const value = (out: bigint) => decodeLog(build(out), { chainId, pools, txFrom: wallet }).find((r) => r.wallet === wallet)?.valueUsd;
  const v = value(0n);
  if (v === undefined || v !== value(PROBE) || v !== value(amountOut)) return null;
  return { log: build(amountOut), pools };
}

/** The pool's info if it is the factory's V2 pair or V3 pool (any fee tier) for exactly this pair of tokens. */
function pairPool(chainId: number, pool: string, a: string, b: string): PoolInfo | null {
  const pair = [a, b].sort().join();
  for (const protocol of ['uniswap-v2', 'uniswap-v3'] as const) {
    const p = derivePool(chainId, protocol, pool, [a, b]);
    // derivePool answers a known pool from its cache whatever the candidates: the pair must be this one
    if (p && p.protocol === protocol && [p.token0, p.token1].sort().join() === pair) return p;
  }
  return null;
}

/** Which swap emitters are factory pools: derived from the tokens moved in the same transaction, else read. */
export async function poolsFor(chainId: number, logs: RawLog[], erc20: Row[], src: ExplorerSource): Promise<Map<string, PoolInfo | null>> {
  const out = new Map<string, PoolInfo | null>();
  const unknown: RawLog[] = [];
  for (const l of logs) {
    const protocol = SWAP_TOPICS.get(l.topics[0]?.toLowerCase());
    const pool = l.address.toLowerCase();
    if (!protocol || out.has(pool)) continue;
    const hash = lc(l.transactionHash);
    const candidates = [
      ...erc20.filter((r) => lc(r.hash) === hash).map((r) => r.contractAddress),
      ...logs.filter((x) => lc(x.transactionHash) === hash && x.topics[0] === TRANSFER).map((x) => x.address),
    ];
    const info = derivePool(chainId, protocol, pool, candidates);
    if (info) out.set(pool, info);
    else unknown.push(l);
  }
  if (unknown.length) for (const [k, v] of await poolsForLogs(chainId, unknown, (to, data) => src.call(to, data))) out.set(k, v);
  return out;
}
