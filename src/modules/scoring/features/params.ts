// The constants of data/scoring/costs.json and backing.json, the maintained NFT list (nft-collections.json) and the
// established pools (established-pools.json), as the parameters of the features statement (sql.ts), read once.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DUST_USD } from '../../ingestion/registry/gate.js';
import { localCollections, localPools } from '../../ingestion/registry/index.js';
import { BACKING } from '../model/backing.js';

export { DUST_USD };

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../data/scoring');
const read = <T>(name: string) => JSON.parse(readFileSync(path.join(DATA, name), 'utf8')) as T;

export const COSTS = read<{
  trading: { unvaluedSwapUsd: number; dayFeeCapUsd: number; dayFeeFloorUsd: number };
  governance: { voteFloorTokens: number; fullPowerTokens: number };
  social: { nativeFloorWei: string };
  nft: { independentHolders: number };
}>('costs.json');

const LISTED: string[] = read<{ collections: { chainId: number; address: string }[] }>('nft-collections.json').collections.map(
  (c) => `${c.chainId}:${c.address.toLowerCase()}`,
);

/** `${chainId}:${address}` of the maintained collections, and of the local chain's (a demo's, see useLocalRegistry) */
export const listedCollections = (): string[] => (localCollections.length ? [...LISTED, ...localCollections] : LISTED);

const ESTABLISHED: string[] = read<{ pools: { chainId: number; address: string }[] }>('established-pools.json').pools.map(
  (p) => `${p.chainId}:${p.address.toLowerCase()}`,
);

/** `${chainId}:${pool}` of the established pools whose fees back DEFI_TRADING (and a local demo's own pools) */
export const establishedPools = (): string[] => (localPools.length ? [...ESTABLISHED, ...localPools] : ESTABLISHED);

/** The chains' reference coin prices as two parallel arrays (chain ids, USD), parameters of the features SQL */
export const NATIVE_PRICES: [number[], number[]] = [Object.keys(BACKING.nativeUsd).map(Number), Object.values(BACKING.nativeUsd)];
