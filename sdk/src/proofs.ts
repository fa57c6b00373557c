// Verifies a Credence proof offline, with the published verification keys (GET /api/v1/proofs/verification-keys,
// fetch them once and keep them) and snarkjs: no call to the service per proof. The proof string is the ABI
// encoding of (uint8 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[5] publicSignals), b with
// its coordinates swapped for Solidity; publicSignals[2] is the subject and publicSignals[4] the expiry (validUntil).
// snarkjs is imported once and its curve kept for the next call; its worker threads are unref'd between calls,
// so a script that verifies proofs exits when it is done.
import type { components } from './schema.js';

export type VerificationKeys = components['schemas'] extends { ListVerificationKeysResponse: infer T }
  ? T
  : { circuits: { proofTypes: string[]; verificationKey: Record<string, unknown> }[] };

const PROOF_TYPES: Record<number, string> = { 1: 'ScoreAboveThreshold', 2: 'AgeVerification', 3: 'KYCVerified' };
const FIELD_Q = 21888242871839275222246405745257275088696311157297823662689037894645226208583n;
const WORDS = 14;
const PROOF_HEX_LENGTH = 2 + WORDS * 64;

/** snarkjs's own form of a Groth16 proof (what `groth16.verify` and `groth16.exportSolidityCallData` take). */
export interface SnarkjsProof {
  pi_a: string[];
  pi_b: string[][];
  pi_c: string[];
  protocol: 'groth16';
  curve: 'bn128';
}

export interface DecodedProof {
  proofType: string;
  proof: SnarkjsProof;
  publicSignals: string[];
}

export interface OfflineVerification {
  valid: boolean;
  proofType: string | null;
  /** the wallet the proof is about (checksummed when viem or ethers is installed, else lowercase) */
  subject: string | null;
  /** Unix seconds after which the proof is no longer accepted */
  validUntil: number | null;
  publicSignals: string[];
  reason?: string;
}

/** The ABI-encoded proof as snarkjs's `{proof, publicSignals}`, or null when it is not a well-formed Credence proof. */
export function decodeProof(hex: string): DecodedProof | null {
  if (hex.length !== PROOF_HEX_LENGTH || !/^0x[0-9a-fA-F]+$/.test(hex)) return null;
  // every member is a static type: the encoding is 14 words in order
  const w = Array.from({ length: WORDS }, (_, i) => BigInt(`0x${hex.slice(2 + i * 64, 2 + (i + 1) * 64)}`));
  const [t, a0, a1, b00, b01, b10, b11, c0, c1, ...pub] = w;
  const proofType = PROOF_TYPES[Number(t)];
  if (t > 255n || !proofType || [a0, a1, b00, b01, b10, b11, c0, c1].some((v) => v >= FIELD_Q)) return null;
  const s = (v: bigint) => v.toString();
  return {
    proofType,
    proof: {
      pi_a: [s(a0), s(a1), '1'],
      pi_b: [
        [s(b01), s(b00)],
        [s(b11), s(b10)],
        ['1', '0'],
      ],
      pi_c: [s(c0), s(c1), '1'],
      protocol: 'groth16',
      curve: 'bn128',
    },
    publicSignals: pub.map(s),
  };
}

interface Snarkjs {
  groth16: { verify(vk: unknown, pub: string[], proof: unknown): Promise<boolean> };
  curves: { getCurveFromName(n: string): Promise<{ tm?: { workers?: unknown[] }; terminate(): Promise<void> }> };
}
let snarkjs: Promise<Snarkjs> | null = null;
let inFlight = 0;
const WORKER = Symbol.for('worker'); // web-worker's handle on the worker_threads Worker

/** ref() while verifying, unref() when idle: the curve stays warm without holding the process open. */
async function holdWorkers(s: Snarkjs, hold: boolean) {
  const curve = await s.curves.getCurveFromName('bn128');
  for (const w of curve.tm?.workers ?? []) {
    const t = (w as Record<symbol, { ref?(): void; unref?(): void } | undefined>)?.[WORKER];
    if (hold) t?.ref?.();
    else t?.unref?.();
  }
}

/** Stops snarkjs's worker threads now (they restart on the next verification). Optional: idle workers never hold the process. */
export async function releaseProofVerifier(): Promise<void> {
  if (!snarkjs) return;
  const s = await snarkjs;
  snarkjs = null;
  await (await s.curves.getCurveFromName('bn128')).terminate();
}

async function checksum(address: string): Promise<string> {
  for (const mod of ['viem', 'ethers']) {
    try {
      const m = (await import(mod)) as { getAddress?: (a: string) => string };
      if (m.getAddress) return m.getAddress(address);
    } catch {
      /* not installed: try the next */
    }
  }
  return address;
}

/** `snarkjs` is an optional peer dependency: install it to verify offline. */
export async function verifyProofOffline(
  proof: string | { proof: SnarkjsProof; publicSignals: string[]; proofType?: string },
  keys: VerificationKeys,
  { now = Date.now() } = {},
): Promise<OfflineVerification> {
  const decoded =
    typeof proof === 'string'
      ? decodeProof(proof)
      : proof.proofType
        ? { proofType: proof.proofType, proof: proof.proof, publicSignals: proof.publicSignals }
        : null;
  if (!decoded)
    return {
      valid: false,
      proofType: null,
      subject: null,
      validUntil: null,
      publicSignals: [],
      reason: 'not a well-formed Credence proof',
    };
  const subject = await checksum(
    `0x${BigInt(decoded.publicSignals[2] ?? '0')
      .toString(16)
      .padStart(40, '0')}`,
  );
  const validUntil = Number(decoded.publicSignals[4]);
  const base = { proofType: decoded.proofType, subject, validUntil, publicSignals: decoded.publicSignals };
  const circuit = (keys as { circuits: { proofTypes: string[]; verificationKey: unknown }[] }).circuits.find((c) =>
    c.proofTypes.includes(decoded.proofType),
  );
  if (!circuit) return { ...base, valid: false, reason: `no verification key for ${decoded.proofType}` };
  snarkjs ??= import('snarkjs' as string) as Promise<Snarkjs>;
  const s = await snarkjs;
  inFlight++;
  await holdWorkers(s, true);
  try {
    const ok = await s.groth16.verify(circuit.verificationKey, decoded.publicSignals, decoded.proof);
    if (!ok) return { ...base, valid: false, reason: 'the Groth16 check failed' };
    // only a sound proof's validUntil is its own: a tampered one is invalid, whatever date it now reads
    return validUntil * 1000 < now ? { ...base, valid: false, reason: 'expired (validUntil is in the past)' } : { ...base, valid: true };
  } finally {
    if (--inFlight === 0) await holdWorkers(s, false);
  }
}
