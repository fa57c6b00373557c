// The installed packages the registry reads its facts from (Aave address book, Uniswap SDKs, EAS deployments,
// Morpho and Balancer deployments), each loaded lazily.
import { createRequire } from 'node:module';
// The Uniswap SDKs' ESM builds import files without extensions, which Node's own loader refuses (tsx forgives it):
// their CommonJS builds load everywhere.
export const requirePackage = createRequire(import.meta.url);
const require = requirePackage;
// The Aave address book and the Uniswap SDK's address tables are read when a chain's registry is first built (or a
// pool checked), not at every start (~0.4 s and ~5 MB of heap); CommonJS builds, like the SDKs below.
let aaveBook: Record<string, unknown> | undefined;
export const aaveAddressBook = (): Record<string, unknown> =>
  (aaveBook ??= require('@bgd-labs/aave-address-book') as Record<string, unknown>);
let uniswapCore: typeof import('@uniswap/sdk-core') | undefined;
export const uniswap = () => (uniswapCore ??= require('@uniswap/sdk-core') as typeof import('@uniswap/sdk-core'));
// The pool SDKs are only needed to check a swap's pool (ingestion): loaded then, not at every start (~0.5 s).
let pairSdk: typeof import('@uniswap/v2-sdk') | undefined;
let poolSdk: typeof import('@uniswap/v3-sdk') | undefined;
export const computePairAddress: typeof import('@uniswap/v2-sdk').computePairAddress = (a) =>
  (pairSdk ??= require('@uniswap/v2-sdk')).computePairAddress(a);
export const computePoolAddress: typeof import('@uniswap/v3-sdk').computePoolAddress = (a) =>
  (poolSdk ??= require('@uniswap/v3-sdk')).computePoolAddress(a);

/** The chain's Uniswap V4 PositionManager (lowercase), from @uniswap/sdk-core. */
export function v4PositionManager(chainId: number): string | undefined {
  return (uniswap().CHAIN_TO_ADDRESSES_MAP as Record<number, { v4PositionManagerAddress?: string }>)[
    chainId
  ]?.v4PositionManagerAddress?.toLowerCase();
}
