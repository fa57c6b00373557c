// The multi-party phase 2 (issue 13, "a setup users can trust"), as docs/proofs.md documents it: a ceremony on the
// committed power-10 ptau with three local contributors (one of them through `credence ceremony contribute` in a
// directory holding nothing but the ceremony files, as on another machine), a beacon, verify, finalize. The output
// passes `snarkjs zkey verify` and the service proves and verifies with it (CREDENCE_CIRCUITS_DIR).
import { execFile } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import { createKey, createTestApp, randomAddress } from '../../../test/helpers/app.js';
import { toChecksum } from '../../platform/http/address.js';
import { CIRCUIT_NAMES, DEV_PTAU, ROOT, circuitFiles, manifestMismatches, loadManifest, setupSummary } from './artifacts.js';
import { ceremonyBeacon, ceremonyContribute, ceremonyFinalize, ceremonyInit, ceremonyVerify, readTranscript } from './ceremony.js';
import { setScore } from './test-support.js';

const work = mkdtempSync(path.join(tmpdir(), 'credence-ceremony-'));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

const cli = (args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [path.join(ROOT, 'bin/credence.mjs'), 'ceremony', ...args], { cwd, timeout: 240_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );

describe('credence ceremony', () => {
  it('refuses a phase-1 file with fewer contributions than required', async () => {
    await expect(ceremonyInit({ dir: path.join(work, 'too-few'), ptau: DEV_PTAU, minContributions: 2 })).rejects.toThrow(/1 contribution\(s\), fewer than the 2 required/);
  });

  it('three contributors, a beacon, verify and finalize give keys snarkjs accepts and the service uses', async () => {
    const dir = path.join(work, 'ceremony');
    const out = path.join(work, 'artifacts');
    await ceremonyInit({ dir, ptau: DEV_PTAU, minContributions: 1 });
    await ceremonyContribute({ dir, name: 'alice' });

    // bob works "on another machine": he gets only the ceremony directory and runs the command there
    const bobMachine = mkdtempSync(path.join(tmpdir(), 'credence-bob-'));
    cpSync(dir, path.join(bobMachine, 'ceremony'), { recursive: true });
    const said = await cli(['contribute', '--dir', 'ceremony', '--name', 'bob', '--entropy', 'bob types some keys'], bobMachine);
    expect(said).toMatch(/contribution #2 recorded/);
    rmSync(dir, { recursive: true });
    cpSync(path.join(bobMachine, 'ceremony'), dir, { recursive: true });
    rmSync(bobMachine, { recursive: true, force: true });

    await ceremonyContribute({ dir, name: 'carol' });
    await ceremonyBeacon({ dir, hash: 'a1'.repeat(32), iterations: 10 });
    await expect(ceremonyContribute({ dir, name: 'mallory' })).rejects.toThrow(/beacon was applied/);
    // finalize runs `credence ceremony verify` (transcript hashes, contributions per zkey, snarkjs zkey verify) first
    const record = await ceremonyFinalize({ dir, ptau: DEV_PTAU, out });
    const t = record.transcript as ReturnType<typeof readTranscript>;
    expect(t.steps.map((s) => `${s.kind}:${s.name}`)).toEqual(['init:init', 'contribution:alice', 'contribution:bob', 'contribution:carol', 'beacon:beacon']);
    for (const s of t.steps.slice(1)) for (const c of CIRCUIT_NAMES) expect(s.zkeys[c].contributionHash).toMatch(/^[0-9a-f]{128}$/);

    expect(manifestMismatches(loadManifest(out), out)).toEqual([]);
    for (const c of CIRCUIT_NAMES) {
      const f = circuitFiles(c, out);
      expect(await snarkjs.zKey.verifyFromR1cs(f.r1cs, DEV_PTAU, f.zkey)).toBe(true);
    }
    expect(setupSummary(out)).toMatchObject({ kind: 'ceremony', phase2Contributors: 3, contributors: ['alice', 'bob', 'carol'], beacon: true });
    expect(readTranscript(dir).steps).toHaveLength(5);

    // the service proves with the ceremony's keys and says so
    const app = await createTestApp({ config: { circuitsDir: out } });
    try {
      const key = await createKey(app, 'Growth');
      const wallet = randomAddress();
      await setScore(app, wallet, 'SOCIAL', 610);
      const res = await app.inject({ method: 'POST', url: '/api/v1/reputation/prove', headers: key.headers, payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: 600 } });
      expect(res.statusCode, res.body).toBe(200);
      const v = await app.inject({ method: 'POST', url: '/api/v1/reputation/verify', headers: key.headers, payload: { proof: res.json().proof } });
      expect(v.json()).toMatchObject({ valid: true, subject: toChecksum(wallet) });
      const keys = (await app.inject({ method: 'GET', url: '/api/v1/proofs/verification-keys' })).json();
      expect(keys.setup).toMatchObject({ kind: 'ceremony', phase2Contributors: 3 });
      expect((await app.inject({ method: 'GET', url: '/health' })).json().proofSetup).toMatchObject({ kind: 'ceremony', contributors: ['alice', 'bob', 'carol'], beacon: true });
    } finally {
      await app.close();
    }

    // a zkey that is not the one the transcript names is refused
    appendFileSync(path.join(dir, 'score_threshold', 'score_threshold_0004.zkey'), Buffer.from([0]));
    await expect(ceremonyVerify({ dir, ptau: DEV_PTAU })).rejects.toThrow(/not the zkey the transcript names/);
  }, 600_000);
});
