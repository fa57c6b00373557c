// The registry's entry types: a pinned contract, an allowlisted token, and one chain's built registry (./build.ts
// builds a real chain's, useLocalRegistry in ./index.ts the local chain's).

export type Role =
  | 'lending-pool'
  | 'a-token'
  | 'comet'
  | 'c-token'
  | 'comptroller'
  // Moonwell's MultiRewardDistributor: not evidence; its DisbursedBorrowerRewards marks a borrower's transactions
  | 'reward-distributor'
  | 'morpho-blue'
  | 'v4-pool-manager'
  | 'balancer-vault'
  | 'dex-factory'
  | 'router'
  | 'position-manager'
  | 'governor'
  | 'votes-token'
  | 'ens-controller'
  | 'ens-base-registrar'
  | 'eas';

export interface PinnedContract {
  /** lowercase */
  address: string;
  protocol: string;
  role: Role;
  /** a block at or before deployment: eth_getLogs from here misses nothing */
  fromBlock: number;
  label: string;
  /** Comet: its base asset (lowercase), the unit of Supply/Withdraw/AbsorbDebt amounts */
  baseToken?: string;
  /** aToken: its market's pool (lowercase), the contract of the lending rows its transfers make */
  pool?: string;
  /** aToken: the underlying reserve (lowercase), the unit of its Transfer amounts; cToken: its underlying (cETH: WETH) */
  reserve?: string;
  source: string;
}

export interface TokenInfo {
  address: string;
  symbol: string;
  decimals: number;
  /** counted at 1 USD per unit (data/registry/pricing.json) */
  stable: boolean;
}

export interface ChainRegistry {
  contracts: Map<string, PinnedContract>;
  tokens: Map<string, TokenInfo>;
  v2Factory: string | null;
  v3Factory: string | null;
  trustedSchemas: Set<string>;
  trustedAttesters: Set<string>;
  /** local chain only: pools declared by the operator (no factory deployed them) */
  localPools?: Map<string, { token0: string; token1: string; fee?: number; protocol: string }>;
}
