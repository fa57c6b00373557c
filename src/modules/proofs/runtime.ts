// The proving runtime, made on first use (most instances of the app never prove): a pool of proving threads and
// a pool of verifying threads. Nothing of it runs on the request thread: the threads read the committed artifacts
// (checked against the manifest), build their curves and witness calculators, and answer jobs.
import { AppError } from '../../platform/errors.js';
import {
  BUILD_DIR,
  CIRCUIT_NAMES,
  circuitFiles,
  loadManifest,
  loadVerificationKey,
  manifestSum,
  setupSummary,
  type CircuitName,
} from './artifacts.js';
import type { Groth16Proof } from './encoding.js';
import { createThreadPool, JobError } from './thread-pool.js';

export interface ProofRuntime {
  prove(circuit: CircuitName, input: Record<string, string>): Promise<{ proof: Groth16Proof; publicSignals: string[] }>;
  /** the Groth16 check alone (public signals in range, points on the curve, the pairing equation) */
  verify(circuit: CircuitName, publicSignals: bigint[], proof: Groth16Proof): Promise<boolean>;
  stats(): { provers: { threads: number; busy: number; queued: number }; verifiers: { threads: number; busy: number; queued: number } };
  /** stops every thread */
  close(): Promise<void>;
}

export const CIRCUIT_INFO: Record<CircuitName, { proofTypes: string[]; publicSignals: string[] }> = {
  score_threshold: {
    proofTypes: ['ScoreAboveThreshold'],
    publicSignals: ['threshold', 'categoryId', 'subject', 'commitment', 'validUntil'],
  },
  age_over: {
    proofTypes: ['AgeVerification', 'AgeAboveMinimum', 'KYCVerified'],
    publicSignals: ['currentDate', 'minimumAge', 'subject', 'commitment', 'validUntil'],
  },
};

/** Each circuit's files with the sha256 the manifest names: the threads refuse anything else. */
function artifacts(dir: string) {
  const manifest = loadManifest(dir);
  const sum = (file: string) => manifestSum(manifest, dir, file);
  return Object.fromEntries(
    CIRCUIT_NAMES.map((n) => {
      const f = circuitFiles(n, dir);
      return [n, { wasm: f.wasm, wasmSha256: sum(f.wasm), zkey: f.zkey, zkeySha256: sum(f.zkey), vkey: f.vkey, vkeySha256: sum(f.vkey) }];
    }),
  );
}

export function startRuntime(opts: { provers: number; verifiers: number; dir?: string | null }): ProofRuntime {
  const circuits = artifacts(opts.dir ?? BUILD_DIR);
  const provers = createThreadPool<
    { circuit: CircuitName; input: Record<string, string> },
    { proof: Groth16Proof; publicSignals: string[] }
  >({
    script: new URL('./prover-worker.mjs', import.meta.url),
    size: opts.provers,
    workerData: { circuits },
    label: 'prover',
  });
  const verifiers = createThreadPool<{ circuit: CircuitName; publicSignals: string[]; proof: Groth16Proof }, boolean>({
    script: new URL('./verifier-worker.mjs', import.meta.url),
    size: opts.verifiers,
    workerData: { circuits },
    label: 'verifier',
  });
  return {
    prove: (circuit, input) =>
      provers.run({ circuit, input }).catch((e) => {
        if (e instanceof JobError && e.kind === 'unsatisfiable')
          throw new AppError('proof_unsatisfiable', 'The statement is false for the committed value, so no proof exists.');
        throw e;
      }),
    verify: (circuit, publicSignals, proof) => verifiers.run({ circuit, publicSignals: publicSignals.map(String), proof }),
    stats: () => ({ provers: provers.stats(), verifiers: verifiers.stats() }),
    async close() {
      await Promise.all([provers.close(), verifiers.close()]);
    },
  };
}

export function verificationKeysDocument(dir: string = BUILD_DIR) {
  const manifest = loadManifest(dir);
  return {
    ptauPower: manifest.ptauPower,
    setup: setupSummary(dir),
    circuits: CIRCUIT_NAMES.map((n) => ({
      circuit: n,
      ...CIRCUIT_INFO[n],
      zkeySha256: manifestSum(manifest, dir, circuitFiles(n, dir).zkey),
      verificationKey: loadVerificationKey(n, dir),
    })),
  };
}
