// What the sections of ./build.ts add to: one chain's contracts and tokens, each address once (the first wins).
import { STABLE } from './data.js';
import type { PinnedContract, TokenInfo } from './types.js';

export const lc = (a: string) => a.toLowerCase();

export interface Builder {
  chainId: number;
  /** deployment blocks of the chain file's fromBlocks, by lowercase address */
  blocks: Map<string, number>;
  contracts: Map<string, PinnedContract>;
  tokens: Map<string, TokenInfo>;
  add(c: Omit<PinnedContract, 'address' | 'fromBlock'> & { address: string; fromBlock?: number }): void;
  addToken(address: string, symbol: string, decimals: number): void;
}

export function newBuilder(chainId: number, blocks: Map<string, number>): Builder {
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
  return { chainId, blocks, contracts, tokens, add, addToken };
}
