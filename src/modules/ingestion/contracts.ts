// What other modules read of the ingestion module's registry without its service: the scoring features statement's
// parameters (the dust floor, the local demo chain's collections and pools) and the label of a known protocol contract.
export { DUST_USD } from './registry/gate.js';
export { localCollections, localPools, protocolContract } from './registry/index.js';
