// The proofs' on-chain trust on an in-process Hardhat chain, each attack reproduced through the real path and refused:
//  - a borrowed proof: the victim's proof presented by an attacker to a lender (contracts/examples/ExampleLender)
//    that checks verifyProofFor(msg.sender, ...); verifyProof alone stays unbound, as the spec has it;
//  - a replay after a score drop: the old proof stops verifying on-chain once the publisher clears the superseded
//    commitment (CREDENCE_COMMITMENT_CLEAR_SECONDS, 1 s here; awaited by polling), and an expired proof fails;
//  - the hot key granting itself GOVERNANCE_ROLE after a deploy with configured admins;
//  - publishing to a public chain (id 1) with the committed single-contributor dev keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as snarkjs from 'snarkjs';
import type { Address, Hex } from 'viem';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import { createKey, createTestApp, eventually, type TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import {
  DEFAULT_ADMIN_ROLE,
  GOVERNANCE_ROLE,
  ORACLE_ROLE,
  connectChain,
  deployContracts,
  loadArtifact,
  type Chain,
  type Deployment,
} from './chain.js';
import { setScore } from './test-support.js';

// Hardhat's development accounts: #0 the service's hot key, #1 the admin multisig, #4 a borrower, #5 an attacker.
const SERVICE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADMIN_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const VICTIM_KEY: Hex = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a';
const ATTACKER_KEY: Hex = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba';

let local: LocalChain;
let service: Chain, admin: Chain, victim: Chain, attacker: Chain;
let dep: Deployment;
let lender: Address;
let app: App;
let key: TestKey;
const oracleAbi = loadArtifact('ReputationOracle').abi;
const lenderArtifact = loadArtifact('ExampleLender');

beforeAll(async () => {
  local = await startLocalChain({ chainId: 31337 });
  [service, admin, victim, attacker] = await Promise.all(
    [SERVICE_KEY, ADMIN_KEY, VICTIM_KEY, ATTACKER_KEY].map((k) => connectChain(local.url, k)),
  );
  dep = await deployContracts(service, { admins: [admin.account.address], governors: [admin.account.address] });
  const hash = await admin.walletClient.deployContract({
    abi: lenderArtifact.abi,
    bytecode: lenderArtifact.bytecode,
    args: [dep.oracle],
    account: admin.account,
    chain: admin.walletClient.chain,
  } as never);
  lender = (await admin.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
  app = await createTestApp({
    config: { chainRpcUrl: local.url, signerKey: SERVICE_KEY, oracleAddress: dep.oracle.toLowerCase(), commitmentClearSeconds: 1 },
  });
  key = await createKey(app, 'Growth');
});

afterAll(async () => {
  await app?.close();
  await local?.stop();
  await (await snarkjs.curves.getCurveFromName('bn128')).terminate();
});

const read = <T>(address: Address, abi: typeof oracleAbi, functionName: string, args: unknown[], from?: Chain) =>
  (from ?? service).publicClient.readContract({
    address,
    abi,
    functionName,
    args,
    account: (from ?? service).account.address,
  } as never) as Promise<T>;
const verifyFor = (holder: string, proof: string, threshold: number, category: number) =>
  read<boolean>(dep.oracle, oracleAbi, 'verifyProofFor', [holder, proof, BigInt(threshold), category]);

async function proveAndPublish(subject: string, score: number, threshold = 800) {
  await setScore(app, subject, 'DEFI_LENDING', score);
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/reputation/prove',
    headers: key.headers,
    payload: { subject, proofType: 'ScoreAboveThreshold', category: 'DEFI_LENDING', threshold },
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { proof: Hex; publicInputs: { commitment: string; categoryId: number; validUntil: number } };
  expect(body.publicInputs.categoryId).toBe(1);
  await eventually(
    async () => (await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [subject, 1])) === BigInt(body.publicInputs.commitment),
    { timeoutMs: 30_000 },
  );
  return body;
}

describe('holder binding: a proof borrowed from its subject', () => {
  it("the victim's proof, presented by an attacker, is refused by a lender using verifyProofFor; the victim's own use works", async () => {
    const victimAddress = victim.account.address;
    const { proof } = await proveAndPublish(victimAddress, 883);
    // the attack as filed: the unbound check says true to anyone who presents the bytes
    expect(await read<boolean>(dep.oracle, oracleAbi, 'verifyProof', [proof, 800n, 1], attacker)).toBe(true);
    expect(await read<string>(dep.oracle, oracleAbi, 'subjectOf', [proof])).toBe(victimAddress);
    expect(await verifyFor(attacker.account.address, proof, 800, 1)).toBe(false);
    expect(await verifyFor(victimAddress, proof, 800, 1)).toBe(true);
    expect(await read<string>(dep.oracle, oracleAbi, 'subjectOf', ['0x1234'])).toBe('0x0000000000000000000000000000000000000000');

    await expect(attacker.write(lender, lenderArtifact.abi, 'openCreditLine', [proof, 1000n])).rejects.toThrow();
    expect(await read<bigint>(lender, lenderArtifact.abi, 'creditLine', [attacker.account.address])).toBe(0n);
    await victim.write(lender, lenderArtifact.abi, 'openCreditLine', [proof, 1000n]);
    expect(await read<bigint>(lender, lenderArtifact.abi, 'creditLine', [victimAddress])).toBe(1000n);

    const gas = await service.publicClient.estimateContractGas({
      address: dep.oracle,
      abi: oracleAbi,
      functionName: 'verifyProofFor',
      args: [victimAddress, proof, 800n, 1],
      account: victimAddress,
    } as never);
    console.log(`[proofs on-chain] ReputationOracle.verifyProofFor gas (estimate, incl. 21k base): ${gas}`);
    expect(gas).toBeLessThanOrEqual(260_000n);
  });
});

describe('freshness', () => {
  it('an old proof stops verifying on-chain after a score drop, within the clearing bound', async () => {
    const borrower = attacker.account.address; // any wallet; its own proof
    const old = await proveAndPublish(borrower, 883);
    expect(await verifyFor(borrower, old.proof, 800, 1)).toBe(true);
    await setScore(app, borrower, 'DEFI_LENDING', 478);
    // the publisher clears the superseded commitment (compare-and-clear) on its next sweep
    await eventually(async () => (await verifyFor(borrower, old.proof, 800, 1)) === false, { timeoutMs: 60_000 });
    expect(await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [borrower, 1])).toBe(0n);
    // the row is marked once the clearing transaction's receipt is in, a moment after the chain shows it
    await eventually(
      async () => {
        const rows = await app.ctx.db.query<{ cleared_at: Date | null }>('SELECT cleared_at FROM proof_commitments WHERE commitment = $1', [
          old.publicInputs.commitment,
        ]);
        return rows[0]?.cleared_at != null;
      },
      { timeoutMs: 30_000 },
    );
  });

  it('compare-and-clear never removes a newer commitment', async () => {
    const wallet = '0x00000000000000000000000000000000000c1ea2';
    await service.write(dep.oracle, oracleAbi, 'publishCommitments', [[wallet], [2], [222n]]);
    await service.write(dep.oracle, oracleAbi, 'clearCommitments', [[wallet], [2], [111n]]);
    expect(await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [wallet, 2])).toBe(222n);
    await service.write(dep.oracle, oracleAbi, 'clearCommitments', [[wallet], [2], [222n]]);
    expect(await read<bigint>(dep.oracle, oracleAbi, 'commitmentOf', [wallet, 2])).toBe(0n);
    await expect(admin.write(dep.oracle, oracleAbi, 'clearCommitments', [[wallet], [2], [222n]])).rejects.toThrow();
  });

  it('an expired proof fails on-chain (block.timestamp past validUntil)', async () => {
    const wallet = victim.account.address;
    const { proof, publicInputs } = await proveAndPublish(wallet, 900);
    expect(await verifyFor(wallet, proof, 800, 1)).toBe(true);
    const snapshot = await local.request('evm_snapshot');
    try {
      const block = await service.publicClient.getBlock();
      await local.request('evm_setNextBlockTimestamp', [Math.max(publicInputs.validUntil + 1, Number(block.timestamp) + 1)]);
      await local.request('evm_mine');
      expect(await verifyFor(wallet, proof, 800, 1)).toBe(false);
    } finally {
      await local.request('evm_revert', [snapshot]);
    }
  });
});

