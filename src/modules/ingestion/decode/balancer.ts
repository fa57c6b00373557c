// Balancer V2: the Vault's swaps (volume, no fee) and joins (liquidity that makes the provider's swaps its own).
import { tokenInfo } from '../registry/index.js';
import type { PoolInfo } from '../registry/gate.js';
import { addForSender, type Decoders, type LogScope } from './scope.js';
import { swapValue } from './swap-value.js';

/** The pool a Vault event names: the poolId's first 20 bytes. */
const poolOf = (s: LogScope) => `0x${s.log.topics[1].slice(2, 42)}`.toLowerCase();

// The Vault's Swap names the pool and both tokens; the trader is the transaction's sender. The pool's swap fee is
// not in the Vault's logs (the pool keeps it, anyone can register a pool with any fee logic): swaps are volume with
// no fee counted (amount 0).
function swap(s: LogScope): void {
  const { ctx } = s;
  const poolAddress = poolOf(s);
  const tokenIn = s.a('tokenIn')!;
  const tokenOut = s.a('tokenOut')!;
  if (!tokenInfo(ctx.chainId, tokenIn) || !tokenInfo(ctx.chainId, tokenOut)) {
    if (ctx.dropped) ctx.dropped.unlistedPool++;
    return;
  }
  const [token0, token1] = tokenIn < tokenOut ? [tokenIn, tokenOut] : [tokenOut, tokenIn];
  const zeroIn = tokenIn === token0;
  const pool: PoolInfo = { protocol: 'uniswap-v3', token0, token1 };
  const amountIn = s.args.amountIn as bigint;
  const amountOut = s.args.amountOut as bigint;
  const amounts = { amount0: zeroIn ? amountIn : -amountOut, amount1: zeroIn ? -amountOut : amountIn };
  const valueUsd = swapValue(ctx.chainId, pool, amounts, false, s.price);
  addForSender(s, 'swap', {
    protocol: 'balancer-v2',
    valueUsd,
    amount: '0',
    ref: `${token0}/${token1}`,
    direction: zeroIn ? 'out' : 'in',
    contract: poolAddress,
    counterparty: null,
  });
}

// a join (a positive delta) makes the provider a holder of that pool: its swaps there are its own liquidity
function poolBalanceChanged(s: LogScope): void {
  const deltas = s.args.deltas as bigint[];
  if (!deltas.some((d) => d > 0n)) return;
  const lp = { protocol: 'balancer-v2', contract: poolOf(s) };
  s.add(s.a('liquidityProvider'), 'lp_position', lp);
  addForSender(s, 'lp_position', lp);
}

export const balancerDecoders: Decoders = { BalancerSwap: swap, BalancerPoolBalanceChanged: poolBalanceChanged };
