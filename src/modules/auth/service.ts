// Sign-In with Ethereum (EIP-4361): single-use expiring nonces, domain and time checks, then a JWT.
import { randomBytes } from 'node:crypto';
import { SiweMessage } from 'siwe';
import { JsonRpcProvider } from 'ethers';
import type { AppContext } from '../../platform/context.js';
import { unauthorized, badRequest } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';

export const NONCE_TTL_MS = 5 * 60_000;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newNonce(): string {
  // EIP-4361 nonces are alphanumeric, at least 8 characters; 24 from 62 symbols is ~143 bits.
  let s = '';
  for (const b of randomBytes(48)) if (b < 248 && s.length < 24) s += ALNUM[b % 62];
  return s;
}

export function createSiweService(ctx: Pick<AppContext, 'db' | 'config' | 'jwt'>) {
  return {
    async issueNonce(): Promise<{ nonce: string; expiresAt: Date }> {
      const nonce = newNonce();
      const expiresAt = new Date(Date.now() + NONCE_TTL_MS);
      await ctx.db.query('INSERT INTO siwe_nonces (nonce, expires_at) VALUES ($1, $2)', [nonce, expiresAt]);
      // Opportunistic cleanup keeps the table small without a separate job.
      if (Math.random() < 0.01) await ctx.db.query("DELETE FROM siwe_nonces WHERE expires_at < now() - interval '1 day'");
      return { nonce, expiresAt };
    },

    async verify(message: string, signature: string, requestHost: string | undefined) {
      let msg: SiweMessage;
      try {
        msg = new SiweMessage(message);
      } catch (e) {
        throw badRequest(`The message is not a valid Sign-In with Ethereum (EIP-4361) message: ${(e as Error).message ?? e}`, [
          { field: 'message', message: 'must be an EIP-4361 message' },
        ]);
      }
      const domain = ctx.config.siweDomain ?? requestHost;
      if (!domain || msg.domain !== domain) throw unauthorized(`The message's domain must be ${domain ?? 'this service\'s host'}.`);
      const rpc = ctx.config.rpcUrls[msg.chainId];
      try {
        // verify() checks the signature (and EIP-1271 through a provider), nonce, domain, expirationTime and notBefore.
        await msg.verify(
          { signature, domain, nonce: msg.nonce, time: new Date().toISOString() },
          { suppressExceptions: false, ...(rpc ? { provider: new JsonRpcProvider(rpc) } : {}) },
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
      if (used.length === 0) throw unauthorized('The nonce is unknown, expired or already used; request a new one from GET /api/v1/auth/nonce.');
      const address = toChecksum(msg.address);
      const roles = ctx.config.adminAddresses.includes(address.toLowerCase()) ? ['user', 'admin'] : ['user'];
      const { token, expiresIn } = await ctx.jwt.issue(address, roles);
      return { token, tokenType: 'Bearer' as const, expiresIn, address, roles };
    },
  };
}
