// API key format and hashing. Keys are 190+ bits of randomness, so a fast SHA-256 is the right hash:
// lookups go by hash, and the key itself is never stored.
import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'cred_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateApiKey(length = 40): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

export function hashApiKey(key: string): string {
  // one-shot hash: no Hash object per request on the hot path
  return hash('sha256', key, 'hex');
}

export const looksLikeApiKey = (key: string) => /^cred_(live|test)_[0-9A-Za-z]{32,128}$/.test(key);

export interface ApiKeyPrincipal {
  keyId: string;
  ownerAddress: string;
  tier: string;
  rateLimit: number;
  monthlyLimit: number | null;
}

/** Provided by the billing module: finds an active key by its hash. */
export interface ApiKeyResolver {
  resolve(hash: string): Promise<ApiKeyPrincipal | null>;
}
