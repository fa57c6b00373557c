// The registry of contracts evidence may come from, per supported chain. It combines the installed packages that
// hold these facts (Aave address book, Uniswap SDKs and default token list, EAS deployments) with the reviewed
// data files under data/registry/ (one per chain, every entry with its source). Decode consults it for every
// log, whatever the source (JSON-RPC, ethereum-etl import, explorer): a log from an emitter it does not pin is
// never scored. ./build.ts builds a chain's registry from ./sections/ (one file per protocol source) in a
// fixed order, then the chain file; the first entry of an address wins. API for the sources:
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
//   cTokenInfo(chainId, a)      a cToken of Compound V2 or Moonwell (role 'c-token') with its underlying (cETH: WETH, for valuation).
//   unreadContracts()           the contracts of known lending and trading protocols that are NOT read (unread.json):
//                                 a wallet touching one gets coverage 'partial' (../coverage.ts); unreadCloneFactories()
//                                 and isClonePool() (./clone-pools.ts) recognise the pools of those whose pools are
//                                 clones (Aerodrome).
//   protocolsRead(chainId)      the protocols whose events the chain's registry pins (coverage lists them).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from './build.js';
import { lc } from './builder.js';
import { DATA, STABLE } from './data.js';
import { computePairAddress, computePoolAddress, uniswap } from './packages.js';
import type { ChainRegistry, PinnedContract, Role, TokenInfo } from './types.js';

export type { PinnedContract, Role, TokenInfo } from './types.js';
export { PRICING, wrappedNative, type OracleSettings } from './data.js';
export { aaveAddressBook, v4PositionManager } from './packages.js';

export const REGISTRY_CHAINS = [1, 10, 137, 8453, 42161] as const;
/** The local Hardhat chain id: the only chain an operator-provided entry may pin (demo and tests). */
export const LOCAL_CHAIN_ID = 31337;
/** V3 fee tiers the factory has enabled (the ones a pool can have): tried in turn when a swap's fee is unknown. */
export const V3_FEE_TIERS = [100, 500, 3000, 10000] as const;

const registries = new Map<number, ChainRegistry>();
/** `${chainId}:${address}` of the local chain's listed NFT collections (useLocalRegistry) */
export const localCollections: string[] = [];
/** `${chainId}:${pool}` of the pools a local demo declared: its own world's established pools (their fees back DEFI_TRADING) */
export const localPools: string[] = [];

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

/** A cToken of Compound V2 or a fork of it (role 'c-token'): its underlying (cETH: WETH) and protocol. */
export function cTokenInfo(chainId: number, address: string): { underlying: string; protocol: string } | undefined {
  const c = contractInfo(chainId, address);
  return c?.role === 'c-token' && c.reserve ? { underlying: c.reserve, protocol: c.protocol } : undefined;
}

/** Contracts of known lending and trading protocols that are NOT read (data/registry/unread.json, each with its
 *  source), per chain: a wallet touching one has history its scores do not see (coverage partial). */
const UNREAD = (
  JSON.parse(readFileSync(path.join(DATA, 'unread.json'), 'utf8')) as {
    chains: Record<string, { address: string; protocol: string; kind: 'lending' | 'trading'; clonePoolImplementation?: string }[]>;
  }
).chains;
/** What each unread protocol is (lending or trading), by name: the scores say which category misses it. */
const UNREAD_KINDS: ReadonlyMap<string, 'lending' | 'trading'> = new Map(
  Object.values(UNREAD).flatMap((list) => list.map((c) => [c.protocol, c.kind] as const)),
);
export const unreadKind = (protocol: string): 'lending' | 'trading' | undefined => UNREAD_KINDS.get(protocol);
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
export interface LocalRegistry {
  contracts: Omit<PinnedContract, 'source'>[];
  tokens?: Omit<TokenInfo, 'stable'>[];
  pools?: { address: string; protocol: 'uniswap-v2' | 'uniswap-v3'; token0: string; token1: string; fee?: number }[];
  /** NFT collections the demo lists, as data/scoring/nft-collections.json lists real ones */
  collections?: string[];
}

let local: { chainId: number; entries: LocalRegistry } | null = null;

/** The entries useLocalRegistry was given last (a decoding thread is given them too: etl/thread.ts). */
export const localRegistry = () => local;

export function useLocalRegistry(chainId: number, entries: LocalRegistry): void {
  if (chainId !== LOCAL_CHAIN_ID)
    throw new Error(`operator registry entries are accepted for the local chain ${LOCAL_CHAIN_ID} only, not chain ${chainId}`);
  local = { chainId, entries };
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
