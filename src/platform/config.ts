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
  /** Primary sign-in domain; unset: the host of CREDENCE_PUBLIC_URL (never the request's Host). */
  siweDomain: string | null;
  // --- security area (issue 14): sign-in, local providers, hostile input, idempotency ---
  /** Further domains a Sign-In with Ethereum message may name (dApps signing users in on their own site). */
  siweDomains: string[];
  /** Chain ids a sign-in message may name (default: the supported chains). */
  siweChainIds: number[];
  /** The built-in payment and KYC providers (development): off behind https or in production unless forced on. */
  localProviders: boolean;
  /** Open HTTP connections one client (TCP peer address) may hold; 0: no cap (behind a load balancer with its own). */
  maxConnectionsPerClient: number;
  /** WebSocket (hub) connections one client may hold; 0: no cap. */
  maxWebSocketsPerClient: number;
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
  /** A list in force published longer ago than this is reported stale (readiness, metrics, admin status). */
  sanctionsMaxAgeDays: number;
  hubRequireKey: boolean;
  /** Hub keep-alive: the server pings every N seconds; a client silent for the timeout is closed. */
  hubKeepAliveSeconds: number;
  hubClientTimeoutSeconds: number;
  proverConcurrency: number;
  verifierThreads: number;
  /** Start the proving and verifying threads at boot (API instances) instead of on the first proof. Off by default:
   *  the threads and the circuits' keys they load are ~110 MB an instance that proves nothing never needs. */
  proverWarmup: boolean;
  kycCallbackSecret: string | null;
  /** Legal age by jurisdiction for /compliance/age-verify (`CC` or `CC-RRR`); built-in: US-* 21, else 18. */
  legalAges: Record<string, number>;
  /** Hosted KYC providers by wire slot; a slot without settings uses the built-in verification page. */
  kycProviders: { default: KycProviderSettings | null; alt: KycProviderSettings | null };
  /** Debt claims filed per minute, per client IP and per creditor address (abuse limits). */
  claimsPerIpPerMinute: number;
  claimsPerCreditorPerMinute: number;
  /** Debt claims (issue 19): hours a debtor has to dispute a new claim before it counts; the least age (hours) and
   *  USD value of the evidence transaction's principal (docs/debt-claims.md says why these defaults). */
  claimNoticeHours: number;
  claimMinEvidenceAgeHours: number;
  claimMinPrincipalUsd: number;
  // --- identity area (issues 13 and 15): age privacy, keyless DID resolution, offline sanctions ---
  /** Distinct minimum ages one API key (and the other keys of its owner) may ask about one wallet per window. */
  ageCheckMinimums: number;
  /** Distinct non-legal-age minimums all keys together may ask about one wallet per window (sybil keys); 0: no cap. */
  ageCheckWalletMinimums: number;
  ageCheckWindowDays: number;
  /** Requests per second per client IP at the Universal Resolver driver path /1.0/identifiers/{did}. */
  didResolverRateLimit: number;
  /** Load the shipped OFAC SDN snapshot (data/sanctions) at start when no list is loaded. */
  sanctionsSnapshot: boolean;
  // --- platform area (issue 14): several instances, outages ---
  /** HMAC key of the hub's connection tokens; must match on every instance (negotiate on A, connect on B). */
  hubTokenKey: string | null;
  /** How long a claimed webhook delivery stays invisible to other workers (an instance that died mid-send). */
  webhookLeaseSeconds: number;
  // --- proofs area (issue 13): freshness, trusted setup, contract roles ---
  /** Seconds a proof stays valid (its validUntil); API, contracts and offline verifiers refuse it afterwards. */
  proofLifetimeSeconds: number;
  /** Upper bound on the delay before a superseded published commitment is replaced or cleared on-chain. */
  commitmentClearSeconds: number;
  /** Publish commitments to a public chain (1, 10, 137, 8453, 42161) with single-contributor (dev) artifacts. */
  allowDevSetup: boolean;
  /** Directory of the circuit artifacts (manifest, setup, zkeys); null: the committed circuits/build. */
  circuitsDir: string | null;
  /** `credence contracts deploy`: DEFAULT_ADMIN_ROLE and GOVERNANCE_ROLE holders (a multisig in production). */
  contractAdmins: string[];
  contractGovernance: string[];
  // --- ingest area (issue 12) ---
  ingest: IngestSettings;
  // --- api area (issue 15): browsers, operations ---
  /** Origins a browser page may call the API from (CORS); empty: none. `*` allows any origin. */
  corsOrigins: string[];
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
}

