// Uniswap V2 pairs, V3 pools and their position manager, and the V4 PoolManager: swaps (volume, fee, pair, side)
// and the liquidity that makes a wallet's later swaps in a pool trade against itself.
import { ZERO_ADDRESS } from '../events.js';
import { tokenInfo, wrappedNative } from '../registry/index.js';
import { v4Pool } from '../registry/markets.js';
import type { PoolInfo } from '../registry/gate.js';
import { addForSender, type Decoders, type LogScope } from './scope.js';
import { swapValue } from './swap-value.js';

function v2v3Swap(s: LogScope): void {
  const { ctx, args, a } = s;
  const v2 = s.name === 'UniswapV2Swap';
  const protocol = v2 ? 'uniswap-v2' : 'uniswap-v3';
  const recipient = a(v2 ? 'to' : 'recipient');
  const pool = ctx.pools!.get(s.contract)!;
  const valueUsd = swapValue(ctx.chainId, pool, args, v2, s.price);
  // for fees paid and round trips (scoring/features/sql.ts): the pool's fee (hundredths of a bip; a V2 pair charges 0.3%) in
  // amount, its pair in ref, and the side: 'out' when token0 was paid into the pool, 'in' when token1 was
  const big = (k: string) => (args[k] as bigint | undefined) ?? 0n;
  const zeroIn = v2 ? big('amount0In') > 0n : big('amount0') > 0n;
  const swap = {
    protocol,
    valueUsd,
    amount: String(v2 ? 3000 : (pool.fee ?? 3000)),
    ref: `${pool.token0}/${pool.token1}`,
    direction: zeroIn ? ('out' as const) : ('in' as const),
  };
  s.add(a('sender'), 'swap', { ...swap, counterparty: recipient });
  s.add(recipient, 'swap', { ...swap, counterparty: a('sender') });
  addForSender(s, 'swap', { ...swap, counterparty: recipient });
}

/**
 * One PoolManager holds every V4 pool: the row's contract is the pool id, its pair the pool key's currencies
 * (the native coin, the zero address, valued and allowlisted as the wrapped native token). The fee is the
 * one the Swap event says was charged (hundredths of a bip, dynamic fees included); a pool whose hooks may
 * return deltas on a swap (permission bits BEFORE_SWAP_RETURNS_DELTA 1<<3, AFTER_SWAP_RETURNS_DELTA 1<<2
 * of the hooks address) can hand the trader back what it paid: its swaps count no fee. The hooks are named
 * (counterparty). The trader is the transaction's sender, and the caller when it called the PoolManager
 * itself (a router is a pinned contract: never a wallet).
 */
function v4Swap(s: LogScope): void {
  const { ctx, args } = s;
  const id = s.log.topics[1].toLowerCase();
  const key = v4Pool(ctx.chainId, id);
  const asToken = (c: string) => (c === ZERO_ADDRESS ? (wrappedNative(ctx.chainId) ?? c) : c);
  if (!key) {
    if (ctx.dropped) ctx.dropped.unverifiedPool++;
    return;
  }
  const t0 = asToken(key.currency0);
  const t1 = asToken(key.currency1);
  if (!tokenInfo(ctx.chainId, t0) || !tokenInfo(ctx.chainId, t1)) {
    if (ctx.dropped) ctx.dropped.unlistedPool++;
    return;
  }
  const a0 = args.amount0 as bigint;
  const a1 = args.amount1 as bigint;
  // V4's amounts are the trader's balance change: negative is what it paid into the pool
  const pool: PoolInfo = { protocol: 'uniswap-v3', token0: t0, token1: t1 };
  const valueUsd = swapValue(ctx.chainId, pool, { amount0: -a0, amount1: -a1 }, false, s.price);
  const rebates = (BigInt(key.hooks) & 0b1100n) !== 0n;
  const swap = {
    protocol: 'uniswap-v4',
    valueUsd,
    amount: String(rebates ? 0 : Number(args.fee)),
    ref: `${key.currency0}/${key.currency1}`,
    direction: a0 < 0n ? ('out' as const) : ('in' as const),
    contract: id,
    counterparty: key.hooks === ZERO_ADDRESS ? null : key.hooks,
  };
  s.add(s.a('sender'), 'swap', swap);
  addForSender(s, 'swap', swap);
}

// liquidity added to a V4 pool by the wallet (its own call, or a transaction it sent through the position
// manager): its swaps in that pool trade against itself from here on (scoring/features/sql.ts, like a V3 position), while
// what it added is more than what it took out (amount: the signed liquidity delta)
function v4ModifyLiquidity(s: LogScope): void {
  const delta = s.args.liquidityDelta as bigint;
  if (delta === 0n) return;
  const id = s.log.topics[1].toLowerCase();
  const lp = { protocol: 'uniswap-v4', contract: id, amount: delta.toString() };
  const kind = delta > 0n ? 'lp_position' : 'lp_liquidity';
  s.add(s.a('sender'), kind, lp);
  addForSender(s, kind, lp);
}

// a V3 position's liquidity, by token id (anyone may add to any position; only its owner or an approved
// operator may remove): recorded under the transaction's sender, read by token id (scoring/features/sql.ts)
function npmLiquidity(s: LogScope): void {
  const liquidity = s.args.liquidity as bigint;
  if (liquidity === 0n || !s.ctx.txFrom) return;
  const signed = s.name === 'NpmIncreaseLiquidity' ? liquidity : -liquidity;
  addForSender(s, 'lp_liquidity', {
    protocol: 'uniswap-v3',
    tokenId: BigInt(s.log.topics[1]).toString(),
    amount: signed.toString(),
  });
}

export const uniswapDecoders: Decoders = {
  UniswapV2Swap: v2v3Swap,
  UniswapV3Swap: v2v3Swap,
  UniswapV4Swap: v4Swap,
  UniswapV4ModifyLiquidity: v4ModifyLiquidity,
  NpmIncreaseLiquidity: npmLiquidity,
  NpmDecreaseLiquidity: npmLiquidity,
};
