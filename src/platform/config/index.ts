// Settings: parsed once at start from environment variables, failing fast with a clear message naming the
// variable. Each subsystem's file declares its variables, their defaults and their validation; `Config` is
// all of them in one object. Every setting is listed in the README with its default; behaviour never switches
// on NODE_ENV (the one exception, the local providers' default, is explained in local-providers.ts).
import { authSettings, type AuthSettings } from './auth.js';
import { billingSettings, type BillingSettings } from './billing.js';
import { databaseSettings, type DatabaseSettings } from './database.js';
import { debtClaimSettings, type DebtClaimSettings } from './debt-claims.js';
import type { Env } from './env.js';
import { hubSettings, type HubSettings } from './hub.js';
import { identitySettings, type IdentitySettings } from './identity.js';
import { ingestionSettings, type IngestionSettings } from './ingestion.js';
import { kycSettings, type KycSettings } from './kyc.js';
import { localProviderSettings, type LocalProviderSettings } from './local-providers.js';
import { proofSettings, type ProofSettings } from './proofs.js';
import { redisSettings, type RedisSettings } from './redis.js';
import { sanctionsSettings, type SanctionsSettings } from './sanctions.js';
import { serverSettings, type ServerSettings } from './server.js';
import { webhookSettings, type WebhookSettings } from './webhooks.js';

export { ConfigError } from './env.js';
export { SUPPORTED_CHAINS, type IngestSettings } from './ingestion.js';
export { activeLocalProviders } from './local-providers.js';
export type { KycProviderSettings } from './kyc.js';
export type { Role } from './server.js';

export type Config = ServerSettings &
  DatabaseSettings &
  RedisSettings &
  AuthSettings &
  LocalProviderSettings &
  BillingSettings &
  IngestionSettings &
  ProofSettings &
  IdentitySettings &
  KycSettings &
  SanctionsSettings &
  DebtClaimSettings &
  HubSettings &
  WebhookSettings;

export function loadConfig(env: Env = process.env): Config {
  return {
    ...serverSettings(env),
    ...databaseSettings(env),
    ...redisSettings(env),
    ...authSettings(env),
    ...localProviderSettings(env),
    ...billingSettings(env),
    ...ingestionSettings(env),
    ...proofSettings(env),
    ...identitySettings(env),
    ...kycSettings(env),
    ...sanctionsSettings(env),
    ...debtClaimSettings(env),
    ...hubSettings(env),
    ...webhookSettings(env),
  };
}
