// The HTTP server: where it listens, which roles this instance runs, how it logs, who may connect and how often.
import { ConfigError, bool, int, list, str, url, type Env } from './env.js';
import { defaultHost } from './local-providers.js';

export type Role = 'api' | 'hub' | 'workers';

export interface ServerSettings {
  port: number;
  /** unset: every interface, or only this machine while a built-in local provider is on (local-providers.ts) */
  host: string;
  roles: Role[];
  logLevel: string;
  publicUrl: string | null;
  trustProxy: boolean;
  /** Requests per second per client IP on unauthenticated routes. */
  ipRateLimit: number;
  /** Open HTTP connections one client (TCP peer address) may hold; 0: no cap (behind a load balancer with its own). */
  maxConnectionsPerClient: number;
  /** WebSocket (hub) connections one client may hold; 0: no cap. */
  maxWebSocketsPerClient: number;
  /** Origins a browser page may call the API from (CORS); empty: none. `*` allows any origin. */
  corsOrigins: string[];
  /** When set, GET /metrics needs `Authorization: Bearer <token>`. */
  metricsToken: string | null;
}

export function serverSettings(env: Env): ServerSettings {
  return {
    roles: roles(env),
    port: int(env, 'PORT', 8080, 0, 65535),
    host: str(env, 'HOST') ?? defaultHost(env),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    publicUrl: url(env, 'CREDENCE_PUBLIC_URL', ['http:', 'https:']),
    trustProxy: bool(env, 'CREDENCE_TRUST_PROXY', false),
    ipRateLimit: int(env, 'CREDENCE_IP_RATE_LIMIT', 20, 1, 1_000_000),
    maxConnectionsPerClient: int(env, 'CREDENCE_MAX_CONNECTIONS_PER_CLIENT', 256, 0, 1_000_000),
    maxWebSocketsPerClient: int(env, 'CREDENCE_MAX_WEBSOCKETS_PER_CLIENT', 64, 0, 1_000_000),
    corsOrigins: corsOrigins(list(env, 'CREDENCE_CORS_ORIGINS')),
    metricsToken: str(env, 'CREDENCE_METRICS_TOKEN'),
  };
}

function roles(env: Env): Role[] {
  const roles = (str(env, 'CREDENCE_ROLES') ?? 'api,hub,workers').split(',').map((r) => r.trim());
  for (const r of roles) {
    if (!['api', 'hub', 'workers'].includes(r)) throw new ConfigError(`CREDENCE_ROLES: unknown role "${r}"`);
  }
  return roles as Role[];
}

/** Each origin is scheme://host[:port] exactly as a browser sends it in the Origin header. */
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
