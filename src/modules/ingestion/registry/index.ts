// The registry of contracts evidence may come from, per supported chain. It combines the installed packages that
// hold these facts (Aave address book, Uniswap SDKs and default token list, EAS deployments) with the reviewed
// data files under data/registry/ (one per chain, every entry with its source). Decode consults it for every
// log, whatever the source (JSON-RPC, ethereum-etl import, explorer): a log from an emitter it does not pin is
// never scored. API for the sources:
//   pinnedContracts(chainId)  the fixed emitters to ask eth_getLogs for (address lowercase, fromBlock);
//                             Uniswap pools are not listed (there are millions): swap logs are asked by topic and
//                             kept only when poolDerives() says the pool is the factory's CREATE2 address.
//   isPinned(chainId, address) / contractInfo(chainId, address)
//   poolDerives(chainId, protocol, pool, token0, token1, fee?)
//   tokenInfo(chainId, address)  allowlisted token with decimals and whether it counts at 1 USD.
//   isPositionManager(chainId, a) the Uniswap V3 NonfungiblePositionManager (its position NFTs mark a wallet's own
//                                 liquidity, see ../positions.ts; they are never NFT evidence).
//   aTokenInfo(chainId, a)      an Aave V2/V3 or SparkLend aToken/spToken (role 'a-token'), with its market's pool and
//                                 underlying reserve: a Transfer between two holders moves collateral (../decode.ts).
//   cTokenInfo(chainId, a)      a Compound V2 cToken (role 'c-token') with its underlying (cETH: WETH, for valuation).
//   unreadContracts()           the contracts of known lending and trading protocols that are NOT read (unread.json):
//                                 a wallet touching one gets coverage 'partial' (../coverage.ts); unreadCloneFactories()
//                                 and isClonePool() recognise the pools of those whose pools are clones (Aerodrome).
//   protocolsRead(chainId)      the protocols whose events the chain's registry pins (coverage lists them).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodePacked, getContractAddress, keccak256 } from 'viem';
// The Uniswap SDKs' ESM builds import files without extensions, which Node's own loader refuses (tsx forgives it):
// their CommonJS builds load everywhere.
const require = createRequire(import.meta.url);
// Morpho Blue's singleton per chain (getChainAddresses(chainId).morpho) and Balancer V2's Vault (task 20210418-vault)
// come from their maintainers' packages; both are read lazily (CommonJS builds, see above).
type MorphoSdk = { getChainAddresses(chainId: number): { morpho?: string } };
type BalancerDeployments = { getBalancerContractAddress(task: string, contract: string, network: string): string };
// The Aave address book and the Uniswap SDK's address tables are read when a chain's registry is first built (or a
// pool checked), not at every start (~0.4 s and ~5 MB of heap); CommonJS builds, like the SDKs below.
let aaveBook: Record<string, unknown> | undefined;
export const aaveAddressBook = (): Record<string, unknown> =>
  (aaveBook ??= require('@bgd-labs/aave-address-book') as Record<string, unknown>);
let uniswapCore: typeof import('@uniswap/sdk-core') | undefined;
const uniswap = () => (uniswapCore ??= require('@uniswap/sdk-core') as typeof import('@uniswap/sdk-core'));
// The pool SDKs are only needed to check a swap's pool (ingestion): loaded then, not at every start (~0.5 s).
let pairSdk: typeof import('@uniswap/v2-sdk') | undefined;
let poolSdk: typeof import('@uniswap/v3-sdk') | undefined;
const computePairAddress: typeof import('@uniswap/v2-sdk').computePairAddress = (a) =>
  (pairSdk ??= require('@uniswap/v2-sdk')).computePairAddress(a);
const computePoolAddress: typeof import('@uniswap/v3-sdk').computePoolAddress = (a) =>
  (poolSdk ??= require('@uniswap/v3-sdk')).computePoolAddress(a);
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../data/registry');

