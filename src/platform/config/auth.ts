// Who may do what: admins, the JWT secret of sessions, Sign-In with Ethereum (EIP-4361) and owner-only actions.
import { ConfigError, addresses, bool, list, str, type Env } from './env.js';
import { SUPPORTED_CHAINS } from './ingestion.js';

export interface AuthSettings {
  adminAddresses: string[];
  jwtSecret: string | null;
  /** Primary sign-in domain; unset: the host of CREDENCE_PUBLIC_URL (never the request's Host). */
  siweDomain: string | null;
  /** Further domains a Sign-In with Ethereum message may name (dApps signing users in on their own site). */
  siweDomains: string[];
  /** Chain ids a sign-in message may name (default: the supported chains). */
  siweChainIds: number[];
  /** Require a JWT for every owner-only action (claims, dispute withdrawal). */
  strictOwnership: boolean;
}

export function authSettings(env: Env): AuthSettings {
  return {
    adminAddresses: addresses(env, 'CREDENCE_ADMIN_ADDRESSES'),
    jwtSecret: str(env, 'CREDENCE_JWT_SECRET'),
    siweDomain: domain(str(env, 'CREDENCE_SIWE_DOMAIN'), 'CREDENCE_SIWE_DOMAIN'),
    siweDomains: list(env, 'CREDENCE_SIWE_DOMAINS').map((d) => domain(d, 'CREDENCE_SIWE_DOMAINS')!),
    siweChainIds: chainIds(env, 'CREDENCE_SIWE_CHAIN_IDS'),
    strictOwnership: bool(env, 'CREDENCE_STRICT_OWNERSHIP', false),
  };
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