export const SUPPORTED_CHAINS = [1, 10, 137, 8453, 42161] as const;

// --- ingest area (issue 12): providers, explorer, finality, scale ---
export interface IngestSettings {
  /** Etherscan API V2 base URL and key (both or neither): the explorer backfills every supported chain */
  explorerApiUrl: string | null;
  explorerApiKey: string | null;
  /** calls per second for the explorer key, shared by every chain */
  explorerRps: number;
  /** wallets synced at once per instance, and JSON-RPC requests in flight per provider endpoint */
  ingestConcurrency: number;
  rpcConcurrency: number;
  /** per chain: most blocks per eth_getLogs, calls per second (0: unlimited), and finality ('finalized' or N confirmations) */
  rpcMaxRange: Record<number, number>;
  rpcRps: Record<number, number>;
  finality: Record<number, 'finalized' | number>;
  /** nonces scanned for CREATE deployments (wallets past it: only the explorer lists their deployments) */
  nonceScanMax: number;
  /** failed syncs retried after base * 2^(n-1) seconds, at most max */
  ingestBackoffSeconds: number;
  ingestBackoffMaxSeconds: number;
}

function ingestSettings(env: Env): IngestSettings {
  const explorerApiUrl = url(env, 'CREDENCE_EXPLORER_API_URL', ['http:', 'https:']);
  const explorerApiKey = str(env, 'CREDENCE_EXPLORER_API_KEY');
  if (!!explorerApiUrl !== !!explorerApiKey)
    throw new ConfigError('CREDENCE_EXPLORER_API_URL and CREDENCE_EXPLORER_API_KEY must be set together');
  const perChain = <T>(name: string, parse: (v: string, n: string) => T): Record<number, T> => {
    const out: Record<number, T> = {};
    for (const c of SUPPORTED_CHAINS) {
      const v = str(env, `${name}_${c}`);
      if (v !== null) out[c] = parse(v, `${name}_${c}`);
    }
    return out;
  };
  const posInt = (min: number) => (v: string, n: string) => {
    if (!/^\d+$/.test(v) || Number(v) < min) throw new ConfigError(`${n} must be an integer >= ${min}, got "${v}"`);
    return Number(v);
  };
  return {
    explorerApiUrl,
    explorerApiKey,
    explorerRps: int(env, 'CREDENCE_EXPLORER_RPS', 5, 1, 10_000),
    ingestConcurrency: int(env, 'CREDENCE_INGEST_CONCURRENCY', 4, 1, 1000),
    rpcConcurrency: int(env, 'CREDENCE_RPC_CONCURRENCY', 4, 1, 256),
    rpcMaxRange: perChain('CREDENCE_RPC_MAX_RANGE', posInt(1)),
    rpcRps: perChain('CREDENCE_RPC_RPS', posInt(0)),
    finality: perChain('CREDENCE_FINALITY', (v, n) => (v === 'finalized' ? 'finalized' : posInt(0)(v, n))),
    nonceScanMax: int(env, 'CREDENCE_NONCE_SCAN_MAX', 10_000, 0, 10_000_000),
    ingestBackoffSeconds: int(env, 'CREDENCE_INGEST_BACKOFF_SECONDS', 60, 1, 86_400),
    ingestBackoffMaxSeconds: int(env, 'CREDENCE_INGEST_BACKOFF_MAX_SECONDS', 21_600, 1, 30 * 86_400),
  };
}
// --- end ingest area ---

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

// --- security area (issue 14) ---
// api area (issue 15): each origin is scheme://host[:port] exactly as a browser sends it in the Origin header.
function corsOrigins(origins: string[]): string[] {
  for (const o of origins) {
    if (o === '*') continue;
    let u: URL;
    try {
      u = new URL(o);
    } catch {
      throw new ConfigError(`CREDENCE_CORS_ORIGINS: "${o}" is not an origin (scheme://host[:port])`);
    }
    if (!['http:', 'https:'].includes(u.protocol) || u.origin !== o.replace(/\/$/, ''))
      throw new ConfigError(`CREDENCE_CORS_ORIGINS: "${o}" is not an origin (scheme://host[:port], no path)`);
  }
  return origins.map((o) => o.replace(/\/$/, ''));
}

