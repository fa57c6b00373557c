// The proof string written and read by hand (14 ABI words) is exactly what viem's ABI coder makes and reads, and the
// category hash is viem's keccak256 of the name.
import { randomBytes } from 'node:crypto';
import { decodeAbiParameters, encodeAbiParameters, keccak256, toBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { CATEGORIES } from '../scoring/contracts.js';
import { FIELD_Q, PROOF_HEX_LENGTH, categoryHash, decodeProof, encodeProof, type Groth16Proof } from './encoding.js';

const ABI = [
  { type: 'uint256', name: 'proofType' },
  { type: 'uint256[2]', name: 'a' },
  { type: 'uint256[2][2]', name: 'b' },
  { type: 'uint256[2]', name: 'c' },
  { type: 'uint256[5]', name: 'publicSignals' },
] as const;

const below = (m: bigint) => (BigInt(`0x${randomBytes(32).toString('hex')}`) % m).toString();
const randomProof = (): Groth16Proof => ({
  pi_a: [below(FIELD_Q), below(FIELD_Q), '1'],
  pi_b: [
    [below(FIELD_Q), below(FIELD_Q)],
    [below(FIELD_Q), below(FIELD_Q)],
    ['1', '0'],
  ],
  pi_c: [below(FIELD_Q), below(FIELD_Q), '1'],
  protocol: 'groth16',
  curve: 'bn128',
});

describe('proof encoding', () => {
  it('writes what viem encodes and reads it back', () => {
    for (let i = 0; i < 200; i++) {
      const proof = randomProof();
      const signals = Array.from({ length: 5 }, () => below(1n << 256n));
      const n = BigInt;
      const viaViem = encodeAbiParameters(ABI, [
        2n,
        [n(proof.pi_a[0]), n(proof.pi_a[1])],
        [
          [n(proof.pi_b[0][1]), n(proof.pi_b[0][0])],
          [n(proof.pi_b[1][1]), n(proof.pi_b[1][0])],
        ],
        [n(proof.pi_c[0]), n(proof.pi_c[1])],
        [n(signals[0]), n(signals[1]), n(signals[2]), n(signals[3]), n(signals[4])],
      ]);
      const hex = encodeProof('AgeVerification', proof, signals);
      expect(hex).toBe(viaViem);
      expect(hex.length).toBe(PROOF_HEX_LENGTH);
      const decoded = decodeProof(hex)!;
      expect(decoded.proof).toEqual(proof);
      expect(decoded.publicSignals).toEqual([...decodeAbiParameters(ABI, viaViem)[4]]);
    }
  });

  it('refuses a value out of a uint256, and a string that is not one proof', () => {
    expect(() => encodeProof('KYCVerified', randomProof(), ['-1', '0', '0', '0', '0'])).toThrow();
    expect(() => encodeProof('KYCVerified', randomProof(), [(1n << 256n).toString(), '0', '0', '0', '0'])).toThrow();
    const hex = encodeProof('KYCVerified', randomProof(), ['1', '2', '3', '4', '5']);
    expect(decodeProof(hex.slice(0, -2))).toBeNull();
    expect(decodeProof(`${hex.slice(0, -1)}g`)).toBeNull();
    expect(decodeProof(`0x${'0'.repeat(63)}4${hex.slice(66)}`)).toBeNull(); // proof type 4
  });

  it('hashes category names as viem does', () => {
    for (const c of [...CATEGORIES, 'é-unicode']) expect(categoryHash(c)).toBe(keccak256(toBytes(c)));
  });
});