export const REGISTRY_CHAINS = [1, 10, 137, 8453, 42161] as const;
/** The local Hardhat chain id: the only chain an operator-provided entry may pin (demo and tests). */
export const LOCAL_CHAIN_ID = 31337;

export type Role =
  | 'lending-pool'
  | 'a-token'
  | 'comet'
  | 'c-token'
  | 'comptroller'
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

interface ChainFile {
  chainId: number;
  contracts: {
    address: string;
    protocol: string;
    role: Role;
    label: string;
    fromBlock: number;
    baseToken?: string;
    pool?: string;
    reserve?: string;
    source: string;
  }[];
  fromBlocks?: Record<string, { fromBlock: number; source: string } | string>;
  eas?: { trustedSchemas: { uid: string }[]; trustedAttesters: { address: string }[] };
}

/** The oracle section of pricing.json: read by ../pricing/oracle.ts. */
export interface OracleSettings {
  markets: Record<string, string>;
  decimals: number;
  maxUsdPerUnit: number;
  bucketBlocks: Record<string, number>;
}
export const PRICING = JSON.parse(readFileSync(path.join(DATA, 'pricing.json'), 'utf8')) as {
  stablecoinSymbols: string[];
  dustUsd: number;
  oracle: OracleSettings;
};
const STABLE = new Set(PRICING.stablecoinSymbols.map((s) => s.toUpperCase()));
/** V3 fee tiers the factory has enabled (the ones a pool can have): tried in turn when a swap's fee is unknown. */
export const V3_FEE_TIERS = [100, 500, 3000, 10000] as const;

interface ChainRegistry {
  contracts: Map<string, PinnedContract>;
  tokens: Map<string, TokenInfo>;
  v2Factory: string | null;
  v3Factory: string | null;
  trustedSchemas: Set<string>;
  trustedAttesters: Set<string>;
  /** local chain only: pools declared by the operator (no factory deployed them) */
  localPools?: Map<string, { token0: string; token1: string; fee?: number; protocol: string }>;
}

const registries = new Map<number, ChainRegistry>();
/** `${chainId}:${address}` of the local chain's listed NFT collections (useLocalRegistry) */
export const localCollections: string[] = [];
/** `${chainId}:${pool}` of the pools a local demo declared: its own world's established pools (their fees back DEFI_TRADING) */
export const localPools: string[] = [];
const lc = (a: string) => a.toLowerCase();

/** What the sections of build() add to: the chain's contracts and tokens, each address once (the first wins). */
interface Builder {
  chainId: number;
  blocks: Map<string, number>;
  contracts: Map<string, PinnedContract>;
  add(c: Omit<PinnedContract, 'address' | 'fromBlock'> & { address: string; fromBlock?: number }): void;
  addToken(address: string, symbol: string, decimals: number): void;
}

/** Aave V2/V3 pools, their reserves and aTokens (see the comment inside). */
function addAave(b: Builder): void {
  const { chainId, add, addToken, contracts, blocks } = b;
  // Aave V2/V3 pools (every market of the address book on this chain), their reserves' decimals and their aTokens:
  // a position is the wallet's aTokens, so one sent to another wallet is collateral leaving it (no Withdraw names
  // it). An aToken is deployed by its pool's configurator after the pool: the pool's fromBlock bounds it.
  for (const [name, market] of Object.entries(aaveAddressBook())) {
    const m = market as {
      CHAIN_ID?: number;
      POOL?: string;
      ASSETS?: Record<string, { UNDERLYING: string; decimals: number; A_TOKEN?: string }>;
    };
    const v = /^AaveV([23])[A-Z]/.exec(name)?.[1];
    if (!v || m?.CHAIN_ID !== chainId || !m.POOL) continue;
    add({
      address: m.POOL,
      protocol: `aave-v${v}`,
      role: 'lending-pool',
      label: `${name} Pool`,
      source: `@bgd-labs/aave-address-book ${name}.POOL`,
    });
    const pool = contracts.get(lc(m.POOL))!;
    for (const [sym, asset] of Object.entries(m.ASSETS ?? {})) {
      addToken(asset.UNDERLYING, sym, asset.decimals);
      if (asset.A_TOKEN && pool.role === 'lending-pool')
        add({
          address: asset.A_TOKEN,
          protocol: pool.protocol,
          role: 'a-token',
          label: `${name} a${sym}`,
          fromBlock: blocks.get(lc(asset.A_TOKEN)) ?? pool.fromBlock,
          pool: pool.address,
          reserve: asset.UNDERLYING,
          source: `@bgd-labs/aave-address-book ${name}.ASSETS.${sym}.A_TOKEN`,
        });
    }
  }
}

