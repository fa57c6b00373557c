// The contracts on an in-process Hardhat network: a proof from the API verifies in ReputationOracle once the
// service has published its commitment; tampered proofs, wrong threshold or category, and commitments never
// published (or superseded) fail. Also dispute escalation with governance review, age/KYC proofs and
// credential revocation in CredentialVerifier.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import { keccak256, toBytes, type Address, type Hex } from 'viem';
import { poseidon4 } from 'poseidon-lite';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import {
  createKey,
  createTestApp,
  createTestModeKey,
  eventually,
  randomAddress,
  signInAdmin,
  type TestKey,
} from '../../../test/helpers/app.js';
import { secondConnection, testDatabase, usingPostgres } from '../../../test/helpers/db.js';
import type { App } from '../../platform/http/types.js';
import { connectChain, deployContracts, disputeKey, loadArtifact, type Chain, type Deployment } from './chain.js';
import { createCommitmentPublisher } from './publisher.js';
import { createProofsRepo } from './repo.js';
import { encodeProof, yyyymmdd } from './encoding.js';
import { kycRecordsFor, setScore } from './test-support.js';
import { sandboxScore } from './sandbox.js';

// Hardhat's default development accounts #0 (the service's signer) and #1 (a governance member).
const SIGNER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const GOVERNOR_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let chain: LocalChain;
let signer: Chain;
let governor: Chain;
let dep: Deployment;
let app: App;
let key: TestKey;
let kyc: ReturnType<typeof kycRecordsFor>;
const oracleAbi = loadArtifact('ReputationOracle').abi;
const cvAbi = loadArtifact('CredentialVerifier').abi;

beforeAll(async () => {
  chain = await startLocalChain({ chainId: 31337 });
  signer = await connectChain(chain.url, SIGNER_KEY);
  governor = await connectChain(chain.url, GOVERNOR_KEY);
  dep = await deployContracts(signer, { governors: [governor.account.address] });
  app = await createTestApp({
    config: {
      chainRpcUrl: chain.url,
      signerKey: SIGNER_KEY,
      oracleAddress: dep.oracle.toLowerCase(),
      credentialVerifierAddress: dep.credentialVerifier.toLowerCase(),
    },
  });
  key = await createKey(app, 'Growth');
  kyc = kycRecordsFor(app);
  app.ctx.services.kyc = kyc;
});

afterAll(async () => {
  await app?.close();
  await chain?.stop();
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

const read = <T>(address: Address, abi: typeof oracleAbi, functionName: string, args: unknown[]) =>
  signer.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>;
/** A view call that reverts counts as a failed verification. */
const oracleVerify = (proof: string, threshold: number, category: number) =>
  read<boolean>(dep.oracle, oracleAbi, 'verifyProof', [proof, BigInt(threshold), category]).catch(() => false);
const tamper = (proof: string, at = 2 + 64 + 10) => proof.slice(0, at) + (proof[at] === '0' ? '1' : '0') + proof.slice(at + 1);

async function proveScore(subject: string, category: string, threshold: number) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/reputation/prove',
    headers: key.headers,
    payload: { subject, proofType: 'ScoreAboveThreshold', category, threshold },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { proof: Hex; publicInputs: { commitment: string } };
}
const published = (subject: string, category: number, commitment: string) =>
  eventually(async () => (await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [subject, category])) === BigInt(commitment), {
    timeoutMs: 20_000,
  });

