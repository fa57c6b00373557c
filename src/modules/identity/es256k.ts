// Compact JWS with ES256K (secp256k1 + SHA-256, 64-byte r||s signature), as did-jwt and the W3C VC-JWT
// ecosystem use it. Verification recovers the signer's Ethereum address, which is what an
// EcdsaSecp256k1RecoveryMethod2020 verification method (a CAIP-10 blockchainAccountId) identifies.
// ethers signs and recovers; it loads on the first signature, not at every start (the promise is kept). The
// issuer's address, which the start needs, comes from node:crypto's native secp256k1 and keccak (addressOfKey).
import { createECDH, createHash } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3';
import { loadEthers } from '../../platform/lazy-ethers.js';

const b64url = (b: Buffer | Uint8Array | string) => Buffer.from(b).toString('base64url');

/** The lowercase Ethereum address of a secp256k1 private key (0x and 64 hex digits), as ethers' computeAddress. */
export function addressOfKey(privateKey: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(privateKey)) throw new TypeError('invalid private key: 0x and 64 hex digits expected');
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(Buffer.from(privateKey.slice(2), 'hex')); // throws for 0 and values >= the curve order
  const publicKey = ecdh.getPublicKey(); // uncompressed: 0x04, x, y
  return `0x${Buffer.from(keccak_256(publicKey.subarray(1)))
    .subarray(12)
    .toString('hex')}`;
}

/** A compact ES256K JWS signed with the private key (0x and 64 hex digits): deterministic (RFC 6979), low s. */
export async function signJwt(privateKey: string, header: Record<string, unknown>, payload: Record<string, unknown>): Promise<string> {
  const { SigningKey } = await loadEthers();
  const input = `${b64url(JSON.stringify({ ...header, alg: 'ES256K', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
  const digest = createHash('sha256').update(input).digest();
  const sig = new SigningKey(privateKey).sign(digest);
  return `${input}.${b64url(Buffer.concat([Buffer.from(sig.r.slice(2), 'hex'), Buffer.from(sig.s.slice(2), 'hex')]))}`;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

export function decodeJwt(jwt: string): DecodedJwt | null {
  const parts = jwt.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    const payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (!header || typeof header !== 'object' || !payload || typeof payload !== 'object') return null;
    return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
  } catch {
    return null;
  }
}

/** Lowercase addresses that could have produced the signature (both recovery ids for a 64-byte signature). */
export async function recoverSigners(jwt: DecodedJwt): Promise<string[]> {
  const { Signature, recoverAddress } = await loadEthers();
  const digest = createHash('sha256').update(jwt.signingInput).digest();
  const sig = jwt.signature;
  if (sig.length !== 64 && sig.length !== 65) return [];
  const r = '0x' + sig.subarray(0, 32).toString('hex');
  const s = '0x' + sig.subarray(32, 64).toString('hex');
  const recIds = sig.length === 65 ? [sig[64] % 27] : [0, 1];
  const out: string[] = [];
  for (const v of recIds) {
    try {
      // ethers refuses high-s signatures; other libraries' signers may produce them, so normalize first.
      const normalized = Signature.from({ r, s: normalizeS(s), v: 27 + (normalizeS(s) === s ? v : 1 - v) });
      out.push(recoverAddress(digest, normalized).toLowerCase());
    } catch {
      /* not a point on the curve for this recovery id */
    }
  }
  return out;
}

const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');
function normalizeS(s: string): string {
  const v = BigInt(s);
  return v > N / 2n ? '0x' + (N - v).toString(16).padStart(64, '0') : s;
}
