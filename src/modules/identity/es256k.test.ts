// ES256K JWS and the issuer's address: the address from node:crypto's secp256k1 as ethers computes it, the
// signature (RFC 6979, deterministic) as an ethers SigningKey makes it, and the signer recovered from it.
import { createHash, randomBytes } from 'node:crypto';
import { SigningKey, computeAddress } from 'ethers';
import { describe, expect, it } from 'vitest';
import { addressOfKey, decodeJwt, recoverSigners, signJwt } from './es256k.js';

describe('ES256K', () => {
  it('derives the address ethers derives from a private key', () => {
    for (let i = 0; i < 50; i++) {
      const key = `0x${randomBytes(32).toString('hex')}`;
      expect(addressOfKey(key)).toBe(computeAddress(new SigningKey(key).publicKey).toLowerCase());
    }
  });

  it('refuses a key that is not 32 bytes of hex or not on the curve', () => {
    for (const bad of ['0x1234', `0x${'z'.repeat(64)}`, `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`])
      expect(() => addressOfKey(bad)).toThrow();
  });

  it('signs as an ethers SigningKey signs, and recovers the signer', async () => {
    const key = `0x${randomBytes(32).toString('hex')}`;
    const jwt = await signJwt(key, { kid: 'k' }, { sub: 'x', n: 1 });
    const decoded = decodeJwt(jwt)!;
    const sig = new SigningKey(key).sign(createHash('sha256').update(decoded.signingInput).digest());
    expect(decoded.signature.toString('hex')).toBe(sig.r.slice(2) + sig.s.slice(2));
    expect(decoded.header).toEqual({ kid: 'k', alg: 'ES256K', typ: 'JWT' });
    expect(await recoverSigners(decoded)).toContain(addressOfKey(key));
  });
});