describe('ReputationOracle', () => {
  const subject = randomAddress();
  let proof: Hex;

  beforeAll(async () => {
    await setScore(app, subject, 'GOVERNANCE', 810);
    const r = await proveScore(subject, 'GOVERNANCE', 800);
    proof = r.proof;
    await published(subject, 3, r.publicInputs.commitment);
  });

  it('verifies a proof from the API against the published commitment, and reports its gas', async () => {
    expect(await oracleVerify(proof, 800, 3)).toBe(true);
    const gas = await signer.publicClient.estimateContractGas({
      address: dep.oracle,
      abi: oracleAbi,
      functionName: 'verifyProof',
      args: [proof, 800n, 3],
    } as never);
    console.log(`[proofs on-chain] ReputationOracle.verifyProof gas (estimate, incl. 21k base): ${gas}`);
    expect(gas).toBeGreaterThan(100_000n);
  });

  it('fails a tampered proof, a wrong threshold and a wrong category', async () => {
    expect(await oracleVerify(tamper(proof), 800, 3)).toBe(false);
    expect(await oracleVerify(tamper(proof, 2 + 64 * 3 + 5), 800, 3)).toBe(false); // inside b
    expect(await oracleVerify(proof.slice(0, -2), 800, 3)).toBe(false);
    expect(await oracleVerify(proof, 799, 3)).toBe(false);
    expect(await oracleVerify(proof, 801, 3)).toBe(false);
    expect(await oracleVerify(proof, 800, 2)).toBe(false);
  });

  it('fails a valid Groth16 proof whose commitment was never published', async () => {
    const other = randomAddress();
    const commitment = poseidon4([BigInt(other), 3n, 900n, 7n]).toString();
    const { proof: p, publicSignals } = await snarkjs.groth16.fullProve(
      {
        threshold: 800,
        categoryId: 3,
        subject: BigInt(other).toString(),
        commitment,
        validUntil: Math.floor(Date.now() / 1000) + 3600,
        score: 900,
        salt: 7,
      },
      'circuits/build/score_threshold/score_threshold.wasm',
      'circuits/build/score_threshold/score_threshold_final.zkey',
    );
    const hex = encodeProof('ScoreAboveThreshold', p, publicSignals);
    expect(await oracleVerify(hex, 800, 3)).toBe(false);
    // the same proof is fine for the verifier alone: only the missing commitment refuses it
    const [a, b, c, pub] = [
      [p.pi_a[0], p.pi_a[1]],
      [
        [p.pi_b[0][1], p.pi_b[0][0]],
        [p.pi_b[1][1], p.pi_b[1][0]],
      ],
      [p.pi_c[0], p.pi_c[1]],
      publicSignals,
    ];
    const abi = loadArtifact('ScoreThresholdVerifier').abi;
    expect(await read<boolean>(dep.scoreVerifier, abi, 'verifyProof', [a, b, c, pub])).toBe(true);
  });

  it('fails a sandbox proof made with a test key: its commitment is never published, the live one stays', async () => {
    const admin = await signInAdmin(app);
    const made = await createTestModeKey(app, admin);
    const threshold = sandboxScore(subject, 'GOVERNANCE');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/prove',
      headers: made.headers,
      payload: { subject, proofType: 'ScoreAboveThreshold', category: 'GOVERNANCE', threshold },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().environment).toBe('test');
    expect(await oracleVerify(res.json().proof, threshold, 3)).toBe(false);
    expect(await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [subject, 3])).not.toBe(BigInt(res.json().publicInputs.commitment));
    // the live proof is untouched by it
    expect(await oracleVerify(proof, 800, 3)).toBe(true);
  });

  it('fails the old proof once a changed score is published', async () => {
    await setScore(app, subject, 'GOVERNANCE', 820);
    const fresh = await proveScore(subject, 'GOVERNANCE', 800);
    await published(subject, 3, fresh.publicInputs.commitment);
    expect(await oracleVerify(fresh.proof, 800, 3)).toBe(true);
    expect(await oracleVerify(proof, 800, 3)).toBe(false);
  });

  it.skipIf(!usingPostgres())('publishes each batch once when several instances run the publisher', async () => {
    const db = await testDatabase();
    const other = await secondConnection(db);
    try {
      let sends = 0;
      const counting: Chain = { ...signer, write: (...args: Parameters<Chain['write']>) => (sends++, signer.write(...args)) };
      const publisherOn = (d: typeof db) =>
        createCommitmentPublisher({
          chain: counting,
          repo: createProofsRepo(d),
          oracle: dep.oracle,
          credentialVerifier: null,
          onError: (e) => {
            throw e;
          },
        });
      const wallets = Array.from({ length: 5 }, () => randomAddress());
      for (const [i, w] of wallets.entries()) {
        await createProofsRepo(db).replaceCurrent({
          kind: 'score',
          address: w,
          categoryId: 2,
          score: 600 + i,
          saltEnc: null,
          commitment: String(1000 + i),
        });
      }
      await Promise.all([publisherOn(db).flush(), publisherOn(other).flush()]);
      expect(sends).toBe(1);
      const rows = await db.query<{ published_tx: string | null }>('SELECT published_tx FROM proof_commitments');
      expect(rows.every((r) => r.published_tx)).toBe(true);
      for (const [i, w] of wallets.entries())
        expect(await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [w, 2])).toBe(BigInt(1000 + i));
    } finally {
      await other.close();
      await db.close();
    }
  });

  it('only the oracle role publishes commitments', async () => {
    await expect(governor.write(dep.oracle, oracleAbi, 'publishCommitments', [[subject], [3], [1n]])).rejects.toThrow();
  });

  it('records escalations from the service for governance review', async () => {
    const disputeId = randomUUID();
    const { txHash } = await app.ctx.services.oracle!.submitEscalation({
      disputeId,
      address: subject,
      category: 3,
      reason: 'the off-chain review ignored my evidence',
    });
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const id = disputeKey(disputeId);
    const e = await read<{ subject: string; status: number; reason: string }>(dep.oracle, oracleAbi, 'getEscalation', [id]);
    expect(e.subject.toLowerCase()).toBe(subject);
    expect(e.status).toBe(1);
    expect(e.reason).toBe('the off-chain review ignored my evidence');
    await expect(signer.write(dep.oracle, oracleAbi, 'reviewEscalation', [id, true, 'score corrected'])).rejects.toThrow();
    await governor.write(dep.oracle, oracleAbi, 'reviewEscalation', [id, true, 'score corrected']);
    const reviewed = await read<{ status: number; reviewer: string; resolution: string }>(dep.oracle, oracleAbi, 'getEscalation', [id]);
    expect(reviewed).toMatchObject({ status: 2, resolution: 'score corrected' });
    expect(reviewed.reviewer.toLowerCase()).toBe(governor.account.address.toLowerCase());
    await expect(governor.write(dep.oracle, oracleAbi, 'reviewEscalation', [id, false, 'again'])).rejects.toThrow();
  });
});