/** Uniswap V2/V3: factories (pools derive from them), routers (labelled, never scored), UNI and its governor. */
function addUniswap(b: Builder): { v2Factory: string | null; v3Factory: string | null } {
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

/** EAS, from its deployment files. */
function addEas(b: Builder): void {
  const { chainId, add } = b;
  const easDir = { 1: 'mainnet', 10: 'optimism', 137: 'polygon', 8453: 'base', 42161: 'arbitrum-one' }[chainId as 1];
  if (easDir) {
    const d = require(`@ethereum-attestation-service/eas-contracts/deployments/${easDir}/EAS.json`) as {
      address: string;
      receipt?: { blockNumber?: number };
    };
    add({
      address: d.address,
      protocol: 'eas',
      role: 'eas',
      label: 'EAS',
      // the OP-stack predeploys (0x42..21) have no receipt: their block is in the chain file's fromBlocks
      fromBlock: d.receipt?.blockNumber,
      source: `@ethereum-attestation-service/eas-contracts deployments/${easDir}/EAS.json`,
    });
  }
}

/** Uniswap V4's PoolManager and PositionManager. */
function addUniswapV4(b: Builder): void {
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

/** Morpho Blue's singleton and its deployment block. */
function addMorpho(b: Builder): void {
  const { chainId, add } = b;
  // Morpho Blue: the singleton holds every market (by id); its events carry the assets moved
  let morpho: string | undefined;
  try {
    morpho = (require('@morpho-org/blue-sdk') as MorphoSdk).getChainAddresses(chainId).morpho;
  } catch {
    morpho = undefined; // the SDK does not know this chain
  }
  // its deployment block from the same SDK: a first sync reads its logs from there, not from block 0
  let morphoFrom: number | undefined;
  try {
    const at = (require('@morpho-org/blue-sdk') as { deployments?: Record<number, { morpho?: bigint | number }> }).deployments?.[chainId]
      ?.morpho;
    morphoFrom = at === undefined ? undefined : Number(at);
  } catch {
    morphoFrom = undefined;
  }
  if (morpho)
    add({
      address: morpho,
      protocol: 'morpho-blue',
      role: 'morpho-blue',
      label: 'Morpho Blue',
      fromBlock: morphoFrom,
      source: '@morpho-org/blue-sdk getChainAddresses(chainId).morpho, deployments[chainId].morpho (block)',
    });
}

/** Balancer V2's Vault. */
function addBalancer(b: Builder): void {
  const { chainId, add } = b;
  // Balancer V2: the Vault emits every pool's Swap (poolId)
  const network = BALANCER_NETWORK[chainId];
  if (network) {
    try {
      const vault = (require('@balancer-labs/v2-deployments') as BalancerDeployments).getBalancerContractAddress(
        '20210418-vault',
        'Vault',
        network,
      );
      if (vault)
        add({
          address: vault,
          protocol: 'balancer-v2',
          role: 'balancer-vault',
          label: 'Balancer V2 Vault',
          source: `@balancer-labs/v2-deployments 20210418-vault Vault (${network})`,
        });
    } catch {
      // the package has no Vault deployment for this network
    }
  }
}

/** SparkLend and Compound V2 from their reviewed files. */
function addSparkAndCompound(b: Builder): void {
  const { chainId, add } = b;
  // SparkLend (an Aave V3 deployment of Spark's own) and Compound V2 (Comptroller and cTokens): reviewed files
  // generated from the protocols' published lists (each entry names its source)
  const spark = optionalFile<SparkFile>(`spark-${chainId}.json`);
  if (spark) {
    add({
      address: spark.pool.address,
      protocol: 'spark',
      role: 'lending-pool',
      label: spark.pool.label,
      fromBlock: spark.pool.fromBlock,
      source: spark.pool.source,
    });
    const pool = lc(spark.pool.address);
    for (const t of spark.spTokens)
      add({
        address: t.address,
        protocol: 'spark',
        role: 'a-token',
        label: `SparkLend sp${t.symbol}`,
        fromBlock: spark.pool.fromBlock,
        pool,
        reserve: t.reserve,
        source: t.source,
      });
  }
  const compound = optionalFile<CompoundV2File>(`compound-v2-${chainId}.json`);
  if (compound) {
    add({
      address: compound.comptroller.address,
      protocol: 'compound-v2',
      role: 'comptroller',
      label: 'Compound V2 Comptroller (Unitroller)',
      fromBlock: compound.comptroller.fromBlock,
      source: compound.comptroller.source,
    });
    for (const t of compound.cTokens) {
      // cETH's amounts are ether: valued (and priced) as WETH, the same asset
      const reserve = t.underlying || wrappedNative(chainId);
      add({
        address: t.address,
        protocol: 'compound-v2',
        role: 'c-token',
        label: `Compound V2 ${t.symbol}`,
        fromBlock: t.fromBlock,
        reserve,
        source: t.source,
      });
    }
  }
}

function build(chainId: number): ChainRegistry {
  const file = JSON.parse(readFileSync(path.join(DATA, `${chainId}.json`), 'utf8')) as ChainFile;
  const blocks = new Map(
    Object.entries(file.fromBlocks ?? {})
      .filter(([k]) => k.startsWith('0x'))
      .map(([k, v]) => [lc(k), typeof v === 'string' ? 0 : v.fromBlock]),
  );
  const contracts = new Map<string, PinnedContract>();
  const add = (c: Omit<PinnedContract, 'address' | 'fromBlock'> & { address: string; fromBlock?: number }) => {
    const address = lc(c.address);
    if (!contracts.has(address))
      contracts.set(address, {
        ...c,
        address,
        fromBlock: c.fromBlock ?? blocks.get(address) ?? 0,
        baseToken: c.baseToken ? lc(c.baseToken) : undefined,
        pool: c.pool ? lc(c.pool) : undefined,
        reserve: c.reserve ? lc(c.reserve) : undefined,
      });
  };
  const tokens = new Map<string, TokenInfo>();
  const addToken = (address: string, symbol: string, decimals: number) => {
    const a = lc(address);
    if (!tokens.has(a)) tokens.set(a, { address: a, symbol, decimals, stable: STABLE.has(symbol.toUpperCase()) });
  };

  const b: Builder = { chainId, blocks, contracts, add, addToken };
  addAave(b);
  const { v2Factory, v3Factory } = addUniswap(b);
  addEas(b);
  addUniswapV4(b);
  addMorpho(b);
  addBalancer(b);
  addSparkAndCompound(b);
  // The reviewed data file: what no package holds.
  for (const c of file.contracts) add(c);
  // The trading allowlist: the Uniswap default token list.
  const list = require('@uniswap/default-token-list') as {
    tokens: { chainId: number; address: string; symbol: string; decimals: number }[];
  };
  for (const t of list.tokens) if (t.chainId === chainId) addToken(t.address, t.symbol, t.decimals);

  return {
    contracts,
    tokens,
    v2Factory,
    v3Factory,
    trustedSchemas: new Set((file.eas?.trustedSchemas ?? []).map((s) => lc(s.uid))),
    trustedAttesters: new Set((file.eas?.trustedAttesters ?? []).map((s) => lc(s.address))),
  };
}

interface SparkFile {
  pool: { address: string; label: string; fromBlock: number; source: string };
  spTokens: { symbol: string; address: string; reserve: string; source: string }[];
}
interface CompoundV2File {
  comptroller: { address: string; fromBlock: number; source: string };
  cTokens: { symbol: string; address: string; underlying?: string; fromBlock: number; source: string }[];
}
const optionalFile = <T>(name: string): T | null => {
  try {
    return JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
};
/** Network names of @balancer-labs/v2-deployments (it has no Base deployment of the V2 Vault) */
const BALANCER_NETWORK: Record<number, string> = { 1: 'mainnet', 10: 'optimism', 137: 'polygon', 42161: 'arbitrum' };
/** The chain's wrapped native token (data/debt-claims/wrapped-native.json, each with its source): cETH's amounts and
 *  Uniswap V4's native currency (the zero address) are valued as it. */
const WRAPPED = (
  JSON.parse(readFileSync(path.resolve(DATA, '../debt-claims/wrapped-native.json'), 'utf8')) as {
    chains: Record<string, { address: string }>;
  }
).chains;
export const wrappedNative = (chainId: number): string | undefined => WRAPPED[String(chainId)]?.address.toLowerCase();

function registry(chainId: number): ChainRegistry | undefined {
  let r = registries.get(chainId);
  if (!r && (REGISTRY_CHAINS as readonly number[]).includes(chainId)) {
    r = build(chainId);
    registries.set(chainId, r);
  }
  return r;
}

/** The fixed emitters of a chain (no Uniswap pools: see poolDerives), for eth_getLogs by address. */
export function pinnedContracts(chainId: number): Array<{ address: string; protocol: string; role: string; fromBlock: number }> {
  return [...(registry(chainId)?.contracts.values() ?? [])].map(({ address, protocol, role, fromBlock }) => ({
    address,
    protocol,
    role,
    fromBlock,
  }));
}

export function contractInfo(chainId: number, address: string): PinnedContract | undefined {
  return registry(chainId)?.contracts.get(lc(address));
}

/** An Aave aToken of the chain (role 'a-token'): its market's pool, underlying reserve and protocol. */
export function aTokenInfo(chainId: number, address: string): { pool: string; reserve: string; protocol: string } | undefined {
  const c = contractInfo(chainId, address);
  return c?.role === 'a-token' && c.pool && c.reserve ? { pool: c.pool, reserve: c.reserve, protocol: c.protocol } : undefined;
}

/** The chain's Uniswap V4 PositionManager (lowercase), from @uniswap/sdk-core. */
export function v4PositionManager(chainId: number): string | undefined {
  return (uniswap().CHAIN_TO_ADDRESSES_MAP as Record<number, { v4PositionManagerAddress?: string }>)[
    chainId
  ]?.v4PositionManagerAddress?.toLowerCase();
}

/** A Compound V2 cToken of the chain (role 'c-token'): its underlying (cETH: WETH). */
export function cTokenInfo(chainId: number, address: string): { underlying: string } | undefined {
  const c = contractInfo(chainId, address);
  return c?.role === 'c-token' && c.reserve ? { underlying: c.reserve } : undefined;
}

/** Contracts of known lending and trading protocols that are NOT read (data/registry/unread.json, each with its
 *  source), per chain: a wallet touching one has history its scores do not see (coverage partial). */
const UNREAD = (
  JSON.parse(readFileSync(path.join(DATA, 'unread.json'), 'utf8')) as {
    chains: Record<string, { address: string; protocol: string; clonePoolImplementation?: string }[]>;
  }
).chains;
export function unreadContracts(): { chainId: number; address: string; protocol: string }[] {
  return Object.entries(UNREAD).flatMap(([chainId, list]) =>
    list.map((c) => ({ chainId: Number(chainId), address: lc(c.address), protocol: c.protocol })),
  );
}

/** The unread factories whose pools are EIP-1167 clones at a CREATE2 address of (token0, token1, stable): Aerodrome
 *  and Velodrome V2 (unread.json `clonePoolImplementation`). A token-to-token swap there sends the tokens to the pool,
 *  never to a listed contract: the pool is recognised by deriving it (unreadClonePool). */
export function unreadCloneFactories(): { chainId: number; factory: string; implementation: string; protocol: string }[] {
  return Object.entries(UNREAD).flatMap(([chainId, list]) =>
    list
      .filter((c) => c.clonePoolImplementation)
      .map((c) => ({
        chainId: Number(chainId),
        factory: lc(c.address),
        implementation: lc(c.clonePoolImplementation!),
        protocol: c.protocol,
      })),
  );
}

/** Whether `pool` is the pool an unread clone factory deploys for this token pair (stable or volatile). */
export function isClonePool(f: { factory: string; implementation: string }, pool: string, tokenA: string, tokenB: string): boolean {
  const [a, b] = [lc(tokenA), lc(tokenB)];
  if (a === b || !/^0x[0-9a-f]{40}$/.test(a) || !/^0x[0-9a-f]{40}$/.test(b)) return false;
  const [t0, t1] = a < b ? [a, b] : [b, a];
  // OpenZeppelin Clones: the EIP-1167 proxy's creation code around the implementation
  const bytecode = `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${f.implementation.slice(2)}5af43d82803e903d91602b57fd5bf3` as const;
  return [false, true].some(
    (stable) =>
      lc(
        getContractAddress({
          opcode: 'CREATE2',
          from: f.factory as `0x${string}`,
          salt: keccak256(encodePacked(['address', 'address', 'bool'], [t0 as `0x${string}`, t1 as `0x${string}`, stable])),
          bytecode,
        }),
      ) === lc(pool),
  );
}

/** The protocols whose events the chain's registry pins, sorted (what coverage says is read). */
export function protocolsRead(chainId: number): string[] {
  const r = registry(chainId);
  if (!r) return [];
  // every coverage read lists them: computed once per registry (a local one may replace the chain's)
  let list = protocolsOf.get(r);
  if (!list)
    protocolsOf.set(
      r,
      (list = [...new Set([...r.contracts.values()].filter((c) => READ_ROLES.has(c.role)).map((c) => c.protocol))].sort()),
    );
  return [...list];
}
const READ_ROLES = new Set<Role>(['lending-pool', 'comet', 'c-token', 'morpho-blue', 'v4-pool-manager', 'balancer-vault', 'dex-factory']);
const protocolsOf = new WeakMap<ChainRegistry, string[]>();

/** Whether `address` is the chain's pinned Uniswap V3 NonfungiblePositionManager. */
export function isPositionManager(chainId: number, address: string): boolean {
  return contractInfo(chainId, address)?.role === 'position-manager';
}

export function isPinned(chainId: number, address: string): boolean {
  return registry(chainId)?.contracts.has(lc(address)) ?? false;
}

/** A registry contract on any supported chain (routers, pools, governors...): labelled `contract`, never scored. */
export function protocolContract(address: string): PinnedContract | undefined {
  for (const id of [...REGISTRY_CHAINS, LOCAL_CHAIN_ID]) {
    const c = registry(id)?.contracts.get(lc(address));
    if (c) return c;
  }
  return undefined;
}

export function tokenInfo(chainId: number, address: string): TokenInfo | undefined {
  return registry(chainId)?.tokens.get(lc(address));
}

/** An attestation earns credit only from a trusted attester, under one of the trusted schemas where the chain
 *  lists any: a schema UID is public, so anyone could attest under Coinbase's schema; only Coinbase's attester
 *  attests for Coinbase. */
export function easTrust(chainId: number, attester: string, schema: string): boolean {
  const r = registry(chainId);
  return !!r && r.trustedAttesters.has(lc(attester)) && (r.trustedSchemas.size === 0 || r.trustedSchemas.has(lc(schema)));
}

/** Whether `pool` is the address the chain's Uniswap factory deploys for this pair (and fee, for V3). */
export function poolDerives(chainId: number, protocol: string, pool: string, token0: string, token1: string, fee?: number): boolean {
  const r = registry(chainId);
  if (!r || lc(token0) === lc(token1)) return false;
  if (r.localPools) {
    const p = r.localPools.get(lc(pool));
    const pair = [lc(token0), lc(token1)].sort();
    return !!p && p.protocol === protocol && p.token0 === pair[0] && p.token1 === pair[1] && (protocol === 'uniswap-v2' || p.fee === fee);
  }
  const { Token } = uniswap();
  const a = new Token(chainId, token0, 18);
  const b = new Token(chainId, token1, 18);
  try {
    if (protocol === 'uniswap-v2' && r.v2Factory)
      return lc(computePairAddress({ factoryAddress: r.v2Factory, tokenA: a, tokenB: b })) === lc(pool);
    if (protocol === 'uniswap-v3' && r.v3Factory && fee !== undefined)
      return lc(computePoolAddress({ factoryAddress: r.v3Factory, tokenA: a, tokenB: b, fee })) === lc(pool);
  } catch {
    return false; // malformed token address
  }
  return false;
}

/**
 * Operator-provided entries for the local Hardhat chain (31337) only, so a local demo can pin its own mocks.
 * Refused for every real chain: those are pinned by the reviewed files alone.
 */
export function useLocalRegistry(
  chainId: number,
  entries: {
    contracts: Omit<PinnedContract, 'source'>[];
    tokens?: Omit<TokenInfo, 'stable'>[];
    pools?: { address: string; protocol: 'uniswap-v2' | 'uniswap-v3'; token0: string; token1: string; fee?: number }[];
    /** NFT collections the demo lists, as data/scoring/nft-collections.json lists real ones */
    collections?: string[];
  },
): void {
  if (chainId !== LOCAL_CHAIN_ID)
    throw new Error(`operator registry entries are accepted for the local chain ${LOCAL_CHAIN_ID} only, not chain ${chainId}`);
  localCollections.splice(0, localCollections.length, ...(entries.collections ?? []).map((a) => `${chainId}:${lc(a)}`));
  localPools.splice(0, localPools.length, ...(entries.pools ?? []).map((p) => `${chainId}:${lc(p.address)}`));
  const tokens = new Map(
    (entries.tokens ?? []).map((t) => [lc(t.address), { ...t, address: lc(t.address), stable: STABLE.has(t.symbol.toUpperCase()) }]),
  );
  const contracts = new Map<string, PinnedContract>(
    entries.contracts.map((c) => [
      lc(c.address),
      {
        ...c,
        address: lc(c.address),
        baseToken: c.baseToken && lc(c.baseToken),
        pool: c.pool && lc(c.pool),
        reserve: c.reserve && lc(c.reserve),
        source: 'operator (local chain)',
      },
    ]),
  );
  // No factory deployed the declared pools: one 'dex-factory' entry per protocol (at its first pool) tells the
  // JSON-RPC plan to ask for that protocol's swaps; poolDerives checks the declared list.
  for (const protocol of ['uniswap-v2', 'uniswap-v3'] as const) {
    const first = entries.pools?.find((p) => p.protocol === protocol);
    if (first)
      contracts.set(lc(first.address), {
        address: lc(first.address),
        protocol,
        role: 'dex-factory',
        label: `local ${protocol} pools (declared)`,
        fromBlock: 0,
        source: 'operator (local chain)',
      });
  }
  registries.set(chainId, {
    contracts,
    tokens,
    v2Factory: null,
    v3Factory: null,
    trustedSchemas: new Set(),
    trustedAttesters: new Set(),
    localPools: new Map(
      (entries.pools ?? []).map((p) => {
        const [token0, token1] = [lc(p.token0), lc(p.token1)].sort();
        return [lc(p.address), { protocol: p.protocol, token0, token1, fee: p.fee }];
      }),
    ),
  });
}
