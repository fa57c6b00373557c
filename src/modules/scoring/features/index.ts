// The scoring model's inputs: features read from the activity table (what other modules may use of this folder).
export { chunkSizer, FEATURES_CHUNK, featuresFor, featuresForMany, featuresParams, poolLabel, type ChunkSizer } from './read.js';
export { FEATURES_MANY_SQL } from './sql.js';
export { createFeatureReader, type FeatureReader } from './reader.js';
export { COSTS } from './params.js';