describe('CredentialVerifier', () => {
  const adult = randomAddress();

  it('verifies age and KYC proofs from the API against the published birth-date commitment', async () => {
    const now = new Date();
    await kyc.approve(adult, yyyymmdd(new Date(Date.UTC(now.getUTCFullYear() - 30, 0, 15))));
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/prove',
      headers: key.headers,
      payload: { subject: adult, proofType: 'AgeVerification', minimumAge: 21 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { proof, publicInputs } = res.json();
    await eventually(
      async () => (await read<bigint>(dep.credentialVerifier, cvAbi, 'ageCommitmentOf', [adult])) === BigInt(publicInputs.commitment),
      { timeoutMs: 20_000 },
    );
    const verifyAge = (p: string, min: number) =>
      read<boolean>(dep.credentialVerifier, cvAbi, 'verifyAgeProof', [p, BigInt(min)]).catch(() => false);
    expect(await verifyAge(proof, 21)).toBe(true);
    expect(await verifyAge(proof, 22)).toBe(false);
    expect(await verifyAge(tamper(proof), 21)).toBe(false);
    const gas = await signer.publicClient.estimateContractGas({
      address: dep.credentialVerifier,
      abi: cvAbi,
      functionName: 'verifyAgeProof',
      args: [proof, 21n],
    } as never);
    console.log(`[proofs on-chain] CredentialVerifier.verifyAgeProof gas (estimate, incl. 21k base): ${gas}`);

    const kycRes = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/prove',
      headers: key.headers,
      payload: { subject: adult, proofType: 'KYCVerified' },
    });
    const kycProof = kycRes.json().proof;
    expect(await read<boolean>(dep.credentialVerifier, cvAbi, 'verifyKycProof', [kycProof])).toBe(true);
    expect(await read<boolean>(dep.credentialVerifier, cvAbi, 'verifyKycProof', [proof])).toBe(false);
    // a score proof is not an age proof
    expect(await verifyAge((await proveScoreFor(adult)).proof, 21)).toBe(false);
  });

  it('computes UTC calendar dates as the age circuit takes them', async () => {
    for (const d of ['2024-02-29T12:00:00Z', '2000-01-01T00:00:00Z', '2023-12-31T23:59:59Z', '1970-01-01T00:00:00Z']) {
      const ts = BigInt(Date.parse(d) / 1000);
      expect(Number(await read<bigint>(dep.credentialVerifier, cvAbi, 'dateOf', [ts]))).toBe(yyyymmdd(new Date(d)));
    }
  });

  it('revokes credential hashes (issuer role only)', async () => {
    const h = keccak256(toBytes(randomUUID()));
    expect(await read<boolean>(dep.credentialVerifier, cvAbi, 'isRevoked', [h])).toBe(false);
    await expect(governor.write(dep.credentialVerifier, cvAbi, 'revoke', [h])).rejects.toThrow();
    await signer.write(dep.credentialVerifier, cvAbi, 'revoke', [h]);
    expect(await read<boolean>(dep.credentialVerifier, cvAbi, 'isRevoked', [h])).toBe(true);
  });
});

async function proveScoreFor(subject: string) {
  await setScore(app, subject, 'IDENTITY', 500);
  return proveScore(subject, 'IDENTITY', 100);
}

describe('credence contracts deploy', () => {
  it('deploys to any RPC and prints the settings', async () => {
    const { execFile } = await import('node:child_process');
    const gov = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['bin/credence.mjs', 'contracts', 'deploy', '--admin', '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', '--governance', gov],
        // Hardhat development account #2
        {
          env: {
            ...process.env,
            CREDENCE_CHAIN_RPC_URL: chain.url,
            CREDENCE_SIGNER_KEY: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
          },
          timeout: 60_000,
        },
        (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
      ),
    );
    const oracle = /CREDENCE_ORACLE_ADDRESS=(0x[0-9a-fA-F]{40})/.exec(out)?.[1] as Address;
    expect(oracle, out).toBeTruthy();
    expect(out).toMatch(/CREDENCE_CREDENTIAL_VERIFIER_ADDRESS=0x[0-9a-fA-F]{40}/);
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [keccak256(toBytes('GOVERNANCE_ROLE')), gov])).toBe(true);
    expect(
      await read<boolean>(oracle, oracleAbi, 'hasRole', [keccak256(toBytes('ORACLE_ROLE')), '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC']),
    ).toBe(true);
  }, 300_000);
});
