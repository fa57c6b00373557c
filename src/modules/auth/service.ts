// Sign-In with Ethereum (EIP-4361): single-use expiring nonces, domain and time checks, then a JWT.
import { randomBytes } from 'node:crypto';
import type { SiweMessage } from 'siwe';
import type { AppContext } from '../../platform/context.js';
import type { Config } from '../../platform/config.js';
import { unauthorized, badRequest } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import { loadEthers } from '../../platform/lazy-ethers.js';
import { lazy } from '../../platform/lazy.js';

// siwe loads on the first sign-in (ethers too, for an EIP-1271 check)
const loadSiwe = lazy(() => import('siwe'));

export const NONCE_TTL_MS = 5 * 60_000;
/** How far ahead of our clock a wallet's issuedAt may be (clock skew), per EIP-4361's security considerations. */
export const ISSUED_AT_SKEW_MS = 60_000;

/**
 * The domains a sign-in message may name, primary first: CREDENCE_SIWE_DOMAIN, else the host of
 * CREDENCE_PUBLIC_URL, else the hosts the service itself prints and listens on (below), then CREDENCE_SIWE_DOMAINS.
 * Never the request's Host: a phishing site relaying its victim's message would choose that header itself.
 * `port` is the port actually bound (PORT=0 picks one at listen time).
 */
export function siweDomainsOf(
  config: Pick<Config, 'siweDomain' | 'siweDomains' | 'publicUrl' | 'port' | 'host'>,
  port = config.port,
): string[] {
  const configured = config.siweDomain ?? (config.publicUrl ? new URL(config.publicUrl).host.toLowerCase() : null);
  return [...new Set([...(configured ? [configured] : listeningDomains(config.host, port)), ...config.siweDomains])];
}

/**
 * Without a public URL, the links `npm start` prints (start banner, landing page) name the host it listens on, or
 * localhost when it listens on every interface: each of those must sign in. A loopback or wildcard
 * listener is reachable as localhost and as the loopback address, so both are accepted; a listener on one
 * specific address accepts that address only, never a host it was not started for.
 */
export function listeningDomains(host: string, port: number): string[] {
  const at = (h: string) => new URL(`http://${h}:${port}`).host.toLowerCase();
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === '0.0.0.0' || h === '127.0.0.1' || h === 'localhost')
    return [at(h === '127.0.0.1' ? '127.0.0.1' : 'localhost'), at(h === '127.0.0.1' ? 'localhost' : '127.0.0.1')];
  if (h === '::') return [at('localhost'), at('127.0.0.1'), at('[::1]')];
  if (h === '::1') return [at('[::1]'), at('localhost')];
  return [at(h.includes(':') ? `[${h}]` : h)];
}
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newNonce(): string {
  // EIP-4361 nonces are alphanumeric, at least 8 characters; 24 from 62 symbols is ~143 bits.
  let s = '';
  for (const b of randomBytes(48)) if (b < 248 && s.length < 24) s += ALNUM[b % 62];
  return s;
}

/** The EIP-4361 fields that bind a message to this service: domain, uri, chain and issue time. */
function checkBinding(msg: SiweMessage, allowed: string[], chains: number[]): string {
  const domain = msg.domain.toLowerCase();
  const list = allowed.join(', ');
  if (!allowed.includes(domain)) {
    throw unauthorized(
      `The message's domain must be ${allowed.length > 1 ? 'one of ' : ''}${list} (the sign-in domains this service was configured or started for; CREDENCE_SIWE_DOMAINS adds others).`,
    );
  }
  let uriHost: string | null;
  try {
    uriHost = new URL(msg.uri).host.toLowerCase();
  } catch {
    uriHost = null;
  }
  if (!uriHost || !allowed.includes(uriHost)) throw unauthorized(`The message's uri must be on ${list}.`);
  if (!chains.includes(msg.chainId)) throw unauthorized(`The message's chain id must be one of ${chains.join(', ')}.`);
  const issued = Date.parse(msg.issuedAt ?? '');
  if (!Number.isFinite(issued) || issued > Date.now() + ISSUED_AT_SKEW_MS) {
    throw unauthorized(`The message's issuedAt must not be in the future (more than ${ISSUED_AT_SKEW_MS / 1000} s ahead).`);
  }
  return msg.domain;
}

/** `boundPort` answers the port the server listens on once it does (the configured one before). */
export function createSiweService(ctx: Pick<AppContext, 'db' | 'config' | 'jwt'>, boundPort: () => number = () => ctx.config.port) {
  return {
    async issueNonce(): Promise<{ nonce: string; expiresAt: Date }> {
      const nonce = newNonce();
      const expiresAt = new Date(Date.now() + NONCE_TTL_MS);
      await ctx.db.query('INSERT INTO siwe_nonces (nonce, expires_at) VALUES ($1, $2)', [nonce, expiresAt]);
      // Opportunistic cleanup keeps the table small without a separate job.
      if (Math.random() < 0.01) await ctx.db.query("DELETE FROM siwe_nonces WHERE expires_at < now() - interval '1 day'");
      return { nonce, expiresAt };
    },

    async verify(message: string, signature: string, environment: 'live' | 'test' = 'live') {
      // siwe (and the CommonJS copy of ethers it requires) loads on the first sign-in, not at every start
      const { SiweMessage } = await loadSiwe();
      let msg: SiweMessage;
      try {
        msg = new SiweMessage(message);
      } catch (e) {
        throw badRequest(`The message is not a valid Sign-In with Ethereum (EIP-4361) message: ${(e as Error).message ?? e}`, [
          { field: 'message', message: 'must be an EIP-4361 message' },
        ]);
      }
      const domain = checkBinding(msg, siweDomainsOf(ctx.config, boundPort()), ctx.config.siweChainIds);
      const rpc = ctx.config.rpcUrls[msg.chainId];
      try {
        // verify() checks the signature (and EIP-1271 through a provider), nonce, domain, expirationTime and notBefore.
        await msg.verify(
          { signature, domain, nonce: msg.nonce, time: new Date().toISOString() },
          { suppressExceptions: false, ...(rpc ? { provider: new (await loadEthers()).JsonRpcProvider(rpc) } : {}) },
        );
      } catch (e) {
        const err = (e as { error?: { type?: string } }).error;
        throw unauthorized(`Sign-in failed: ${err?.type ?? 'invalid signature'}.`);
      }
      // Single use: only the first verification with an issued, unexpired nonce succeeds.
      const used = await ctx.db.query(
        'UPDATE siwe_nonces SET used_at = now() WHERE nonce = $1 AND used_at IS NULL AND expires_at > now() RETURNING nonce',
        [msg.nonce],
      );
      if (used.length === 0)
        throw unauthorized('The nonce is unknown, expired or already used; request a new one from GET /api/v1/auth/nonce.');
      const address = toChecksum(msg.address);
      const roles = ctx.config.adminAddresses.includes(address.toLowerCase()) ? ['user', 'admin'] : ['user'];
      const { token, expiresIn } = await ctx.jwt.issue(address, roles, environment);
      return { token, tokenType: 'Bearer' as const, expiresIn, address, roles, environment };
    },
  };
}