describe('roles after credence contracts deploy', () => {
  it('the hot key holds only ORACLE_ROLE and cannot grant itself GOVERNANCE_ROLE', async () => {
    const hot = service.account.address;
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [ORACLE_ROLE, hot])).toBe(true);
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [DEFAULT_ADMIN_ROLE, hot])).toBe(false);
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [GOVERNANCE_ROLE, hot])).toBe(false);
    await expect(service.write(dep.oracle, oracleAbi, 'grantRole', [GOVERNANCE_ROLE, hot])).rejects.toThrow();
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [GOVERNANCE_ROLE, hot])).toBe(false);
    const cvAbi = loadArtifact('CredentialVerifier').abi;
    expect(await read<boolean>(dep.credentialVerifier, cvAbi, 'hasRole', [DEFAULT_ADMIN_ROLE, hot])).toBe(false);
    // the configured admin (a multisig in production) administers the roles
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [DEFAULT_ADMIN_ROLE, admin.account.address])).toBe(true);
    expect(await read<boolean>(dep.oracle, oracleAbi, 'hasRole', [GOVERNANCE_ROLE, admin.account.address])).toBe(true);
  });

  it('refuses to make the hot key an admin', async () => {
    await expect(deployContracts(service, { admins: [service.account.address] })).rejects.toThrow(/must not also be an admin/);
  });

  it('the command gives admin and governance to the configured addresses and only ORACLE_ROLE to the signer', async () => {
    const { execFile } = await import('node:child_process');
    const run = (args: string[]) =>
      new Promise<{ code: number; out: string }>((resolve) =>
        execFile(
          process.execPath,
          ['bin/credence.mjs', 'contracts', 'deploy', ...args],
          // Hardhat development account #2 signs (the service's key)
          {
            env: {
              ...process.env,
              CREDENCE_CHAIN_RPC_URL: local.url,
              CREDENCE_SIGNER_KEY: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
            },
            timeout: 120_000,
          },
          (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr }),
        ),
      );
    const signer = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
    const multisig = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    const gov = '0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc';
    const missing = await run([]);
    expect(missing.code, missing.out).toBe(2);
    expect(missing.out).toMatch(/--admin or CREDENCE_CONTRACT_ADMINS/);
    expect((await run(['--admin', signer])).code).toBe(2);
    const ok = await run(['--admin', multisig, '--governance', gov]);
    expect(ok.code, ok.out).toBe(0);
    const oracle = /CREDENCE_ORACLE_ADDRESS=(0x[0-9a-fA-F]{40})/.exec(ok.out)?.[1] as Address;
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [DEFAULT_ADMIN_ROLE, multisig])).toBe(true);
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [GOVERNANCE_ROLE, gov])).toBe(true);
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [ORACLE_ROLE, signer])).toBe(true);
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [DEFAULT_ADMIN_ROLE, signer])).toBe(false);
    expect(await read<boolean>(oracle, oracleAbi, 'hasRole', [GOVERNANCE_ROLE, signer])).toBe(false);
  }, 300_000);
});

