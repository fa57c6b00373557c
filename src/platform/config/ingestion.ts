// On-chain evidence: the supported chains, their JSON-RPC providers and explorer, finality, refresh and scale.
import { ConfigError, bool, int, str, url, type Env } from './env.js';

export const SUPPORTED_CHAINS = [1, 10, 137, 8453, 42161] as const;

export interface IngestionSettings {
  rpcUrls: Record<number, string>;
  ingestOnRead: boolean;
  refreshIntervalSeconds: number;
  /** blocks behind the head that ingestion stays, so reorganized blocks are never stored */
  ingestConfirmations: number;
  ingest: IngestSettings;
}

/** Providers, explorer, finality, scale. */
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

export function ingestionSettings(env: Env): IngestionSettings {
  const rpcUrls: Record<number, string> = {};
  for (const chain of SUPPORTED_CHAINS) {
    const u = url(env, `CREDENCE_RPC_URL_${chain}`, ['http:', 'https:', 'ws:', 'wss:']);
    if (u) rpcUrls[chain] = u;
  }
  return {
    rpcUrls,
    ingestOnRead: bool(env, 'CREDENCE_INGEST_ON_READ', true),
    refreshIntervalSeconds: int(env, 'CREDENCE_REFRESH_INTERVAL_SECONDS', 21600, 10, 30 * 86400),
    ingestConfirmations: int(env, 'CREDENCE_INGEST_CONFIRMATIONS', 12, 0, 100_000),
    ingest: ingestSettings(env),
  };
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
