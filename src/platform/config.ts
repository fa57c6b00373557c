// Settings: parsed once at start from environment variables, failing fast with a clear message.
// Every setting is listed in the README with its default; behaviour never switches on NODE_ENV.

export type Role = 'api' | 'hub' | 'workers';

export interface Config {
  port: number;
  host: string;
  /** unset: embedded PGlite in dataDir; `pglite://memory`: in-memory PGlite; `postgres://...`: a server */
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  /** Namespace for every Redis key and channel, so deployments (and test runs) can share one Redis. */
  redisPrefix: string;
  roles: Role[];
  logLevel: string;
  publicUrl: string | null;
  adminAddresses: string[];
  jwtSecret: string | null;
  siweDomain: string | null;
  strictOwnership: boolean;
  webhookAllowPrivate: boolean;
  webhookRetrySchedule: number[];
  ipRateLimit: number;
  trustProxy: boolean;
  encryptionKey: string | null;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripePriceStarter: string | null;
  stripePriceGrowth: string | null;
  /** Stripe API base URL (stripe-mock or a test double); the SDK's default when unset. */
  stripeApiBase: string | null;
  rpcUrls: Record<number, string>;
  ingestOnRead: boolean;
  refreshIntervalSeconds: number;
  /** blocks behind the head that ingestion stays, so reorganized blocks are never stored */
  ingestConfirmations: number;
  chainRpcUrl: string | null;
  oracleAddress: string | null;
  credentialVerifierAddress: string | null;
  signerKey: string | null;
  issuerKey: string | null;
  ipfsApi: string | null;
  sanctionsUrl: string | null;
  sanctionsRefreshHours: number;
  hubRequireKey: boolean;
  /** Hub keep-alive: the server pings every N seconds; a client silent for the timeout is closed. */
  hubKeepAliveSeconds: number;
  hubClientTimeoutSeconds: number;
  proverConcurrency: number;
  verifierThreads: number;
  /** Start the proving and verifying threads at boot (API instances) instead of on the first proof. */
  proverWarmup: boolean;
  kycCallbackSecret: string | null;
  /** Legal age by jurisdiction for /compliance/age-verify (`CC` or `CC-RRR`); built-in: US-* 21, else 18. */
  legalAges: Record<string, number>;
  /** Hosted KYC providers by wire slot; a slot without settings uses the built-in verification page. */
  kycProviders: { default: KycProviderSettings | null; alt: KycProviderSettings | null };
  /** Debt claims filed per minute, per client IP and per creditor address (abuse limits). */
  claimsPerIpPerMinute: number;
  claimsPerCreditorPerMinute: number;
}

export const SUPPORTED_CHAINS = [1, 10, 137, 8453, 42161] as const;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string): string | null {
  const v = env[name];
  return v === undefined || v.trim() === '' ? null : v.trim();
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const v = str(env, name);
  if (v === null) return def;
  if (!/^-?\d+$/.test(v)) throw new ConfigError(`${name} must be an integer, got "${v}"`);
  const n = Number(v);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

function bool(env: Env, name: string, def: boolean): boolean {
  const v = str(env, name);
  if (v === null) return def;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${v}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const v = str(env, name);
  if (v === null) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${v}"`);
  }
  if (!protocols.includes(u.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${u.protocol}"`);
  }
  return v;
}

function address(v: string, name: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(v)) throw new ConfigError(`${name}: "${v}" is not an Ethereum address`);
  return v.toLowerCase();
}

function hexKey(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v === null) return null;
  if (!/^(0x)?[0-9a-fA-F]{64}$/.test(v)) throw new ConfigError(`${name} must be 32 bytes of hex`);
  return v.startsWith('0x') ? v : `0x${v}`;
}

export interface KycProviderSettings {
  apiUrl: string;
  apiKey: string;
  webhookSecret: string;
}

/** CREDENCE_KYC_<slot>_API_URL, _API_KEY and _WEBHOOK_SECRET: all three, or none. */
function kycProvider(env: Env, slot: string): KycProviderSettings | null {
  const names = ['API_URL', 'API_KEY', 'WEBHOOK_SECRET'].map((n) => `CREDENCE_KYC_${slot}_${n}`);
  const apiUrl = url(env, names[0], ['http:', 'https:']);
  const apiKey = str(env, names[1]);
  const webhookSecret = str(env, names[2]);
  if (!apiUrl && !apiKey && !webhookSecret) return null;
  if (!apiUrl || !apiKey || !webhookSecret) throw new ConfigError(`${names.join(', ')} must be set together`);
  return { apiUrl, apiKey, webhookSecret };
}

/** `JP=20,US-MS=21`: jurisdiction (country, or country-region) = age in years. */
function legalAges(v: string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of (v ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^([A-Za-z]{2}(?:-[A-Za-z0-9]{1,3})?)=(\d{1,3})$/.exec(part);
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 150) throw new ConfigError(`CREDENCE_LEGAL_AGES: "${part}" is not CC[-RRR]=<age 1-150>`);
    out[m[1].toUpperCase()] = Number(m[2]);
  }
  return out;
}

