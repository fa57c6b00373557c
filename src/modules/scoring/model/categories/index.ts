// The eight independent categories. Each is a sum of bounded, monotone terms (saturating counts, logarithmic USD
// values): the conduct score. An activity category's positive points are then held to what its backing supports
// (backing.ts: what the wallet lost and cannot get back; cost-ceiling.ts: the curve). Each result carries both, so
// a lender can set its own policy. Features come only from the registry's pinned contracts, by value, with
// self-dealing removed (ingestion). docs/scoring-model.md explains every term; data/scoring/model.json holds its
// constants.
export { lending } from './lending.js';
export { trading } from './trading.js';
export { governance } from './governance.js';
export { nft } from './nft.js';
export { identity } from './identity.js';
export { social } from './social.js';
export { developer } from './developer.js';
export { compliance } from './compliance.js';
export { UNVALUED_EVENT_USD, type ModelSignals } from './shared.js';
export { claimsKey } from '../debt-claims.js';
