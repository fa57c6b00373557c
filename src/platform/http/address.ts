// Ethereum addresses: accepted in any case (mixed case must pass EIP-55), stored lowercase, returned checksummed.
// EIP-55 is computed here over @noble/hashes' keccak (the one viem and ethers use): every route needs it, and
// importing ethers for it loaded ~130 modules at every start.
import { keccak_256 } from '@noble/hashes/sha3';

const HEX40 = /^0x[0-9a-fA-F]{40}$/;
const checksums = new Map<string, string>();

export function isAddress(v: string): boolean {
  if (!HEX40.test(v)) return false;
  const body = v.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksum(v) === v;
}

/** EIP-55 form; memoized because hot routes format the same addresses again and again. */
export function toChecksum(v: string): string {
  const lower = v.toLowerCase();
  let c = checksums.get(lower);
  if (c === undefined) {
    c = eip55(lower);
    if (checksums.size > 200_000) checksums.clear();
    checksums.set(lower, c);
  }
  return c;
}

/** The EIP-55 checksummed form of a 40-hex-digit address (0x optional); throws on anything else, as ethers did. */
function eip55(address: string): string {
  if (!/^(0x)?[0-9a-f]{40}$/.test(address)) throw new TypeError(`invalid address: ${address}`);
  const hex = address.startsWith('0x') ? address.slice(2) : address;
  // a letter is upper case where its nibble of keccak256(the lower-case hex text) is 8 or more
  const hash = keccak_256(Buffer.from(hex, 'latin1'));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += (hash[i >> 1]! >> (i % 2 ? 0 : 4)) & 8 ? hex[i]!.toUpperCase() : hex[i];
  return out;
}

export const normalizeAddress = (v: string) => v.toLowerCase();

/**
 * Shape of an ENS name (labels separated by dots, a top-level label starting with a letter, no spaces or URL
 * punctuation). Full ENSIP-15 normalization happens when the name is resolved (src/platform/ens.ts).
 */
const ENS_SHAPE = /^(?:[^\s./\\?#%:@]+\.)+[A-Za-z][A-Za-z0-9-]*$/u;
export const looksLikeEnsName = (v: string): boolean => v.length <= 255 && !HEX40.test(v) && ENS_SHAPE.test(v);
