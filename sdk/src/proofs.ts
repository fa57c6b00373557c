// Verifies a Credence proof offline, with the published verification keys (GET /api/v1/proofs/verification-keys,
// fetch them once and keep them) and snarkjs: no call to the service per proof. The proof string is the ABI
// encoding of (uint8 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[5] publicSignals), b with
// its coordinates swapped for Solidity; publicSignals[2] is the subject and publicSignals[4] the expiry (validUntil).
import { AbiCoder, getAddress, toBeHex } from 'ethers';
import type { components } from './schema.js';

export type VerificationKeys = components['schemas'] extends { ListVerificationKeysResponse: infer T } ? T : { circuits: { proofTypes: string[]; verificationKey: Record<string, unknown> }[] };

const PROOF_TYPES: Record<number, string> = { 1: 'ScoreAboveThreshold', 2: 'AgeVerification', 3: 'KYCVerified' };
const FIELD_Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const PROOF_HEX_LENGTH = 2 + 14 * 64;

export interface DecodedProof {
  proofType: string;
  proof: { pi_a: string[]; pi_b: string[][]; pi_c: string[]; protocol: 'groth16'; curve: 'bn128' };
  publicSignals: string[];
}

export interface OfflineVerification {
  valid: boolean;
  proofType: string | null;
  /** the wallet the proof is about (checksummed) */
  subject: string | null;
  /** Unix seconds after which the proof is no longer accepted */
  validUntil: number | null;
  publicSignals: string[];
  reason?: string;
}

export function decodeProof(hex: string): DecodedProof | null {
  if (hex.length !== PROOF_HEX_LENGTH || !/^0x[0-9a-fA-F]+$/.test(hex)) return null;
  let t: bigint, a: bigint[], b: bigint[][], c: bigint[], pub: bigint[];
  try {
    const r = AbiCoder.defaultAbiCoder().decode(['uint256', 'uint256[2]', 'uint256[2][2]', 'uint256[2]', 'uint256[5]'], hex);
    [t, a, b, c, pub] = [r[0], [...r[1]], [...r[2]].map((x: bigint[]) => [...x]), [...r[3]], [...r[4]]];
  } catch {
    return null;
  }
  const proofType = PROOF_TYPES[Number(t)];
  if (!proofType || [...a, ...b.flat(), ...c].some((v) => v >= FIELD_Q)) return null;
  const s = (v: bigint) => v.toString();
  return {
    proofType,
    proof: {
      pi_a: [s(a[0]), s(a[1]), '1'],
      pi_b: [[s(b[0][1]), s(b[0][0])], [s(b[1][1]), s(b[1][0])], ['1', '0']],
      pi_c: [s(c[0]), s(c[1]), '1'],
      protocol: 'groth16',
      curve: 'bn128',
    },
    publicSignals: pub.map(s),
  };
}

/** `snarkjs` is an optional peer dependency: install it to verify offline. */
export async function verifyProofOffline(proofHex: string, keys: VerificationKeys, { now = Date.now() } = {}): Promise<OfflineVerification> {
  const decoded = decodeProof(proofHex);
  if (!decoded) return { valid: false, proofType: null, subject: null, validUntil: null, publicSignals: [], reason: 'not a well-formed Credence proof' };
  const subject = getAddress(toBeHex(BigInt(decoded.publicSignals[2]), 20));
  const validUntil = Number(decoded.publicSignals[4]);
  const base = { proofType: decoded.proofType, subject, validUntil, publicSignals: decoded.publicSignals };
  const circuit = (keys as { circuits: { proofTypes: string[]; verificationKey: unknown }[] }).circuits.find((c) => c.proofTypes.includes(decoded.proofType));
  if (!circuit) return { ...base, valid: false, reason: `no verification key for ${decoded.proofType}` };
  if (validUntil * 1000 < now) return { ...base, valid: false, reason: 'expired (validUntil is in the past)' };
  const snarkjs = (await import('snarkjs' as string)) as { groth16: { verify(vk: unknown, pub: string[], proof: unknown): Promise<boolean> } };
  const ok = await snarkjs.groth16.verify(circuit.verificationKey, decoded.publicSignals, decoded.proof);
  return ok ? { ...base, valid: true } : { ...base, valid: false, reason: 'the Groth16 check failed' };
}
