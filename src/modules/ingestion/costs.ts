// What a point of score costs (model 3.0.0): the constants of data/scoring/costs.json and the maintained NFT list of
// data/scoring/nft-collections.json, as the parameters of the features SQL (repo.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localCollections } from './registry/index.js';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../data/scoring');
const read = <T>(name: string) => JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as T;

export const COSTS = read<{
  trading: { unvaluedSwapUsd: number; dayFeeCapUsd: number; dayFeeFloorUsd: number };
  governance: { voteFloorTokens: number; fullPowerTokens: number; tokenUsd: Record<string, number>; firstVoteDays: number; maxGapDays: number; delegationMaxDays: number };
  social: { nativeFloorWei: string };
  nft: { independentHolders: number };
}>('costs.json');

const LISTED: string[] = read<{ collections: { chainId: number; address: string }[] }>('nft-collections.json').collections.map((c) => `${c.chainId}:${c.address.toLowerCase()}`);

/** `${chainId}:${address}` of the maintained collections, and of the local chain's (a demo's, see useLocalRegistry) */
export const listedCollections = (): string[] => (localCollections.length ? [...LISTED, ...localCollections] : LISTED);

/** The governors' reference vote-token prices as two parallel arrays (protocols, USD), parameters of the features SQL */
export const GOVERNANCE_PRICES: [string[], number[]] = [Object.keys(COSTS.governance.tokenUsd), Object.values(COSTS.governance.tokenUsd)];
