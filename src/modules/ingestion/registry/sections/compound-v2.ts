// Compound V2 (Comptroller and cTokens): a reviewed file generated from the protocol's published list (each entry
// names its source).
import type { Builder } from '../builder.js';
import { optionalFile, wrappedNative } from '../data.js';

interface CompoundV2File {
  comptroller: { address: string; fromBlock: number; source: string };
  cTokens: { symbol: string; address: string; underlying?: string; fromBlock: number; source: string }[];
}

/** Compound V2's Comptroller and cTokens from data/registry/compound-v2-<chainId>.json. */
export function addCompoundV2(b: Builder): void {
  const { chainId, add } = b;
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