describe('dev keys on a public chain', () => {
  it('refuses to publish commitments to chain 1 with the single-contributor dev artifacts unless allowed', async () => {
    const mainnet = await startLocalChain({ chainId: 1 });
    try {
      const c = await connectChain(mainnet.url, SERVICE_KEY);
      const d = await deployContracts(c);
      const config = { chainRpcUrl: mainnet.url, signerKey: SERVICE_KEY, oracleAddress: d.oracle.toLowerCase() };
      const health = async (a: App) => (await a.inject({ method: 'GET', url: '/health' })).json().proofSetup;
      const wallet = '0x00000000000000000000000000000000000d0e51';
      let commitment: string;
      const strict = await createTestApp({ config });
      try {
        const refused = await eventually(async () => ((await health(strict)).publishing === 'refused' ? health(strict) : null), {
          timeoutMs: 30_000,
        });
        expect(refused).toMatchObject({ kind: 'dev', phase2Contributors: 1, beacon: true });
        expect(refused.refusal).toMatch(/chain 1 is public/);
        const k = await createKey(strict, 'Growth');
        await setScore(strict, wallet, 'OVERALL', 700);
        const res = await strict.inject({
          method: 'POST',
          url: '/api/v1/reputation/prove',
          headers: k.headers,
          payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 600 },
        });
        expect(res.statusCode).toBe(200); // the API still proves (and verifies) off-chain
        commitment = res.json().publicInputs.commitment;
        await strict.inject({ method: 'GET', url: '/health' });
        expect(await read<bigint>(d.oracle, oracleAbi, 'commitmentOf', [wallet, 0], c)).toBe(0n);
      } finally {
        await strict.close();
      }
      // explicitly allowed (CREDENCE_ALLOW_DEV_SETUP=true): published
      const allowed = await createTestApp({ config: { ...config, allowDevSetup: true } });
      try {
        expect(await eventually(async () => ((await health(allowed)).publishing === 'on' ? true : null), { timeoutMs: 30_000 })).toBe(true);
        const k = await createKey(allowed, 'Growth');
        await setScore(allowed, wallet, 'OVERALL', 710);
        const res = await allowed.inject({
          method: 'POST',
          url: '/api/v1/reputation/prove',
          headers: k.headers,
          payload: { subject: wallet, proofType: 'ScoreAboveThreshold', category: 'OVERALL', threshold: 600 },
        });
        expect(res.statusCode).toBe(200);
        commitment = res.json().publicInputs.commitment;
        await eventually(async () => (await read<bigint>(d.oracle, oracleAbi, 'commitmentOf', [wallet, 0], c)) === BigInt(commitment), {
          timeoutMs: 30_000,
        });
      } finally {
        await allowed.close();
      }
    } finally {
      await mainnet.stop();
    }
  }, 300_000);
});
