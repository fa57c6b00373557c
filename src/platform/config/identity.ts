// DIDs and verifiable credentials: the issuer's key, where issued credentials are pinned, keyless DID resolution.
import { hexKey, int, url, type Env } from './env.js';

export interface IdentitySettings {
  /** unset: generated into the data dir */
  issuerKey: string | null;
  ipfsApi: string | null;
  /** Requests per second per client IP at the Universal Resolver driver path /1.0/identifiers/{did}. */
  didResolverRateLimit: number;
}

export function identitySettings(env: Env): IdentitySettings {
  return {
    issuerKey: hexKey(env, 'CREDENCE_ISSUER_KEY'),
    ipfsApi: url(env, 'CREDENCE_IPFS_API', ['http:', 'https:']),
    didResolverRateLimit: int(env, 'CREDENCE_DID_RESOLVER_RATE_LIMIT', 10, 1, 1_000_000),
  };
}
