// Compound V2 and its forks (Comptroller and cTokens): reviewed files generated from each protocol's published list
// (each entry names its source). A fork's markets emit Compound V2's events unchanged, so they are read alike and
// told apart by their protocol.
import type { Builder } from '../builder.js';
import { optionalFile, wrappedNative } from '../data.js';

interface CompoundV2File {
  comptroller: { address: string; fromBlock: number; source: string };
  /** Moonwell: its MultiRewardDistributor, whose DisbursedBorrowerRewards names a borrower in a topic */
  rewardDistributor?: { address: string; fromBlock: number; source: string };
  cTokens: { symbol: string; address: string; underlying?: string; fromBlock: number; source: string }[];
}

/** data/registry/<file>-<chainId>.json: the protocols read as Compound V2 */
const FORKS = [
  { file: 'compound-v2', protocol: 'compound-v2', name: 'Compound V2' },
  { file: 'moonwell', protocol: 'moonwell', name: 'Moonwell' },
];

/** Compound V2's and its forks' Comptrollers and cTokens from data/registry/<protocol>-<chainId>.json. */
export function addCompoundV2(b: Builder): void {
  const { chainId, add } = b;
  for (const { file, protocol, name } of FORKS) {
    const data = optionalFile<CompoundV2File>(`${file}-${chainId}.json`);
    if (!data) continue;
    const { comptroller, rewardDistributor } = data;
    add({ ...comptroller, protocol, role: 'comptroller', label: `${name} Comptroller (Unitroller)` });
    if (rewardDistributor) add({ ...rewardDistributor, protocol, role: 'reward-distributor', label: `${name} MultiRewardDistributor` });
    for (const t of data.cTokens) {
      // cETH's amounts are ether: valued (and priced) as WETH, the same asset
      const reserve = t.underlying || wrappedNative(chainId);
      add({
        address: t.address,
        protocol,
        role: 'c-token',
        label: `${name} ${t.symbol}`,
        fromBlock: t.fromBlock,
        reserve,
        source: t.source,
      });
    }
  }
}
