// The constants of data/scoring/costs.json and backing.json, the maintained NFT list (nft-collections.json) and the
// established pools (established-pools.json), as the parameters of the features statement (sql.ts); read once by
// ../params.ts.
import { DUST_USD, localCollections, localPools } from '../../ingestion/contracts.js';
import { COSTS, ESTABLISHED_POOLS, LISTED_COLLECTIONS, MODEL_PARAMS } from '../params.js';

export { DUST_USD, COSTS };

const LISTED = LISTED_COLLECTIONS as string[];

/** `${chainId}:${address}` of the maintained collections, and of the local chain's (a demo's, see useLocalRegistry) */
export const listedCollections = (): string[] => (localCollections.length ? [...LISTED, ...localCollections] : LISTED);

const ESTABLISHED = ESTABLISHED_POOLS as string[];

/** `${chainId}:${pool}` of the established pools whose fees back DEFI_TRADING (and a local demo's own pools) */
export const establishedPools = (): string[] => (localPools.length ? [...ESTABLISHED, ...localPools] : ESTABLISHED);

const NATIVE_USD = MODEL_PARAMS.backing.nativeUsd;
/** The chains' reference coin prices as two parallel arrays (chain ids, USD), parameters of the features SQL */
export const NATIVE_PRICES: [number[], number[]] = [Object.keys(NATIVE_USD).map(Number), Object.values(NATIVE_USD)];
