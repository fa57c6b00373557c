// Settings: one schema composed from one file per subsystem in config/ (server, database, redis, auth, billing,
// ingestion, proofs, identity, kyc, sanctions, debt claims, hub, webhooks). This path stays the one to import.
export {
  activeLocalProviders,
  ConfigError,
  loadConfig,
  SUPPORTED_CHAINS,
  type Config,
  type IngestSettings,
  type KycProviderSettings,
  type Role,
} from './config/index.js';
