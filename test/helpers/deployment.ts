// Several instances of one deployment configured as the README ("Several instances") says: every must-match
// setting set to the same value, while each instance keeps its own data dir (its own generated secrets).
import { randomBytes } from 'node:crypto';
import type { Config } from '../../src/platform/config.js';

/** The must-match settings as environment variables (for a child process) and as Config fields (in-process). */
export function deploymentSettings() {
  const hex = () => randomBytes(32).toString('hex');
  const env = {
    CREDENCE_ENCRYPTION_KEY: hex(),
    CREDENCE_JWT_SECRET: hex(),
    CREDENCE_HUB_TOKEN_KEY: hex(),
    STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    CREDENCE_KYC_CALLBACK_SECRET: hex(),
    CREDENCE_ISSUER_KEY: hex(),
    CREDENCE_REDIS_PREFIX: `credence-test:${randomBytes(6).toString('hex')}:`,
  };
  const config: Partial<Config> = {
    encryptionKey: `0x${env.CREDENCE_ENCRYPTION_KEY}`,
    jwtSecret: env.CREDENCE_JWT_SECRET,
    hubTokenKey: env.CREDENCE_HUB_TOKEN_KEY,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    kycCallbackSecret: env.CREDENCE_KYC_CALLBACK_SECRET,
    issuerKey: `0x${env.CREDENCE_ISSUER_KEY}`,
    redisPrefix: env.CREDENCE_REDIS_PREFIX,
  };
  return { env, config };
}

/**
 * Polls `remaining()` until it reaches 0. Fails only when it stops going down for `stallMs`: a slow machine
 * makes this take longer, never fail; a message that is lost (or stuck) makes it fail with the count left.
 */
export async function drained(remaining: () => Promise<number>, { stallMs = 45_000, intervalMs = 100 } = {}): Promise<void> {
  let last = Infinity;
  let since = Date.now();
  for (;;) {
    const n = await remaining();
    if (n === 0) return;
    if (n < last) {
      last = n;
      since = Date.now();
    } else if (Date.now() - since > stallMs) {
      throw new Error(`${n} left, and none done for ${stallMs} ms`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
