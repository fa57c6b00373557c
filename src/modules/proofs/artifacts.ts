// Where the committed zero-knowledge artifacts live (circuits/build, built by `npm run build:circuits`) and
// the checks that they are the ones the manifest names.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUILD_DIR = path.join(ROOT, 'circuits/build');
export type CircuitName = 'score_threshold' | 'age_over';

/** A Groth16 verification key as snarkjs exports it (verification_key.json). */
export interface VerificationKeyJson {
  protocol: string;
  curve: string;
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
}

export const CIRCUIT_NAMES: CircuitName[] = ['score_threshold', 'age_over'];

export const circuitFiles = (name: CircuitName) => ({
  wasm: path.join(BUILD_DIR, name, `${name}.wasm`),
  zkey: path.join(BUILD_DIR, name, `${name}_final.zkey`),
  r1cs: path.join(BUILD_DIR, name, `${name}.r1cs`),
  vkey: path.join(BUILD_DIR, name, 'verification_key.json'),
});

export const loadVerificationKey = (name: CircuitName): VerificationKeyJson => JSON.parse(readFileSync(circuitFiles(name).vkey, 'utf8'));

export interface Manifest {
  ptauPower: number;
  circuits: string[];
  files: Record<string, string>;
}

export const loadManifest = (): Manifest => JSON.parse(readFileSync(path.join(BUILD_DIR, 'manifest.json'), 'utf8'));

/** Files whose sha256 differs from the manifest (empty when every artifact is the committed one). */
export function manifestMismatches(manifest = loadManifest()): string[] {
  const bad: string[] = [];
  for (const [file, sum] of Object.entries(manifest.files)) {
    let actual: string;
    try {
      actual = createHash('sha256').update(readFileSync(path.join(ROOT, file))).digest('hex');
    } catch {
      actual = 'missing';
    }
    if (actual !== sum) bad.push(file);
  }
  return bad;
}
