// What ingestion now computes without viem at start-up, against viem: the CREATE address of a deployer and nonce
// (rpc-source.ts) and the oracle's getAssetPrice calldata (pricing/reader.ts).
import { randomBytes } from 'node:crypto';
import { encodeFunctionData, getContractAddress, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { getAssetPriceCall } from './pricing/reader.js';
import { createAddress } from './rpc-source.js';

const address = () => `0x${randomBytes(20).toString('hex')}` as `0x${string}`;

describe('encodings made without viem', () => {
  it('derives the CREATE address viem derives, at every nonce size', () => {
    const nonces = [0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 0xffffff, 2 ** 32, 2 ** 40 + 3, Number.MAX_SAFE_INTEGER];
    for (let i = 0; i < 40; i++) nonces.push(Math.floor(Math.random() * 2 ** (1 + (i % 48))));
    for (const nonce of nonces) {
      const from = address();
      expect(createAddress(from, nonce)).toBe(getContractAddress({ from, nonce: BigInt(nonce) }).toLowerCase());
      expect(createAddress(from.toUpperCase().replace('0X', '0x'), nonce)).toBe(createAddress(from, nonce));
    }
    expect(() => createAddress('0x1234', 1)).toThrow();
    expect(() => createAddress(address(), -1)).toThrow();
  });

  it("encodes getAssetPrice's call as viem does", () => {
    const abi = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);
    for (let i = 0; i < 50; i++) {
      const token = address();
      expect(getAssetPriceCall(token)).toBe(encodeFunctionData({ abi, functionName: 'getAssetPrice', args: [token] }));
    }
  });
});