function list(env: Env, name: string): string[] {
  return (str(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** An EIP-4361 domain: an RFC 3986 authority (host[:port]), compared lowercase. */
function domain(v: string | null, name: string): string | null {
  if (v === null) return null;
  if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(v)) throw new ConfigError(`${name}: "${v}" is not a host[:port]`);
  return v.toLowerCase();
}

function chainIds(env: Env, name: string): number[] {
  const ids = list(env, name).map((s) => {
    if (!/^\d{1,15}$/.test(s) || Number(s) < 1) throw new ConfigError(`${name}: "${s}" is not a chain id`);
    return Number(s);
  });
  return ids.length ? ids : [...SUPPORTED_CHAINS];
}
/**
 * The local payment and KYC providers let anyone upgrade a key or approve a KYC for free: fine on a laptop,
 * never on a public deployment. Unset, they are on unless CREDENCE_PUBLIC_URL is https or NODE_ENV=production
 * (issue 14 asks for exactly this use of NODE_ENV); CREDENCE_LOCAL_PROVIDERS=true|false decides explicitly.
 */
function localProviders(env: Env): boolean {
  if (str(env, 'CREDENCE_LOCAL_PROVIDERS') !== null) return bool(env, 'CREDENCE_LOCAL_PROVIDERS', true);
  const publicUrl = str(env, 'CREDENCE_PUBLIC_URL');
  return !(publicUrl?.toLowerCase().startsWith('https:') || str(env, 'NODE_ENV') === 'production');
}
/**
 * Where to listen when HOST is unset: every interface, except while a built-in local provider (free payment page,
 * KYC page that approves anything) is on, when only this machine may reach them (issue 24). HOST=0.0.0.0 opts out.
 */
function defaultHost(env: Env): string {
  const on = activeLocalProviders({
    localProviders: localProviders(env),
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    kycProviders: { default: kycProvider(env, 'DEFAULT'), alt: kycProvider(env, 'ALT') },
  });
  return on.length > 0 ? '127.0.0.1' : '0.0.0.0';
}

/** The built-in local providers these settings turn on: payment without STRIPE_SECRET_KEY, KYC for an unset slot. */
export function activeLocalProviders(c: Pick<Config, 'localProviders' | 'stripeSecretKey' | 'kycProviders'>): ('payment' | 'kyc')[] {
  if (!c.localProviders) return [];
  const on: ('payment' | 'kyc')[] = [];
  if (!c.stripeSecretKey) on.push('payment');
  if (!c.kycProviders.default || !c.kycProviders.alt) on.push('kyc');
  return on;
}
// --- end security area ---

/** A shared secret: at least 32 characters, so a guessable short value is refused at start. */
function secretSetting(env: Env, name: string): string | null {
  const v = str(env, name);
  if (v !== null && v.length < 32) throw new ConfigError(`${name} must be at least 32 characters (e.g. openssl rand -hex 32)`);
  return v;
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
  for (const part of (v ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
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
  const schedule = (str(env, 'CREDENCE_WEBHOOK_RETRY_SCHEDULE') ?? '5,300,1800,7200,18000,36000,36000,36000,36000').split(',').map((s) => {
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
    host: str(env, 'HOST') ?? defaultHost(env),
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
    siweDomain: domain(str(env, 'CREDENCE_SIWE_DOMAIN'), 'CREDENCE_SIWE_DOMAIN'),
    // security area (issue 14)
    siweDomains: list(env, 'CREDENCE_SIWE_DOMAINS').map((d) => domain(d, 'CREDENCE_SIWE_DOMAINS')!),
    siweChainIds: chainIds(env, 'CREDENCE_SIWE_CHAIN_IDS'),
    localProviders: localProviders(env),
    maxConnectionsPerClient: int(env, 'CREDENCE_MAX_CONNECTIONS_PER_CLIENT', 256, 0, 1_000_000),
    maxWebSocketsPerClient: int(env, 'CREDENCE_MAX_WEBSOCKETS_PER_CLIENT', 64, 0, 1_000_000),
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
    sanctionsMaxAgeDays: int(env, 'CREDENCE_SANCTIONS_MAX_AGE_DAYS', 30, 1, 3650),
    hubRequireKey: bool(env, 'CREDENCE_HUB_REQUIRE_KEY', false),
    hubKeepAliveSeconds: int(env, 'CREDENCE_HUB_KEEPALIVE_SECONDS', 15, 1, 3600),
    hubClientTimeoutSeconds: int(env, 'CREDENCE_HUB_CLIENT_TIMEOUT_SECONDS', 30, 2, 7200),
    proverConcurrency: int(env, 'CREDENCE_PROVER_CONCURRENCY', 2, 1, 64),
    verifierThreads: int(env, 'CREDENCE_VERIFIER_THREADS', 1, 1, 64),
    proverWarmup: bool(env, 'CREDENCE_PROVER_WARMUP', false),
    kycCallbackSecret: str(env, 'CREDENCE_KYC_CALLBACK_SECRET'),
    legalAges: legalAges(str(env, 'CREDENCE_LEGAL_AGES')),
    kycProviders: { default: kycProvider(env, 'DEFAULT'), alt: kycProvider(env, 'ALT') },
    claimsPerIpPerMinute: int(env, 'CREDENCE_CLAIMS_PER_IP_PER_MINUTE', 30, 1, 1_000_000),
    claimsPerCreditorPerMinute: int(env, 'CREDENCE_CLAIMS_PER_CREDITOR_PER_MINUTE', 10, 1, 1_000_000),
    claimNoticeHours: int(env, 'CREDENCE_CLAIM_NOTICE_HOURS', 336, 0, 8_760),
    claimMinEvidenceAgeHours: int(env, 'CREDENCE_CLAIM_MIN_EVIDENCE_AGE_HOURS', 168, 0, 87_600),
    claimMinPrincipalUsd: int(env, 'CREDENCE_CLAIM_MIN_PRINCIPAL_USD', 100, 0, 1_000_000_000),
    // identity area (issues 13 and 15)
    ageCheckMinimums: int(env, 'CREDENCE_AGE_CHECK_MINIMUMS', 3, 1, 150),
    ageCheckWalletMinimums: int(env, 'CREDENCE_AGE_CHECK_WALLET_MINIMUMS', 4, 0, 150),
    ageCheckWindowDays: int(env, 'CREDENCE_AGE_CHECK_WINDOW_DAYS', 30, 1, 3650),
    didResolverRateLimit: int(env, 'CREDENCE_DID_RESOLVER_RATE_LIMIT', 10, 1, 1_000_000),
    sanctionsSnapshot: bool(env, 'CREDENCE_SANCTIONS_SNAPSHOT', true),
    // platform area (issue 14)
    hubTokenKey: secretSetting(env, 'CREDENCE_HUB_TOKEN_KEY'),
    // above the 10 s send time-out, so a slow send is never handed to a second worker
    webhookLeaseSeconds: int(env, 'CREDENCE_WEBHOOK_LEASE_SECONDS', 60, 15, 3600),
    // proofs area (issue 13)
    proofLifetimeSeconds: int(env, 'CREDENCE_PROOF_LIFETIME_SECONDS', 3600, 60, 30 * 86400),
    commitmentClearSeconds: int(env, 'CREDENCE_COMMITMENT_CLEAR_SECONDS', 30, 1, 3600),
    allowDevSetup: bool(env, 'CREDENCE_ALLOW_DEV_SETUP', false),
    circuitsDir: str(env, 'CREDENCE_CIRCUITS_DIR'),
    contractAdmins: list(env, 'CREDENCE_CONTRACT_ADMINS').map((a) => address(a, 'CREDENCE_CONTRACT_ADMINS')),
    contractGovernance: list(env, 'CREDENCE_CONTRACT_GOVERNANCE').map((a) => address(a, 'CREDENCE_CONTRACT_GOVERNANCE')),
    // ingest area (issue 12)
    ingest: ingestSettings(env),
    // api area (issue 15)
    corsOrigins: corsOrigins(list(env, 'CREDENCE_CORS_ORIGINS')),
    metricsToken: str(env, 'CREDENCE_METRICS_TOKEN'),
  };
}
