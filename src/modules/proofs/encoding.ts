// The wire format of a Credence proof: one 0x hex string, the ABI encoding of
//   (uint8 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[5] publicSignals)
// with b's coordinates in the order Solidity's pairing precompile wants (swapped against snarkjs), so the
// string goes unchanged into ReputationOracle.verifyProofFor / CredentialVerifier.verifyAgeProof. In both circuits
// publicSignals[2] is the subject and publicSignals[4] the expiry validUntil (Unix seconds).
// Every member is a uint256 (static arrays inline), so the encoding is 14 words of 32 bytes in order, read and
// written here directly: viem's ABI coder (~400 modules) no longer loads at every start for it.
import { keccak_256 } from '@noble/hashes/sha3';
import type { Groth16Proof } from 'snarkjs';
import type { ProofType } from './contracts.js';

export type { Groth16Proof };

export const PROOF_TYPE_CODE: Record<ProofType, number> = { ScoreAboveThreshold: 1, AgeVerification: 2, KYCVerified: 3 };
export const PROOF_TYPE_OF_CODE: Record<number, ProofType> = { 1: 'ScoreAboveThreshold', 2: 'AgeVerification', 3: 'KYCVerified' };

/** The ABI words: (uint256 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[5] publicSignals) */
const WORDS = 14;
const UINT256_END = 1n << 256n;
/** 14 words of 32 bytes, as hex with the 0x prefix */
export const PROOF_HEX_LENGTH = 2 + 14 * 64;
/** Index of the public signals every circuit shares. */
export const SUBJECT_SIGNAL = 2;
export const VALID_UNTIL_SIGNAL = 4;
/** The bn128 base field: proof coordinates must be below it (the EVM precompiles refuse others). */
export const FIELD_Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
/** The bn128 scalar field: public signals must be below it. */
export const FIELD_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

export interface DecodedProof {
  proofType: ProofType;
  proof: Groth16Proof;
  publicSignals: bigint[];
}

/** A uint256 as its 32-byte word (hex); out of range throws, as an ABI encoder does. */
function word(v: bigint): string {
  if (v < 0n || v >= UINT256_END) throw new RangeError(`${v} is not a uint256`);
  return v.toString(16).padStart(64, '0');
}

export function encodeProof(type: ProofType, proof: Groth16Proof, publicSignals: string[]): `0x${string}` {
  const n = (s: string) => BigInt(s);
  const words = [
    BigInt(PROOF_TYPE_CODE[type]),
    ...[n(proof.pi_a[0]), n(proof.pi_a[1])],
    ...[n(proof.pi_b[0][1]), n(proof.pi_b[0][0]), n(proof.pi_b[1][1]), n(proof.pi_b[1][0])],
    ...[n(proof.pi_c[0]), n(proof.pi_c[1])],
    ...[n(publicSignals[0]), n(publicSignals[1]), n(publicSignals[2]), n(publicSignals[3]), n(publicSignals[4])],
  ];
  return `0x${words.map(word).join('')}`;
}

/** null for anything that is not exactly a well-formed Credence proof string (never throws). */
export function decodeProof(hex: string): DecodedProof | null {
  if (hex.length !== PROOF_HEX_LENGTH || !/^0x[0-9a-fA-F]+$/.test(hex)) return null;
  const w = Array.from({ length: WORDS }, (_, i) => BigInt(`0x${hex.slice(2 + i * 64, 2 + (i + 1) * 64)}`));
  const [t, a, b, c, pub] = [w[0]!, w.slice(1, 3), [w.slice(3, 5), w.slice(5, 7)], w.slice(7, 9), w.slice(9, 14)];
  const proofType = PROOF_TYPE_OF_CODE[Number(t)];
  if (!proofType || t > 3n) return null;
  // A coordinate plus Q would still pass a verifier that reduces modulo Q; the chain refuses it, so do we.
  if ([...a, ...b.flat(), ...c].some((v) => v >= FIELD_Q)) return null;
  const s = (v: bigint) => v.toString();
  return {
    proofType,
    proof: {
      pi_a: [s(a[0]), s(a[1]), '1'],
      pi_b: [
        [s(b[0][1]), s(b[0][0])],
        [s(b[1][1]), s(b[1][0])],
        ['1', '0'],
      ],
      pi_c: [s(c[0]), s(c[1]), '1'],
      protocol: 'groth16',
      curve: 'bn128',
    },
    publicSignals: [...pub],
  };
}

/** keccak256 of the category name: publicInputs.categoryHash of score proofs. Informational only (a stable
 *  identifier of the category for consumers that key by hash); neither the circuit nor the contracts use it, they
 *  take the integer categoryId. Accepted as a claim at verify time. */
export const categoryHash = (category: string): `0x${string}` => {
  let h = categoryHashes.get(category);
  if (!h) categoryHashes.set(category, (h = `0x${Buffer.from(keccak_256(Buffer.from(category, 'utf8'))).toString('hex')}`));
  return h;
};
const categoryHashes = new Map<string, `0x${string}`>();

/** The calendar date yyyymmdd (UTC) of an instant, as the age circuit takes dates. */
export function yyyymmdd(d: Date): number {
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Whether a yyyymmdd integer is a real calendar date. */
export function isCalendarDate(n: number): boolean {
  if (!Number.isInteger(n) || n < 1000101 || n > 99991231) return false;
  const y = Math.floor(n / 10000);
  const m = Math.floor(n / 100) % 100;
  const d = n % 100;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
