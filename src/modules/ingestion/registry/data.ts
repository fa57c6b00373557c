// The reviewed data files the registry reads besides the per-chain ones (data/registry/, data/debt-claims/):
// pricing settings, the wrapped native tokens, and the optional per-protocol files (SparkLend, Compound V2).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../data/registry');

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
export const STABLE = new Set(PRICING.stablecoinSymbols.map((s) => s.toUpperCase()));

/** A data file of data/registry/, or null where it does not exist (the protocol is not on that chain). */
export const optionalFile = <T>(name: string): T | null => {
  try {
    return JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as T;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
};

/** The chain's wrapped native token (data/debt-claims/wrapped-native.json, each with its source): cETH's amounts and
 *  Uniswap V4's native currency (the zero address) are valued as it. */
const WRAPPED = (
  JSON.parse(readFileSync(path.resolve(DATA, '../debt-claims/wrapped-native.json'), 'utf8')) as {
    chains: Record<string, { address: string }>;
  }
).chains;
export const wrappedNative = (chainId: number): string | undefined => WRAPPED[String(chainId)]?.address.toLowerCase();
