// The committed zero-knowledge artifacts are the ones the manifest names, and each final zkey is a correct
// phase-2 key for its circuit and the committed ptau (snarkjs zkey verify).
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import { CIRCUIT_NAMES, ROOT, circuitFiles, loadManifest, manifestMismatches } from './artifacts.js';

afterAll(async () => {
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

describe('circuit artifacts', () => {
  it('match the sha256 manifest', () => {
    const manifest = loadManifest();
    expect(manifest.ptauPower).toBe(10);
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining(['circuits/ptau/pot10_final.ptau', 'contracts/src/verifiers/ScoreThresholdVerifier.sol', 'contracts/src/verifiers/AgeOverVerifier.sol']),
    );
    for (const n of CIRCUIT_NAMES) expect(Object.keys(manifest.files)).toContain(path.relative(ROOT, circuitFiles(n).zkey));
    expect(manifestMismatches()).toEqual([]);
  });

  it('detects a file that differs from the manifest', () => {
    const manifest = loadManifest();
    const file = path.relative(ROOT, circuitFiles('score_threshold').vkey);
    expect(manifestMismatches({ ...manifest, files: { [file]: '0'.repeat(64) } })).toEqual([file]);
  });

  it.each(CIRCUIT_NAMES)('%s: zkey verify (r1cs + ptau + final zkey)', async (name) => {
    const f = circuitFiles(name);
    const ok = await snarkjs.zKey.verifyFromR1cs(f.r1cs, path.join(ROOT, 'circuits/ptau/pot10_final.ptau'), f.zkey);
    expect(ok).toBe(true);
  });
});
