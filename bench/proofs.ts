// Benchmark of proving and verifying, each against plain snarkjs on the same circuit in the same run:
//  1. proofs/s: the service's prover (artifacts in memory, witness calculators built once, a pool of
//     CREDENCE_PROVER_CONCURRENCY threads) vs snarkjs.groth16.fullProve with file paths, each at the same
//     concurrency. Target: at least 2x.
//  2. verify/s: the service's verify (Groth16 + commitment lookup, on the embedded database) and its bare
//     Groth16 check (its verifying thread: keys parsed once, single-threaded curve) vs snarkjs.groth16.verify.
//     Target: within 10%.
//  3. gas of ReputationOracle.verifyProofFor (the holder-bound check, limit 260k) and verifyProof on an in-process
//     Hardhat chain.
// Run: node --import tsx bench/proofs.ts   (BENCH_PROOFS=20 proofs per side and round, BENCH_ROUNDS=3)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as snarkjs from 'snarkjs';
import type { Hex } from 'viem';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/platform/config.js';
import { circuitFiles, loadVerificationKey } from '../src/modules/proofs/artifacts.js';
import { connectChain, deployContracts, loadArtifact } from '../src/modules/proofs/chain.js';
import { randomSalt, scoreCommitment } from '../src/modules/proofs/commitments.js';
import { decodeProof } from '../src/modules/proofs/encoding.js';
import { createProofsRepo } from '../src/modules/proofs/repo.js';
import { startRuntime } from '../src/modules/proofs/runtime.js';
import { createProofsService } from '../src/modules/proofs/service.js';
import { startLocalChain } from '../test/helpers/local-chain.js';

const N = Number(process.env.BENCH_PROOFS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.CREDENCE_PROVER_CONCURRENCY ?? 2);
const f = circuitFiles('score_threshold');

async function timed(n: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await fn(next++);
    }),
  );
  return n / ((performance.now() - t) / 1000);
}

async function main() {
  const config = {
    ...loadConfig({}),
    databaseUrl: 'pglite://memory',
    dataDir: mkdtempSync(path.join(tmpdir(), 'credence-bench-')),
    logLevel: 'silent',
    proverConcurrency: CONCURRENCY,
  };
  const app = await buildApp(config, { logger: false, secrets: {} });
  await app.ready();
  const rt = startRuntime({ provers: CONCURRENCY, verifiers: 1 });
  const service = createProofsService({
    repo: createProofsRepo(app.ctx.db),
    cipher: app.ctx.cipher,
    services: app.ctx.services,
    runtime: rt,
    log: app.log,
  });

  const subject = '0x00000000000000000000000000000000000000b1';
  await app.ctx.services.scoring!.applyRevisedScore(subject, 'DEFI_LENDING', 750, 'bench', randomUUID());
  const salt = randomSalt();
  const input = {
    threshold: 700,
    categoryId: 1,
    subject: BigInt(subject).toString(),
    commitment: scoreCommitment(subject, 1, 750, salt).toString(),
    validUntil: Math.floor(Date.now() / 1000) + 3600,
    score: 750,
    salt: salt.toString(),
  };

  // warm-up both sides
  await snarkjs.groth16.fullProve(input, f.wasm, f.zkey);
  const warm = await service.prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 700 });

  // Rounds alternate the sides so that load from anything else on the machine hits both alike; medians reported.
  const vk = loadVerificationKey('score_threshold');
  const d = decodeProof(warm.proof)!;
  const signals = d.publicSignals.map(String);
  const V = N * 3;
  const r: Record<string, number[]> = { plainProve: [], serviceProve: [], plainVerify: [], bareVerify: [], serviceVerify: [] };
  for (let round = 0; round < ROUNDS; round++) {
    r.plainProve.push(await timed(N, CONCURRENCY, () => snarkjs.groth16.fullProve(input, f.wasm, f.zkey)));
    r.serviceProve.push(
      await timed(N, CONCURRENCY, () =>
        service.prove({ subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold: 700 }),
      ),
    );
    r.plainVerify.push(await timed(V, 1, () => snarkjs.groth16.verify(vk, signals, d.proof)));
    r.bareVerify.push(await timed(V, 1, () => rt.verify('score_threshold', d.publicSignals, d.proof)));
    r.serviceVerify.push(
      await timed(V, 1, async () => {
        if (!(await service.verify(warm.proof)).valid) throw new Error('invalid');
      }),
    );
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const all = (xs: number[], digits: number) => xs.map((x) => x.toFixed(digits)).join(', ');
  const [pp, sp, pv, bv, sv] = [r.plainProve, r.serviceProve, r.plainVerify, r.bareVerify, r.serviceVerify].map(med);
  console.log(`proving (score_threshold, ${N} proofs per side per round, ${ROUNDS} rounds, concurrency ${CONCURRENCY})`);
  console.log(`  snarkjs fullProve (file paths):  ${pp.toFixed(2)} proofs/s  [${all(r.plainProve, 2)}]`);
  console.log(
    `  service prove (pool + DB):       ${sp.toFixed(2)} proofs/s  [${all(r.serviceProve, 2)}]  ratio ${(sp / pp).toFixed(2)}x (target >= 2x)`,
  );
  console.log(`verifying (${V} per side per round, one at a time)`);
  console.log(`  snarkjs groth16.verify:          ${pv.toFixed(1)} verify/s  [${all(r.plainVerify, 1)}]`);
  console.log(`  service Groth16 check (thread):  ${bv.toFixed(1)} verify/s  [${all(r.bareVerify, 1)}]  ratio ${(bv / pv).toFixed(2)}`);
  console.log(
    `  service verify (+ commitment):   ${sv.toFixed(1)} verify/s  [${all(r.serviceVerify, 1)}]  ratio ${(sv / pv).toFixed(2)} (target >= 0.90)`,
  );

  // on-chain verification gas
  const chain = await startLocalChain({ chainId: 31337 });
  const signer = await connectChain(chain.url, '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80' as Hex);
  const dep = await deployContracts(signer, { log: (m) => console.log(`deploy: ${m}`) });
  const abi = loadArtifact('ReputationOracle').abi;
  await signer.write(dep.oracle, abi, 'publishCommitments', [[subject], [1], [BigInt(warm.publicInputs.commitment)]]);
  const verifyCall = { address: dep.oracle, abi, functionName: 'verifyProof', args: [warm.proof, 700n, 1] } as never;
  const ok = await signer.publicClient.readContract(verifyCall);
  const gas = await signer.publicClient.estimateContractGas(verifyCall);
  console.log(`on-chain: ReputationOracle.verifyProof = ${ok}, gas ${gas} (estimate of a transaction calling it, incl. the 21,000 base)`);
  const args = [subject, warm.proof, 700n, 1];
  const okFor = await signer.publicClient.readContract({ address: dep.oracle, abi, functionName: 'verifyProofFor', args } as never);
  const gasFor = await signer.publicClient.estimateContractGas({ address: dep.oracle, abi, functionName: 'verifyProofFor', args } as never);
  console.log(`on-chain: ReputationOracle.verifyProofFor = ${okFor}, gas ${gasFor} (same estimate; limit 260,000)`);

  await chain.stop();
  await rt.close();
  await app.close();
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
}

await main();
