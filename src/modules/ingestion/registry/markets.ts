// What a singleton's events name only by id: Morpho Blue markets (id -> loan and collateral token) and Uniswap V4
// pools (id -> pool key with its hooks), and Compound V2 exchange rates (cToken -> underlying per cToken, from its
// own Mint and Redeem events). Learned from logs the pinned contracts emitted (CreateMarket, Initialize, Mint,
// Redeem), whatever the source, before those logs are decoded; each key is checked against its id (the id is the
// hash of the key), so a wrong answer cannot name another market. Kept per process (ids are content hashes: they
// never change meaning). decode.ts reads them; a market or pool not learned yet is decoded as unknown (see there).
import { decodeAbiParameters, encodeAbiParameters, keccak256, toFunctionSelector } from 'viem';
import { EVENTS } from '../events.js';
import { contractInfo, v4PositionManager } from './index.js';

export interface MorphoMarket {
  loanToken: string;
  collateralToken: string;
}

export interface V4Pool {
  currency0: string;
  currency1: string;
  /** the key's fee (hundredths of a bip); 0x800000 marks a dynamic fee the hook sets (the Swap event carries it) */
  fee: number;
  tickSpacing: number;
  /** the hooks contract, lowercase (the zero address: none) */
  hooks: string;
}

const topic = (name: string) => EVENTS.find((e) => e.name === name)!.topic0;
const CREATE_MARKET = topic('MorphoCreateMarket');
const INITIALIZE = topic('UniswapV4Initialize');
const C_MINT = topic('CompoundV2Mint');
const C_REDEEM = topic('CompoundV2Redeem');
/** The events learnFromLogs learns from (a thread that decoded an export hands their logs to the importing one). */
export const LEARNED_FROM: ReadonlySet<string> = new Set([CREATE_MARKET, INITIALIZE, C_MINT, C_REDEEM]);

const MAX_ENTRIES = 500_000;
const morpho = new Map<string, MorphoMarket>();
const v4 = new Map<string, V4Pool>();
/** per `${chainId}:${cToken}`: [block, rate (underlying raw x 1e18 per cToken raw)] in block order */
const rates = new Map<string, [number, bigint][]>();
const k = (chainId: number, id: string) => `${chainId}:${id.toLowerCase()}`;
const lc = (s: string) => s.toLowerCase();
const word = (t: string) => `0x${t.slice(26)}`.toLowerCase();

const MARKET_PARAMS = [
  {
    type: 'tuple',
    components: [
      { name: 'loanToken', type: 'address' },
      { name: 'collateralToken', type: 'address' },
      { name: 'oracle', type: 'address' },
      { name: 'irm', type: 'address' },
      { name: 'lltv', type: 'uint256' },
    ],
  },
] as const;
const POOL_KEY = [
  { name: 'currency0', type: 'address' },
  { name: 'currency1', type: 'address' },
  { name: 'fee', type: 'uint24' },
  { name: 'tickSpacing', type: 'int24' },
  { name: 'hooks', type: 'address' },
] as const;

/** Morpho Blue's market id: keccak256 of the ABI-encoded market params. */
export const morphoMarketId = (p: { loanToken: string; collateralToken: string; oracle: string; irm: string; lltv: bigint }) =>
  keccak256(
    encodeAbiParameters(MARKET_PARAMS, [
      p as { loanToken: `0x${string}`; collateralToken: `0x${string}`; oracle: `0x${string}`; irm: `0x${string}`; lltv: bigint },
    ]),
  ).toLowerCase();

/** Uniswap V4's pool id: keccak256 of the ABI-encoded pool key. */
export const v4PoolId = (key: { currency0: string; currency1: string; fee: number; tickSpacing: number; hooks: string }) =>
  keccak256(
    encodeAbiParameters(POOL_KEY, [
      key.currency0 as `0x${string}`,
      key.currency1 as `0x${string}`,
      key.fee,
      key.tickSpacing,
      key.hooks as `0x${string}`,
    ]),
  ).toLowerCase();

const remember = <V>(m: Map<string, V>, key: string, v: V) => {
  if (m.size >= MAX_ENTRIES) m.clear();
  m.set(key, v);
};

