// What every module receives: the platform's shared machinery, plus the services modules offer each other.
// `ModuleServices` lists every hand-off between modules in one place, each member required and typed; a service
// factory asks for the members it uses (`Pick<ModuleServices, ...>`), and src/modules/index.ts fills them in order.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Db } from './db/types.js';
import type { EventBus } from './events/bus.js';
import type { CacheFactory } from './cache/index.js';
import type { RateLimiter } from './rate-limit/index.js';
import type { QuotaStore } from './rate-limit/quota.js';
import type { RedisState } from './rate-limit/redis-state.js';
import type { Cipher } from './secrets.js';
import type { JwtService } from './auth/jwt.js';
import type { ApiKeyPrincipal, ApiKeyResolver } from './auth/api-key.js';
import type { FastPaths } from './http/fast-path.js';
import type {
  ComplianceSignals,
  DebtClaimsSignals,
  IdentitySignals,
  IngestionService,
  SanctionsService,
  ScoreChangeLog,
  ScoreChangeOutbox,
  ScoringService,
} from '../modules/scoring/contracts.js';
import type { KycRecords, OracleService, ProofQueueStats, ProofsService, ProofsSetupStatus } from '../modules/proofs/contracts.js';
import type { AgeChecksService, KycBackedCredentials, KycFacts } from '../modules/compliance/contracts.js';

/** What modules offer each other, by the module that sets it (src/modules/index.ts registers them in order and
 *  checks every member is set before the app serves). A feature that is off is a do-nothing form, or null where a
 *  caller must say so (no oracle configured). */
export interface ModuleServices {
  /** scoring: scores, their recomputation, and the change log behind the feed */
  scoring: ScoringService;
  scoreChanges: ScoreChangeLog;
  /** ingestion: features and coverage from stored activity (status none without a chain source) */
  ingestion: IngestionService;
  /** proofs: age proofs (the runtime starts on the first call), the setup /health shows, the pools /metrics shows */
  proofs: ProofsService;
  proofsSetup: () => ProofsSetupStatus | undefined;
  proofQueue: () => ProofQueueStats | null;
  /** proofs: the on-chain oracle, null unless CREDENCE_ORACLE_ADDRESS and a signer are configured */
  oracle: OracleService | null;
  /** identity: the signals scoring reads, DID resolution, key control */
  identity: IdentitySignals;
  /** identity: withdraws KYC-backed credentials when compliance revokes a KYC */
  kycBackedCredentials: KycBackedCredentials;
  /** compliance: KYC and sanctions as scoring reads them; approved birth dates; KYC sessions behind credentials */
  compliance: ComplianceSignals;
  kyc: KycRecords;
  kycFacts: KycFacts;
  ageChecks: AgeChecksService;
  /** sanctions: the in-memory screening */
  sanctions: SanctionsService;
  /** debt-claims: the claim signals scoring reads */
  debtClaims: DebtClaimsSignals;
  /** webhooks: the outbox written inside the scoring transaction */
  webhooks: ScoreChangeOutbox;
}

export interface Worker {
  name: string;
  start(): void | Promise<void>;
  stop(): void | Promise<void>;
}

export interface AppContext {
  config: Config;
  log: FastifyBaseLogger;
  instanceId: string;
  /** The base URL clients reach this service at (CREDENCE_PUBLIC_URL, else http://localhost:PORT). */
  publicUrl(): string;
  db: Db;
  /** Command connection when REDIS_URL is set. */
  redis: Redis | null;
  /** Opens another Redis connection (pub/sub needs its own). */
  redisConnection(): Redis | null;
  /** Redis reachability (null without REDIS_URL): what Redis backs falls back to in-process forms while it is down. */
  redisState: RedisState | null;
  bus: EventBus;
  caches: CacheFactory;
  limiter: RateLimiter;
  quota: QuotaStore;
  cipher: Cipher;
  jwt: JwtService;
  /** Set by the billing module. */
  apiKeys: ApiKeyResolver & { invalidate(hash: string): void; cached?(raw: string): ApiKeyPrincipal | undefined };
  /** Secrets from settings or, when unset, generated once into the data dir. */
  secret(name: string, generate?: () => string): string;
  /** Set by the modules (src/modules/index.ts), complete before the app serves or its workers start. */
  services: ModuleServices;
  /** Routes answered before Fastify's router (platform/http/fast-path.ts); absent in bare test contexts. */
  fastPaths?: FastPaths;
  /** Background work; started only when the `workers` role is on. */
  workers: Worker[];
  /** Hooks run at shutdown, in reverse order of registration. */
  onClose(fn: () => Promise<void> | void): void;
}
