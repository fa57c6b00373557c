// The USD volume of a swap, from its pool's pair and the amounts in and out.
import { evidenceValue, usdValue, type PoolInfo } from '../registry/gate.js';

/** USD volume of a swap: the stablecoin side's amount (in or out); else, at the oracle's price, the side paid into
 *  the pool, else the other side; null when neither side has a price. */
export function swapValue(
  chainId: number,
  pool: PoolInfo,
  args: Record<string, unknown>,
  v2: boolean,
  price: (token: string) => number | null,
): number | null {
  const big = (k: string) => (args[k] as bigint | undefined) ?? 0n;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const amt0 = v2 ? big('amount0In') + big('amount0Out') : abs(big('amount0'));
  const amt1 = v2 ? big('amount1In') + big('amount1Out') : abs(big('amount1'));
  const stable = usdValue(chainId, pool.token0, amt0) ?? usdValue(chainId, pool.token1, amt1);
  if (stable !== null) return stable;
  const in0 = v2 ? big('amount0In') > 0n : big('amount0') > 0n;
  const sides: [string, bigint][] = in0
    ? [
        [pool.token0, amt0],
        [pool.token1, amt1],
      ]
    : [
        [pool.token1, amt1],
        [pool.token0, amt0],
      ];
  for (const [token, amt] of sides) {
    const v = usdValue(chainId, token, amt, price(token));
    if (v !== null) return v;
  }
  // neither side priced: crumbs of both tokens are dust, anything more is an unvalued swap
  return evidenceValue(chainId, pool.token0, amt0) === 0 && evidenceValue(chainId, pool.token1, amt1) === 0 ? 0 : null;
}
