// API key format and hashing. Keys are 190+ bits of randomness, so a fast SHA-256 is the right hash:
// lookups go by hash, and the key itself is never stored.
import { hash, randomBytes } from 'node:crypto';

export const API_KEY_PREFIX = 'cred_live_';
/** Test keys answer deterministic sandbox data and count against no quota. */
export const TEST_KEY_PREFIX = 'cred_test_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function generateApiKey(length = 40, environment: 'live' | 'test' = 'live'): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length)) {
      // Rejection sampling keeps every character equally likely (248 = 4 * 62).
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return (environment === 'test' ? TEST_KEY_PREFIX : API_KEY_PREFIX) + out;
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
  /** 'test' keys (cred_test_...) read sandbox data and count against no quota */
  environment?: 'live' | 'test';
  /** epoch ms after which this secret stops working (key expiry, or the end of a rotation's grace period); null = never */
  expiresAt?: number | null;
}

/** Provided by the billing module: finds an active key by its hash. */
export interface ApiKeyResolver {
  resolve(hash: string): Promise<ApiKeyPrincipal | null>;
  /** Records that a key was used (written behind by the billing module; never a database call per request). */
  touch?(keyId: string): void;
}
