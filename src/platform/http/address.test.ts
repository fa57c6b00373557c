// EIP-55 as computed here (keccak from @noble/hashes) against the EIP's own examples and ethers' getAddress.
import { randomBytes } from 'node:crypto';
import { getAddress } from 'ethers';
import { describe, expect, it } from 'vitest';
import { isAddress, toChecksum } from './address.js';

// the examples of https://eips.ethereum.org/EIPS/eip-55
const EIP55 = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55 addresses', () => {
  it('checksums the EIP examples from any case, and accepts them only in their own mixed case', () => {
    for (const a of EIP55) {
      expect(toChecksum(a.toLowerCase())).toBe(a);
      expect(toChecksum(a.toUpperCase().replace('0X', '0x'))).toBe(a);
      expect(isAddress(a)).toBe(true);
      // one letter's case flipped: mixed case that is not the checksum
      const at = a.slice(2).search(/[a-fA-F]/) + 2;
      const flipped = a[at] === a[at]!.toLowerCase() ? a[at]!.toUpperCase() : a[at]!.toLowerCase();
      expect(isAddress(a.slice(0, at) + flipped + a.slice(at + 1))).toBe(false);
    }
  });

  it('gives what ethers gives for random addresses', () => {
    for (let i = 0; i < 2000; i++) {
      const a = `0x${randomBytes(20).toString('hex')}`;
      expect(toChecksum(a)).toBe(getAddress(a));
    }
  });

  it('refuses what is not 40 hex digits, as ethers does', () => {
    for (const bad of ['0x12', `0x${'g'.repeat(40)}`, `0x${'1'.repeat(41)}`]) {
      expect(() => toChecksum(bad)).toThrow();
      expect(() => getAddress(bad)).toThrow();
    }
  });
});