/** Learns what the logs say about markets, pools and cToken rates (only from the chain's pinned emitters). */
export function learnFromLogs(
  chainId: number,
  logs: readonly { address: string; topics: string[]; data: string; blockNumber: number }[],
): void {
  for (const l of logs) {
    const t0 = lc(l.topics[0] ?? '');
    if (t0 !== CREATE_MARKET && t0 !== INITIALIZE && t0 !== C_MINT && t0 !== C_REDEEM) continue;
    const role = contractInfo(chainId, l.address)?.role;
    try {
      if (t0 === CREATE_MARKET && role === 'morpho-blue' && l.topics.length === 2) {
        const [p] = decodeAbiParameters(MARKET_PARAMS, l.data as `0x${string}`);
        if (morphoMarketId(p) === lc(l.topics[1]))
          remember(morpho, k(chainId, l.topics[1]), { loanToken: lc(p.loanToken), collateralToken: lc(p.collateralToken) });
      } else if (t0 === INITIALIZE && role === 'v4-pool-manager' && l.topics.length === 4) {
        const [fee, tickSpacing, hooks] = decodeAbiParameters(
          [{ type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
          l.data as `0x${string}`,
        );
        const key = { currency0: word(l.topics[2]), currency1: word(l.topics[3]), fee, tickSpacing, hooks: lc(hooks) };
        if (v4PoolId(key) === lc(l.topics[1])) remember(v4, k(chainId, l.topics[1]), key);
      } else if ((t0 === C_MINT || t0 === C_REDEEM) && role === 'c-token' && l.topics.length === 1) {
        const [, underlying, tokens] = decodeAbiParameters(
          [{ type: 'address' }, { type: 'uint256' }, { type: 'uint256' }],
          l.data as `0x${string}`,
        );
        if (tokens > 0n && underlying > 0n) noteRate(chainId, l.address, l.blockNumber, (underlying * 10n ** 18n) / tokens);
      }
    } catch {
      // not this event's layout: nothing learned
    }
  }
}

function noteRate(chainId: number, cToken: string, block: number, rate: bigint) {
  const key = k(chainId, cToken);
  const list = rates.get(key) ?? [];
  if (!rates.has(key)) {
    if (rates.size >= MAX_ENTRIES) rates.clear();
    rates.set(key, list);
  }
  if (list.some(([b]) => b === block)) return;
  list.push([block, rate]);
  list.sort((a, b) => a[0] - b[0]);
  if (list.length > 10_000) list.splice(0, list.length - 10_000);
}

export const morphoMarket = (chainId: number, id: string): MorphoMarket | undefined => morpho.get(k(chainId, id));
export const v4Pool = (chainId: number, id: string): V4Pool | undefined => v4.get(k(chainId, id));

/**
 * A cToken's exchange rate (underlying raw x 1e18 per cToken raw) at a block: the nearest rate its own Mint or
 * Redeem showed at or before the block, else the nearest after it (a rate only grows, by a few percent a year);
 * undefined when none is known.
 */
/** What this process has learned, for a thread that decodes beside it (etl/thread.ts) to start from. */
export interface LearnedMarkets {
  morpho: [string, MorphoMarket][];
  v4: [string, V4Pool][];
  rates: [string, [number, bigint][]][];
}

export function learnedMarkets(): LearnedMarkets {
  return { morpho: [...morpho], v4: [...v4], rates: [...rates] };
}

export function adoptMarkets(m: LearnedMarkets): void {
  for (const [key, v] of m.morpho) morpho.set(key, v);
  for (const [key, v] of m.v4) v4.set(key, v);
  for (const [key, v] of m.rates) rates.set(key, v);
}

export function cTokenRate(chainId: number, cToken: string, block: number): bigint | undefined {
  const list = rates.get(k(chainId, cToken));
  if (!list?.length) return undefined;
  let best: [number, bigint] | undefined;
  for (const e of list) {
    if (e[0] <= block) best = e;
    else return (best ?? e)[1];
  }
  return best![1];
}

/** For tests and the local chain: a pool key or market learned without a log (still checked against its id). */
export function rememberV4Pool(chainId: number, key: V4Pool): string {
  const id = v4PoolId(key);
  remember(v4, k(chainId, id), { ...key, currency0: lc(key.currency0), currency1: lc(key.currency1), hooks: lc(key.hooks) });
  return id;
}

// JSON-RPC: what the logs of a sync did not teach is asked of the chain. Morpho Blue answers idToMarketParams(id)
// (checked: the answer must hash to the id); a V4 pool's Initialize is asked by its id (topic 1) of the PoolManager.
const ID_TO_MARKET_PARAMS = toFunctionSelector('idToMarketParams(bytes32)');

// A V4 pool's key is also kept by the V4 PositionManager for every pool it ever minted a position in:
// poolKeys(bytes25 of the id), checked against the id like the rest.
const POOL_KEYS = toFunctionSelector('poolKeys(bytes25)');

export type EthCall = (to: string, data: string) => Promise<string>;

/** Resolves the Morpho markets and V4 pools the logs name that are not known yet (JSON-RPC sources). */
export async function resolveIds(chainId: number, logs: readonly { address: string; topics: string[] }[], call: EthCall): Promise<void> {
  const wantMarkets = new Map<string, string>();
  const wantPools = new Map<string, string>();
  for (const l of logs) {
    const role = contractInfo(chainId, l.address)?.role;
    const id = l.topics[1];
    if (!id || id.length !== 66) continue;
    if (role === 'morpho-blue' && !morphoMarket(chainId, id)) wantMarkets.set(lc(id), lc(l.address));
    if (role === 'v4-pool-manager' && lc(l.topics[0] ?? '') !== INITIALIZE && !v4Pool(chainId, id)) wantPools.set(lc(id), lc(l.address));
  }
  {
    for (const [id, morphoAddress] of wantMarkets) {
      try {
        const out = await call(morphoAddress, `${ID_TO_MARKET_PARAMS}${id.slice(2)}`);
        const [loanToken, collateralToken, oracle, irm, lltv] = decodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'uint256' }],
          out as `0x${string}`,
        );
        if (morphoMarketId({ loanToken, collateralToken, oracle, irm, lltv }) === id)
          remember(morpho, k(chainId, id), { loanToken: lc(loanToken), collateralToken: lc(collateralToken) });
      } catch {
        // unknown now (a transient error or no answer): decoded as an unknown market, asked again next time
      }
    }
  }
  const positionManager = v4PositionManager(chainId);
  if (positionManager) {
    for (const id of wantPools.keys()) {
      try {
        const out = await call(positionManager, `${POOL_KEYS}${id.slice(2, 52).padEnd(64, '0')}`);
        const [currency0, currency1, fee, tickSpacing, hooks] = decodeAbiParameters(
          [{ type: 'address' }, { type: 'address' }, { type: 'uint24' }, { type: 'int24' }, { type: 'address' }],
          out as `0x${string}`,
        );
        const key = { currency0: lc(currency0), currency1: lc(currency1), fee, tickSpacing, hooks: lc(hooks) };
        if (v4PoolId(key) === id) remember(v4, k(chainId, id), key);
      } catch {
        // as above
      }
    }
  }
}
