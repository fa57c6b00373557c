// The proving runtime, made on first use (most instances of the app never prove): the committed artifacts
// checked against the manifest, the verification keys prepared, the prover threads started.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { CIRCUIT_NAMES, ROOT, circuitFiles, loadManifest, loadVerificationKey } from './artifacts.js';
import { createProverPool, type CircuitName, type ProverPool } from './prover-pool.js';
import { acquireCurve, prepareKey, releaseCurve, type PreparedKey } from './verifier.js';

export interface ProofRuntime {
  pool: ProverPool;
  keys: Record<CircuitName, PreparedKey>;
  /** stops the prover threads and lets go of the verification curve */
  close(): Promise<void>;
}

export const CIRCUIT_INFO: Record<CircuitName, { proofTypes: string[]; publicSignals: string[] }> = {
  score_threshold: { proofTypes: ['ScoreAboveThreshold'], publicSignals: ['threshold', 'categoryId', 'subject', 'commitment'] },
  age_over: { proofTypes: ['AgeVerification', 'AgeAboveMinimum', 'KYCVerified'], publicSignals: ['currentDate', 'minimumAge', 'subject', 'commitment'] },
};

/** Refuses artifacts that are not the committed ones: proofs from other keys would fail the deployed verifiers. */
export function checkArtifacts(): void {
  const manifest = loadManifest();
  for (const name of CIRCUIT_NAMES) {
    const f = circuitFiles(name);
    for (const file of [f.wasm, f.zkey, f.vkey]) {
      const rel = path.relative(ROOT, file);
      const sum = createHash('sha256').update(readFileSync(file)).digest('hex');
      if (manifest.files[rel] !== sum) throw new Error(`${rel} does not match circuits/build/manifest.json; run npm run build:circuits`);
    }
  }
}

export async function startRuntime(concurrency: number): Promise<ProofRuntime> {
  checkArtifacts();
  const circuits = Object.fromEntries(CIRCUIT_NAMES.map((n) => [n, { wasm: circuitFiles(n).wasm, zkey: circuitFiles(n).zkey }])) as Record<CircuitName, { wasm: string; zkey: string }>;
  const pool = createProverPool({ size: concurrency, circuits });
  acquireCurve();
  const keys = {} as Record<CircuitName, PreparedKey>;
  for (const n of CIRCUIT_NAMES) keys[n] = await prepareKey(loadVerificationKey(n));
  return {
    pool,
    keys,
    async close() {
      await pool.close();
      await releaseCurve();
    },
  };
}

export function verificationKeysDocument() {
  const manifest = loadManifest();
  return {
    ptauPower: manifest.ptauPower,
    circuits: CIRCUIT_NAMES.map((n) => ({
      circuit: n,
      ...CIRCUIT_INFO[n],
      zkeySha256: manifest.files[path.relative(ROOT, circuitFiles(n).zkey)],
      verificationKey: loadVerificationKey(n),
    })),
  };
}
