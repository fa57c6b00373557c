// Where the zero-knowledge artifacts live (by default the committed circuits/build, made by
// `npm run build:circuits`; CREDENCE_CIRCUITS_DIR for the output of a `credence ceremony finalize`), the checks
// that they are the ones the directory's manifest names, and who took part in their setup (setup.json).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ptauContributions, zkeyContributions, type Contribution } from './setup-info.js';
import type { ContractArtifact } from './solidity.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const BUILD_DIR = path.join(ROOT, 'circuits/build');

/** A compiled contract of contracts/artifacts (npm run build:contracts). */
export const loadArtifact = (name: string): ContractArtifact =>
  JSON.parse(readFileSync(path.join(ROOT, 'contracts/artifacts', `${name}.json`), 'utf8'));
/** The committed phase-1 file the committed (dev) artifacts were made from. */
export const DEV_PTAU = path.join(ROOT, 'circuits/ptau/pot10_final.ptau');
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
/** circuit -> the name of its exported Solidity verifier (snarkjs calls both Groth16Verifier) */
export const VERIFIER_NAMES: Record<CircuitName, string> = { score_threshold: 'ScoreThresholdVerifier', age_over: 'AgeOverVerifier' };

export const circuitFiles = (name: CircuitName, dir = BUILD_DIR) => ({
  wasm: path.join(dir, name, `${name}.wasm`),
  zkey: path.join(dir, name, `${name}_final.zkey`),
  r1cs: path.join(dir, name, `${name}.r1cs`),
  vkey: path.join(dir, name, 'verification_key.json'),
});

export const loadVerificationKey = (name: CircuitName, dir = BUILD_DIR): VerificationKeyJson =>
  JSON.parse(readFileSync(circuitFiles(name, dir).vkey, 'utf8'));

export interface Manifest {
  ptauPower: number;
  circuits: string[];
  /** path relative to the artifacts directory -> sha256 */
  files: Record<string, string>;
}

export const loadManifest = (dir = BUILD_DIR): Manifest => JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));

/** The manifest's sha256 of a file of the directory. */
export const manifestSum = (manifest: Manifest, dir: string, file: string): string =>
  manifest.files[path.relative(dir, file)] ?? 'not in the manifest';

/** Files whose sha256 differs from the manifest (empty when every artifact is the one it names). */
export function manifestMismatches(manifest = loadManifest(), dir = BUILD_DIR): string[] {
  const bad: string[] = [];
  for (const [file, sum] of Object.entries(manifest.files)) {
    let actual: string;
    try {
      actual = createHash('sha256')
        .update(readFileSync(path.join(dir, file)))
        .digest('hex');
    } catch {
      actual = 'missing';
    }
    if (actual !== sum) bad.push(file);
  }
  return bad;
}

/** setup.json beside the artifacts: how they were made (written by build:circuits or `credence ceremony finalize`). */
export interface SetupRecord {
  /** dev: single-party development setup (tests, demo); ceremony: multi-party phase 2 on a public phase 1 */
  kind: 'dev' | 'ceremony';
  label: string;
  ptau: { file: string; sha256: string; power: number; contributions: Contribution[] };
  /** the ceremony transcript: every step with the sha256 of each zkey it produced */
  transcript: unknown;
}

export interface SetupSummary {
  kind: 'dev' | 'ceremony';
  label: string;
  /** non-beacon contributions to phase 1 (the ptau) and, per circuit, the fewest to phase 2, read from the files */
  phase1Contributors: number;
  phase2Contributors: number;
  contributors: string[];
  beacon: boolean;
}

/**
 * What the artifacts' own files say about their setup: phase-2 contributions are read from each final zkey (the
 * fewest across circuits), phase 1 from setup.json's record of the ptau (checked against the ptau by
 * `credence ceremony verify`). Missing setup.json: treated as a dev setup.
 */
export function setupSummary(dir = BUILD_DIR): SetupSummary {
  const file = path.join(dir, 'setup.json');
  const rec: SetupRecord | null = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
  const perCircuit = CIRCUIT_NAMES.map((n) => zkeyContributions(circuitFiles(n, dir).zkey));
  const fewest = perCircuit.reduce((a, b) => (b.filter((c) => !c.beacon).length < a.filter((c) => !c.beacon).length ? b : a));
  const phase1 = rec?.ptau.contributions ?? (existsSync(DEV_PTAU) && dir === BUILD_DIR ? ptauContributions(DEV_PTAU) : []);
  return {
    kind: rec?.kind ?? 'dev',
    label: rec?.label ?? 'development setup',
    phase1Contributors: phase1.filter((c) => !c.beacon).length,
    phase2Contributors: fewest.filter((c) => !c.beacon).length,
    contributors: fewest.filter((c) => !c.beacon).map((c) => c.name),
    beacon: perCircuit.every((cs) => cs.at(-1)?.beacon === true),
  };
}

/** Whether artifacts are fit for a public chain: at least two independent parties in each phase. */
export const multiParty = (s: SetupSummary) => s.phase1Contributors >= 2 && s.phase2Contributors >= 2;
