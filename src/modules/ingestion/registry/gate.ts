// Which emitter an event must come from to be evidence, and what an amount is worth. Used by decode for every
// source, so a self-deployed contract emitting Aave, Uniswap, Governor, ENS or EAS events produces nothing.
import type { EventName } from '../events.js';
import { contractInfo, PRICING, tokenInfo, type Role } from './index.js';

/** A Uniswap pool whose address was checked to derive from the factory (see pools.ts). */
export interface PoolInfo {
  protocol: 'uniswap-v2' | 'uniswap-v3';
  token0: string;
  token1: string;
  fee?: number;
}

/** Logs decode dropped and why: reported by imports and syncs, never scored. */
export interface DropCounter {
  /** emitter not in the registry for this event */
  unpinned: number;
  /** swap in a pool that does not derive from the factory, or whose pair could not be established */
  unverifiedPool: number;
  /** swap in a derived pool with a token outside the allowlist */
  unlistedPool: number;
}

export const newDropCounter = (): DropCounter => ({ unpinned: 0, unverifiedPool: 0, unlistedPool: 0 });

/** The role and protocol an event's emitter must have; undefined: any emitter (token transfers). A Transfer is
 *  lending evidence only from an aToken the registry pins (role 'a-token', checked by decode through aTokenInfo) or
 *  from a pinned Comet market (role 'comet': its mints and burns of base balances, checked by decode through
 *  contractInfo): from any other emitter it is a token movement and nothing more. */
const REQUIRED: Partial<Record<EventName, { role: Role; protocols?: string[] }>> = {
  // SparkLend is an Aave V3 deployment of its own: the same events from its own pinned Pool
  AaveSupply: { role: 'lending-pool', protocols: ['aave-v3', 'spark'] },
  AaveBorrow: { role: 'lending-pool', protocols: ['aave-v3', 'spark'] },
  AaveRepay: { role: 'lending-pool', protocols: ['aave-v3', 'spark'] },
  AaveLiquidationCall: { role: 'lending-pool' },
  AaveV2Deposit: { role: 'lending-pool', protocols: ['aave-v2'] },
  AaveV2Borrow: { role: 'lending-pool', protocols: ['aave-v2'] },
  AaveV2Repay: { role: 'lending-pool', protocols: ['aave-v2'] },
  AaveWithdraw: { role: 'lending-pool' },
  CometSupply: { role: 'comet' },
  CometWithdraw: { role: 'comet' },
  CometAbsorbDebt: { role: 'comet' },
  MorphoSupply: { role: 'morpho-blue' },
  MorphoWithdraw: { role: 'morpho-blue' },
  MorphoBorrow: { role: 'morpho-blue' },
  MorphoRepay: { role: 'morpho-blue' },
  MorphoSupplyCollateral: { role: 'morpho-blue' },
  MorphoWithdrawCollateral: { role: 'morpho-blue' },
  MorphoLiquidate: { role: 'morpho-blue' },
  MorphoCreateMarket: { role: 'morpho-blue' },
  CompoundV2Mint: { role: 'c-token' },
  CompoundV2Redeem: { role: 'c-token' },
  CompoundV2Borrow: { role: 'c-token' },
  CompoundV2RepayBorrow: { role: 'c-token' },
  CompoundV2LiquidateBorrow: { role: 'c-token' },
  UniswapV4Initialize: { role: 'v4-pool-manager' },
  UniswapV4Swap: { role: 'v4-pool-manager' },
  UniswapV4ModifyLiquidity: { role: 'v4-pool-manager' },
  BalancerSwap: { role: 'balancer-vault' },
  BalancerPoolBalanceChanged: { role: 'balancer-vault' },
  NpmIncreaseLiquidity: { role: 'position-manager' },
  NpmDecreaseLiquidity: { role: 'position-manager' },
  VoteCast: { role: 'governor' },
  VoteCastWithParams: { role: 'governor' },
  DelegateChanged: { role: 'votes-token' },
  DelegateVotesChanged: { role: 'votes-token' },
  EnsNameRegisteredV1: { role: 'ens-controller' },
  EnsNameRegisteredV2: { role: 'ens-controller' },
  EnsBaseNameRegistered: { role: 'ens-base-registrar' },
  Attested: { role: 'eas' },
};

export type Gate = { ok: true; protocol?: string } | { ok: false; reason: keyof DropCounter };

export function gate(name: EventName, chainId: number, emitter: string, pools?: ReadonlyMap<string, PoolInfo | null>): Gate {
  if (name === 'UniswapV2Swap' || name === 'UniswapV3Swap') {
    const p = pools?.get(emitter);
    const protocol = name === 'UniswapV2Swap' ? 'uniswap-v2' : 'uniswap-v3';
    if (!p || p.protocol !== protocol) return { ok: false, reason: 'unverifiedPool' };
    if (!tokenInfo(chainId, p.token0) || !tokenInfo(chainId, p.token1)) return { ok: false, reason: 'unlistedPool' };
    return { ok: true, protocol };
  }
  const need = REQUIRED[name];
  if (!need) return { ok: true };
  const c = contractInfo(chainId, emitter);
  if (!c || c.role !== need.role || (need.protocols && !need.protocols.includes(c.protocol))) return { ok: false, reason: 'unpinned' };
  return { ok: true, protocol: c.protocol };
}

/**
 * USD value of a raw amount of `token` (decimals from the registry): stablecoins at 1 per unit; another asset at
 * `price` (USD per whole unit, from the oracle at the event's time: see ../pricing/) when one is known; else
 * unvalued (null). A token the registry does not know is never valued, whatever price is handed in.
 */
export function usdValue(
  chainId: number,
  token: string | null | undefined,
  raw: bigint | string | null | undefined,
  price?: number | null,
): number | null {
  if (!token || raw === null || raw === undefined) return null;
  const t = tokenInfo(chainId, token);
  const unit = t?.stable ? 1 : price;
  if (!t || unit === null || unit === undefined || !(unit > 0) || !Number.isFinite(unit)) return null;
  const v = typeof raw === 'bigint' ? raw : BigInt(raw);
  const abs = v < 0n ? -v : v;
  // integer part exactly, then the fraction: no float overflow for 18-decimal amounts
  const scale = 10n ** BigInt(t.decimals);
  return (Number(abs / scale) + Number(abs % scale) / Number(scale)) * unit;
}

export const DUST_USD = PRICING.dustUsd;

/**
 * What an amount of `token` counts for: its USD value where a price is known (usdValue; below dustUsd it earns
 * nothing, see scoring/features/sql.ts); otherwise null
 * (unvalued, a lower fixed weight in the model), except that an unpriced amount below one whole unit of a known
 * asset (1 wei of WETH, 0.001 WBTC...) is dust: 0, below the floor, so a loop of crumbs counts for nothing.
 */
export function evidenceValue(
  chainId: number,
  token: string | null | undefined,
  raw: bigint | string | null | undefined,
  price?: number | null,
): number | null {
  const usd = usdValue(chainId, token, raw, price);
  if (usd !== null || !token || raw === null || raw === undefined) return usd;
  const t = tokenInfo(chainId, token);
  if (!t) return null;
  const v = typeof raw === 'bigint' ? raw : BigInt(raw);
  return (v < 0n ? -v : v) < 10n ** BigInt(t.decimals) ? 0 : null;
}
