// What the scoring service reads features through: one statement per chunk of wallets. PGlite runs a statement on
// this process's event loop, so its chunks are sized to statements of about 50 ms (requests wait no longer); a
// server takes fixed chunks.
import type { Db } from '../../../platform/db/types.js';
import type { WalletFeatures } from '../contracts.js';
import { chunkSizer, FEATURES_CHUNK, featuresForMany } from './read.js';

export interface FeatureReader {
  /** The features of these wallets, in their order. */
  forMany(addresses: string[]): Promise<WalletFeatures[]>;
}

export function createFeatureReader(db: Db): FeatureReader {
  const chunks = db.kind === 'pglite' ? chunkSizer(50) : FEATURES_CHUNK;
  return {
    forMany: (addresses) =>
      featuresForMany(
        db,
        addresses.map((a) => a.toLowerCase()),
        chunks,
      ),
  };
}