export function loadConfig(env: Env = process.env): Config {
  const roles = (str(env, 'CREDENCE_ROLES') ?? 'api,hub,workers').split(',').map((r) => r.trim());
  for (const r of roles) {
    if (!['api', 'hub', 'workers'].includes(r)) throw new ConfigError(`CREDENCE_ROLES: unknown role "${r}"`);
  }
  const databaseUrl = str(env, 'DATABASE_URL');
  if (databaseUrl && !/^(postgres(ql)?:\/\/|pglite:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres://, postgresql:// or pglite://');
  }
  const schedule = (str(env, 'CREDENCE_WEBHOOK_RETRY_SCHEDULE') ?? '5,300,1800,7200,18000,36000,36000,36000,36000')
    .split(',')
    .map((s) => {
      const n = Number(s.trim());
      if (!Number.isFinite(n) || n < 0) throw new ConfigError(`CREDENCE_WEBHOOK_RETRY_SCHEDULE: "${s}" is not a number of seconds`);
      return n;
    });
  const rpcUrls: Record<number, string> = {};
  for (const chain of SUPPORTED_CHAINS) {
    const u = url(env, `CREDENCE_RPC_URL_${chain}`, ['http:', 'https:', 'ws:', 'wss:']);
    if (u) rpcUrls[chain] = u;
  }
  const oracle = str(env, 'CREDENCE_ORACLE_ADDRESS');
  const verifier = str(env, 'CREDENCE_CREDENTIAL_VERIFIER_ADDRESS');
  return {
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? '0.0.0.0',
    databaseUrl,
    dataDir: str(env, 'CREDENCE_DATA_DIR') ?? './data',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    redisPrefix: str(env, 'CREDENCE_REDIS_PREFIX') ?? 'credence:',
    roles: roles as Role[],
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    publicUrl: url(env, 'CREDENCE_PUBLIC_URL', ['http:', 'https:']),
    adminAddresses: (str(env, 'CREDENCE_ADMIN_ADDRESSES') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map((a) => address(a, 'CREDENCE_ADMIN_ADDRESSES')),
    jwtSecret: str(env, 'CREDENCE_JWT_SECRET'),
    siweDomain: str(env, 'CREDENCE_SIWE_DOMAIN'),
    strictOwnership: bool(env, 'CREDENCE_STRICT_OWNERSHIP', false),
    webhookAllowPrivate: bool(env, 'CREDENCE_WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetrySchedule: schedule,
    ipRateLimit: int(env, 'CREDENCE_IP_RATE_LIMIT', 20, 1, 1_000_000),
    trustProxy: bool(env, 'CREDENCE_TRUST_PROXY', false),
    encryptionKey: hexKey(env, 'CREDENCE_ENCRYPTION_KEY'),
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    stripePriceStarter: str(env, 'STRIPE_PRICE_STARTER'),
    stripePriceGrowth: str(env, 'STRIPE_PRICE_GROWTH'),
    stripeApiBase: url(env, 'STRIPE_API_BASE', ['http:', 'https:']),
    rpcUrls,
    ingestOnRead: bool(env, 'CREDENCE_INGEST_ON_READ', true),
    refreshIntervalSeconds: int(env, 'CREDENCE_REFRESH_INTERVAL_SECONDS', 21600, 10, 30 * 86400),
    ingestConfirmations: int(env, 'CREDENCE_INGEST_CONFIRMATIONS', 12, 0, 100_000),
    chainRpcUrl: url(env, 'CREDENCE_CHAIN_RPC_URL', ['http:', 'https:', 'ws:', 'wss:']),
    oracleAddress: oracle ? address(oracle, 'CREDENCE_ORACLE_ADDRESS') : null,
    credentialVerifierAddress: verifier ? address(verifier, 'CREDENCE_CREDENTIAL_VERIFIER_ADDRESS') : null,
    signerKey: hexKey(env, 'CREDENCE_SIGNER_KEY'),
    issuerKey: hexKey(env, 'CREDENCE_ISSUER_KEY'),
    ipfsApi: url(env, 'CREDENCE_IPFS_API', ['http:', 'https:']),
    sanctionsUrl: url(env, 'CREDENCE_SANCTIONS_URL', ['http:', 'https:']),
    sanctionsRefreshHours: int(env, 'CREDENCE_SANCTIONS_REFRESH_HOURS', 24, 1, 24 * 30),
    hubRequireKey: bool(env, 'CREDENCE_HUB_REQUIRE_KEY', false),
    hubKeepAliveSeconds: int(env, 'CREDENCE_HUB_KEEPALIVE_SECONDS', 15, 1, 3600),
    hubClientTimeoutSeconds: int(env, 'CREDENCE_HUB_CLIENT_TIMEOUT_SECONDS', 30, 2, 7200),
    proverConcurrency: int(env, 'CREDENCE_PROVER_CONCURRENCY', 2, 1, 64),
    verifierThreads: int(env, 'CREDENCE_VERIFIER_THREADS', 1, 1, 64),
    proverWarmup: bool(env, 'CREDENCE_PROVER_WARMUP', true),
    kycCallbackSecret: str(env, 'CREDENCE_KYC_CALLBACK_SECRET'),
    legalAges: legalAges(str(env, 'CREDENCE_LEGAL_AGES')),
    kycProviders: { default: kycProvider(env, 'DEFAULT'), alt: kycProvider(env, 'ALT') },
    claimsPerIpPerMinute: int(env, 'CREDENCE_CLAIMS_PER_IP_PER_MINUTE', 30, 1, 1_000_000),
    claimsPerCreditorPerMinute: int(env, 'CREDENCE_CLAIMS_PER_CREDITOR_PER_MINUTE', 10, 1, 1_000_000),
  };
}
