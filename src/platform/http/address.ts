// Ethereum addresses: accepted in any case (mixed case must pass EIP-55), stored lowercase, returned checksummed.
import { getAddress } from 'ethers';

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
    c = getAddress(lower);
    if (checksums.size > 200_000) checksums.clear();
    checksums.set(lower, c);
  }
  return c;
}

export const normalizeAddress = (v: string) => v.toLowerCase();

/**
 * Shape of an ENS name (labels separated by dots, a top-level label starting with a letter, no spaces or URL
 * punctuation). Full ENSIP-15 normalization happens when the name is resolved (src/platform/ens.ts).
 */
const ENS_SHAPE = /^(?:[^\s./\\?#%:@]+\.)+[A-Za-z][A-Za-z0-9-]*$/u;
export const looksLikeEnsName = (v: string): boolean => v.length <= 255 && !HEX40.test(v) && ENS_SHAPE.test(v);
