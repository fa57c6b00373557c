// The multi-party phase 2 (a setup users can trust), as docs/proofs.md documents it: a ceremony on the
// committed power-10 ptau with three local contributors (one of them through `credence ceremony contribute` in a
// directory holding nothing but the ceremony files, as on another machine), a beacon, verify, finalize. The output
// passes `snarkjs zkey verify` and the service proves and verifies with it (CREDENCE_CIRCUITS_DIR).
// Then the path to the chain, on an in-process Hardhat network: `credence contracts deploy --circuits <out>` deploys
// the ceremony's verifiers (compiled by finalize) and a service proof verifies on-chain through verifyProofFor; the
// dev contracts with the ceremony's keys make the service refuse to publish, and say why.
import { execFile } from 'node:child_process';
import { appendFileSync, copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as snarkjs from 'snarkjs';
import type { Address, Hex } from 'viem';
import { createKey, createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import type { Config } from '../../platform/config.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';
import {
  CIRCUIT_NAMES,
  DEV_PTAU,
  ROOT,
  VERIFIER_NAMES,
  circuitFiles,
  manifestMismatches,
  loadManifest,
  setupSummary,
} from './artifacts.js';
import { ceremonyBeacon, ceremonyContribute, ceremonyFinalize, ceremonyInit, ceremonyVerify, readTranscript } from './ceremony.js';
import { connectChain, deployContracts, loadArtifact } from './chain.js';
import { runContractsCommand } from './cli.js';
import { setScore } from './test-support.js';

const work = mkdtempSync(path.join(tmpdir(), 'credence-ceremony-'));
// the ceremony's output, made once by the first test and deployed by the next ones
const out = path.join(work, 'artifacts');
let local: LocalChain | undefined;
afterAll(async () => {
  await local?.stop();
  rmSync(work, { recursive: true, force: true });
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

const cli = (args: string[], cwd: string) =>
  new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/credence.mjs'), 'ceremony', ...args],
      { cwd, timeout: 240_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stdout}\n${stderr}`)) : resolve(stdout)),
    ),
  );

describe('credence ceremony', () => {
  it('refuses a phase-1 file with fewer contributions than required', async () => {
    await expect(ceremonyInit({ dir: path.join(work, 'too-few'), ptau: DEV_PTAU, minContributions: 2 })).rejects.toThrow(
      /1 contribution\(s\), fewer than the 2 required/,
    );
  });

  it('three contributors, a beacon, verify and finalize give keys snarkjs accepts and the service uses', async () => {
    const dir = path.join(work, 'ceremony');
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
    expect(t.steps.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'init:init',
      'contribution:alice',
      'contribution:bob',
      'contribution:carol',
      'beacon:beacon',
    ]);
    for (const s of t.steps.slice(1)) for (const c of CIRCUIT_NAMES) expect(s.zkeys[c].contributionHash).toMatch(/^[0-9a-f]{128}$/);

    expect(manifestMismatches(loadManifest(out), out)).toEqual([]);
    // finalize compiled the verifiers of the new keys, for credence contracts deploy (no compiler needed there)
    for (const name of Object.values(VERIFIER_NAMES)) expect(loadManifest(out).files[`verifiers/${name}.json`]).toMatch(/^[0-9a-f]{64}$/);
    for (const c of CIRCUIT_NAMES) {
      const f = circuitFiles(c, out);
      expect(await snarkjs.zKey.verifyFromR1cs(f.r1cs, DEV_PTAU, f.zkey)).toBe(true);
    }
    expect(setupSummary(out)).toMatchObject({
      kind: 'ceremony',
      phase2Contributors: 3,
      contributors: ['alice', 'bob', 'carol'],
      beacon: true,
    });
    expect(readTranscript(dir).steps).toHaveLength(5);

    // the service proves with the ceremony's keys and says so
    const app = await createTestApp({ config: { circuitsDir: out } });
    try {
      const key = await createKey(app, 'Growth');
      const wallet = randomAddress();
      await setScore(app, wallet, 'SOCIAL', 610);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/reputation/prove',
        headers: key.headers,
        payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'SOCIAL', threshold: 600 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const v = await app.inject({
        method: 'POST',
        url: '/api/v1/reputation/verify',
        headers: key.headers,
        payload: { proof: res.json().proof },
      });
      expect(v.json()).toMatchObject({ valid: true, subject: toChecksum(wallet) });
      const keys = (await app.inject({ method: 'GET', url: '/api/v1/proofs/verification-keys' })).json();
      expect(keys.setup).toMatchObject({ kind: 'ceremony', phase2Contributors: 3 });
      expect((await app.inject({ method: 'GET', url: '/health' })).json().proofSetup).toMatchObject({
        kind: 'ceremony',
        contributors: ['alice', 'bob', 'carol'],
        beacon: true,
      });
    } finally {
      await app.close();
    }

    // a zkey that is not the one the transcript names is refused
    appendFileSync(path.join(dir, 'score_threshold', 'score_threshold_0004.zkey'), Buffer.from([0]));
    await expect(ceremonyVerify({ dir, ptau: DEV_PTAU })).rejects.toThrow(/not the zkey the transcript names/);
  }, 600_000);
});

// Hardhat's development accounts: #0 the service's hot key, #1 the admin multisig.
const SERVICE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADMIN = '0x70997970c51812dc3a010c7d01b93c6b0e6e2d96';
const oracleAbi = loadArtifact('ReputationOracle').abi;
const health = async (a: App) => (await a.inject({ method: 'GET', url: '/health' })).json().proofSetup;

describe('from the ceremony to the deployed contracts', () => {
  const chain = async () => {
    expect(existsSync(path.join(out, 'setup.json')), 'the ceremony test made the artifacts').toBe(true);
    local ??= await startLocalChain({ chainId: 31337 });
    return { local, c: await connectChain(local.url, SERVICE_KEY) };
  };

  it('credence contracts deploy --circuits <out> deploys the ceremony verifiers; a proof of the service verifies on-chain', async () => {
    const { local, c } = await chain();
    const said: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...m: unknown[]) => void said.push(m.join(' ')));
    const errSpy = vi.spyOn(console, 'error').mockImplementation((...m: unknown[]) => void said.push(m.join(' ')));
    try {
      const config = {
        chainRpcUrl: local.url,
        signerKey: SERVICE_KEY,
        contractAdmins: [],
        contractGovernance: [],
        circuitsDir: null,
      } as unknown as Config;
      await runContractsCommand(['deploy', '--admin', ADMIN, '--circuits', out], config);
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
    }
    const text = said.join('\n');
    const exitCode = process.exitCode ?? 0;
    process.exitCode = undefined;
    expect(exitCode, text).toBe(0);
    expect(text).toMatch(/ceremony: alice, bob, carol/);
    expect(text).toMatch(/ScoreThresholdVerifier accepts a proof made with the keys/);
    expect(text).toContain(`CREDENCE_CIRCUITS_DIR=${out}`);
    const oracle = /CREDENCE_ORACLE_ADDRESS=(0x[0-9a-fA-F]{40})/.exec(text)![1] as Address;
    const credentialVerifier = /CREDENCE_CREDENTIAL_VERIFIER_ADDRESS=(0x[0-9a-fA-F]{40})/.exec(text)![1] as Address;

    const app = await createTestApp({
      config: {
        circuitsDir: out,
        chainRpcUrl: local.url,
        signerKey: SERVICE_KEY,
        oracleAddress: oracle.toLowerCase(),
        credentialVerifierAddress: credentialVerifier.toLowerCase(),
      },
    });
    try {
      expect(
        await eventually(async () => ((await health(app)).publishing === 'on' ? health(app) : null), { timeoutMs: 60_000 }),
      ).toMatchObject({ kind: 'ceremony', refusal: null });
      const key = await createKey(app, 'Growth');
      const holder = randomAddress();
      await setScore(app, holder, 'DEFI_LENDING', 850);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/reputation/prove',
        headers: key.headers,
        payload: { subject: holder, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 800 },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { proof, publicInputs } = res.json() as { proof: Hex; publicInputs: { commitment: string; categoryId: number } };
      const read = <T>(functionName: string, args: unknown[]) =>
        c.publicClient.readContract({ address: oracle, abi: oracleAbi, functionName, args } as never) as Promise<T>;
      await eventually(
        async () => (await read<bigint>('commitmentOf', [holder, publicInputs.categoryId])) === BigInt(publicInputs.commitment),
        { timeoutMs: 30_000 },
      );
      expect(await read<boolean>('verifyProofFor', [holder, proof, 800n, publicInputs.categoryId])).toBe(true);
      expect(await read<boolean>('verifyProofFor', [ADMIN, proof, 800n, publicInputs.categoryId])).toBe(false);
      const gas = await c.publicClient.estimateContractGas({
        address: oracle,
        abi: oracleAbi,
        functionName: 'verifyProofFor',
        args: [holder, proof, 800n, publicInputs.categoryId],
        account: holder,
      } as never);
      console.log(
        `[ceremony on-chain] ReputationOracle.verifyProofFor gas with the ceremony's verifier (estimate, incl. 21k base): ${gas}`,
      );
      expect(gas).toBeLessThanOrEqual(260_000n);
    } finally {
      await app.close();
    }
  }, 300_000);

  it("the dev contracts with the ceremony's keys: the service refuses to publish and says why", async () => {
    const { c } = await chain();
    const dev = await deployContracts(c); // contracts/artifacts: the verifiers of the committed dev keys
    const app = await createTestApp({
      config: {
        circuitsDir: out,
        chainRpcUrl: local!.url,
        signerKey: SERVICE_KEY,
        oracleAddress: dev.oracle.toLowerCase(),
        credentialVerifierAddress: dev.credentialVerifier.toLowerCase(),
      },
    });
    try {
      const refused = await eventually(async () => ((await health(app)).publishing === 'refused' ? health(app) : null), {
        timeoutMs: 60_000,
      });
      expect(refused.refusal).toMatch(/do not match the circuit keys in use/);
      expect(refused.refusal).toMatch(
        /ScoreThresholdVerifier at 0x[0-9a-fA-F]{40} refuses a proof made with this instance's score_threshold key/,
      );
      expect(refused.refusal).toMatch(/AgeOverVerifier at 0x[0-9a-fA-F]{40} refuses/);
      const key = await createKey(app, 'Growth');
      const wallet = randomAddress();
      await setScore(app, wallet, 'OVERALL', 700);
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/reputation/prove',
        headers: key.headers,
        payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 600 },
      });
      expect(res.statusCode).toBe(200); // proving and verifying off-chain go on
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        await c.publicClient.readContract({
          address: dev.oracle,
          abi: oracleAbi,
          functionName: 'commitmentOf',
          args: [wallet, 0],
        } as never),
      ).toBe(0n);
    } finally {
      await app.close();
    }
  }, 300_000);

  it('deploying refuses verifiers that are not those of the keys, before the oracle', async () => {
    const { c } = await chain();
    // a ceremony directory whose compiled verifiers were swapped for the dev ones
    const mixed = path.join(work, 'mixed');
    cpSync(out, mixed, { recursive: true });
    for (const name of Object.values(VERIFIER_NAMES))
      copyFileSync(path.join(ROOT, 'contracts/artifacts', `${name}.json`), path.join(mixed, 'verifiers', `${name}.json`));
    const before = await c.publicClient.getTransactionCount({ address: c.account.address });
    await expect(deployContracts(c, { circuitsDir: mixed, checkVerifiers: true })).rejects.toThrow(
      /ScoreThresholdVerifier at 0x[0-9a-fA-F]{40} refuses a proof made with this instance's score_threshold key.*nothing else was deployed/,
    );
    expect(await c.publicClient.getTransactionCount({ address: c.account.address })).toBe(before + 2); // the two verifiers, no oracle
  }, 120_000);
});
