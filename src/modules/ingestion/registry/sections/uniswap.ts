// Uniswap V2/V3 from @uniswap/sdk-core's address tables.
import { type Builder, lc } from '../builder.js';
import { uniswap } from '../packages.js';

/** Uniswap V2/V3: factories (pools derive from them), routers (labelled, never scored), UNI and its governor. */
export function addUniswap(b: Builder): { v2Factory: string | null; v3Factory: string | null } {
  const { chainId, add } = b;
  const {
    V2_FACTORY_ADDRESSES,
    V3_CORE_FACTORY_ADDRESSES,
    GOVERNANCE_BRAVO_ADDRESSES,
    UNI_ADDRESSES,
    V2_ROUTER_ADDRESSES,
    SWAP_ROUTER_02_ADDRESSES,
    NONFUNGIBLE_POSITION_MANAGER_ADDRESSES,
  } = uniswap();
  const v2Factory = V2_FACTORY_ADDRESSES[chainId] ? lc(V2_FACTORY_ADDRESSES[chainId]) : null;
  const v3Factory = V3_CORE_FACTORY_ADDRESSES[chainId] ? lc(V3_CORE_FACTORY_ADDRESSES[chainId]) : null;
  if (v2Factory)
    add({
      address: v2Factory,
      protocol: 'uniswap-v2',
      role: 'dex-factory',
      label: 'Uniswap V2 Factory',
      source: '@uniswap/sdk-core V2_FACTORY_ADDRESSES',
    });
  if (v3Factory)
    add({
      address: v3Factory,
      protocol: 'uniswap-v3',
      role: 'dex-factory',
      label: 'Uniswap V3 Factory',
      source: '@uniswap/sdk-core V3_CORE_FACTORY_ADDRESSES',
    });
  if (V2_ROUTER_ADDRESSES[chainId])
    add({
      address: V2_ROUTER_ADDRESSES[chainId],
      protocol: 'uniswap-v2',
      role: 'router',
      label: 'Uniswap V2 Router02',
      source: '@uniswap/sdk-core V2_ROUTER_ADDRESSES',
    });
  // The V3 position manager: its position NFTs say which pool a wallet provides liquidity to (never scored themselves)
  if (NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[chainId])
    add({
      address: NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[chainId],
      protocol: 'uniswap-v3',
      role: 'position-manager',
      label: 'Uniswap V3 NonfungiblePositionManager',
      source: '@uniswap/sdk-core NONFUNGIBLE_POSITION_MANAGER_ADDRESSES',
    });
  try {
    add({
      address: SWAP_ROUTER_02_ADDRESSES(chainId),
      protocol: 'uniswap-v3',
      role: 'router',
      label: 'Uniswap SwapRouter02',
      source: '@uniswap/sdk-core SWAP_ROUTER_02_ADDRESSES',
    });
  } catch {
    // no SwapRouter02 on this chain
  }
  if (GOVERNANCE_BRAVO_ADDRESSES[chainId])
    add({
      address: GOVERNANCE_BRAVO_ADDRESSES[chainId],
      protocol: 'uniswap-governance',
      role: 'governor',
      label: 'Uniswap Governor Bravo',
      source: '@uniswap/sdk-core GOVERNANCE_BRAVO_ADDRESSES',
    });
  if (chainId === 1 && UNI_ADDRESSES[chainId])
    add({
      address: UNI_ADDRESSES[chainId],
      protocol: 'uniswap-governance',
      role: 'votes-token',
      label: 'UNI',
      source: '@uniswap/sdk-core UNI_ADDRESSES',
    });
  return { v2Factory, v3Factory };
}
