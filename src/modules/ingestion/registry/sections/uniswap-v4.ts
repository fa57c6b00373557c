// Uniswap V4 from @uniswap/sdk-core's address tables.
import type { Builder } from '../builder.js';
import { uniswap, v4PositionManager } from '../packages.js';

/** Uniswap V4's PoolManager and PositionManager. */
export function addUniswapV4(b: Builder): void {
  const { chainId, add } = b;
  const { CHAIN_TO_ADDRESSES_MAP } = uniswap();
  // Uniswap V4: one PoolManager per chain emits every pool's Swap (pools are ids, not contracts; see ../decode.ts)
  const v4 = (CHAIN_TO_ADDRESSES_MAP as Record<number, { v4PoolManagerAddress?: string }>)[chainId]?.v4PoolManagerAddress;
  if (v4)
    add({
      address: v4,
      protocol: 'uniswap-v4',
      role: 'v4-pool-manager',
      label: 'Uniswap V4 PoolManager',
      source: '@uniswap/sdk-core CHAIN_TO_ADDRESSES_MAP[chainId].v4PoolManagerAddress',
    });
  // its PositionManager calls the PoolManager for the liquidity it manages: labelled (never a wallet), and asked for
  // pool keys (registry/markets.ts)
  const v4pm = v4PositionManager(chainId);
  if (v4pm)
    add({
      address: v4pm,
      protocol: 'uniswap-v4',
      role: 'router',
      label: 'Uniswap V4 PositionManager',
      source: '@uniswap/sdk-core CHAIN_TO_ADDRESSES_MAP[chainId].v4PositionManagerAddress',
    });
}
