// The price source of non-stable assets at ingestion: Aave V3's own oracle (AaveOracle.getAssetPrice(asset), USD
// with 8 decimals) of one market per chain, named in data/registry/pricing.json; its address and the reserves it
// prices come from @bgd-labs/aave-address-book. Only an asset that the registry knows (with its decimals), that is
// not a stablecoin (those count at 1) and that is a reserve of that market is ever asked about: a token anyone
// deployed is never priced, whatever a contract would answer for it.
import { aaveAddressBook, PRICING, tokenInfo } from '../registry/index.js';

const CONFIG = PRICING.oracle;

export interface OracleInfo {
  chainId: number;
  /** the address book's market name, e.g. AaveV3Ethereum */
  market: string;
  /** lowercase */
  address: string;
  /** the market's reserves (lowercase underlying addresses): the only assets asked about */
  reserves: ReadonlySet<string>;
  /** one read per asset per bucket of this many blocks, at its first block */
  bucketBlocks: number;
  decimals: number;
  maxUsdPerUnit: number;
}

const oracles = new Map<number, OracleInfo | null>();

export function oracleFor(chainId: number): OracleInfo | undefined {
  if (!oracles.has(chainId)) {
    const market = CONFIG.markets[String(chainId)];
    const m = market
      ? (aaveAddressBook()[market] as { CHAIN_ID?: number; ORACLE?: string; ASSETS?: Record<string, { UNDERLYING: string }> } | undefined)
      : undefined;
    const ok = m && m.CHAIN_ID === chainId && m.ORACLE && /^0x[0-9a-fA-F]{40}$/.test(m.ORACLE);
    oracles.set(
      chainId,
      ok
        ? {
            chainId,
            market,
            address: m.ORACLE!.toLowerCase(),
            reserves: new Set(Object.values(m.ASSETS ?? {}).map((a) => a.UNDERLYING.toLowerCase())),
            bucketBlocks: Math.max(1, CONFIG.bucketBlocks[String(chainId)] ?? 1),
            decimals: CONFIG.decimals,
            maxUsdPerUnit: CONFIG.maxUsdPerUnit,
          }
        : null,
    );
  }
  return oracles.get(chainId) ?? undefined;
}

/** Whether the oracle may be asked about `token` on this chain (see the top of this file). */
export function priceable(chainId: number, token: string): boolean {
  const o = oracleFor(chainId);
  const t = tokenInfo(chainId, token);
  return !!o && !!t && !t.stable && o.reserves.has(token.toLowerCase());
}

/** The block a price of an event at `block` is read at: the first block of its bucket (never after the event). */
export const priceBlock = (o: OracleInfo, block: number) => block - (block % o.bucketBlocks);
