// The committed zero-knowledge artifacts are the ones the manifest names, each final zkey is a correct phase-2 key
// for its circuit and the committed ptau (snarkjs zkey verify), and they are labelled for what they are: a
// single-party development setup, whose contributions are read from the files themselves.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import {
  BUILD_DIR,
  CIRCUIT_NAMES,
  DEV_PTAU,
  circuitFiles,
  loadManifest,
  manifestMismatches,
  multiParty,
  setupSummary,
} from './artifacts.js';

afterAll(async () => {
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

describe('circuit artifacts', () => {
  it('match the sha256 manifest', () => {
    const manifest = loadManifest();
    expect(manifest.ptauPower).toBe(10);
    expect(Object.keys(manifest.files)).toEqual(
      expect.arrayContaining([
        '../ptau/pot10_final.ptau',
        '../../contracts/src/verifiers/ScoreThresholdVerifier.sol',
        '../../contracts/src/verifiers/AgeOverVerifier.sol',
      ]),
    );
    for (const n of CIRCUIT_NAMES) expect(Object.keys(manifest.files)).toContain(path.relative(BUILD_DIR, circuitFiles(n).zkey));
    expect(manifestMismatches()).toEqual([]);
  });

  it('detects a file that differs from the manifest', () => {
    const manifest = loadManifest();
    const file = path.relative(BUILD_DIR, circuitFiles('score_threshold').vkey);
    expect(manifestMismatches({ ...manifest, files: { [file]: '0'.repeat(64) } })).toEqual([file]);
  });

  it('are labelled a single-party development setup', () => {
    const s = setupSummary();
    expect(s).toMatchObject({ kind: 'dev', phase1Contributors: 1, phase2Contributors: 1, beacon: true });
    expect(multiParty(s)).toBe(false);
  });

  it.each(CIRCUIT_NAMES)('%s: zkey verify (r1cs + ptau + final zkey)', async (name) => {
    const f = circuitFiles(name);
    const ok = await snarkjs.zKey.verifyFromR1cs(f.r1cs, DEV_PTAU, f.zkey);
    expect(ok).toBe(true);
  });
});
