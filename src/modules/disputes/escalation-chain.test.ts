// Escalation on-chain: against a real ReputationOracle deployed on an in-process Hardhat network.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address, Hex } from 'viem';
import { createKey, createTestApp, eventually, randomAddress, type TestKey } from '../../../test/helpers/app.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import type { App } from '../../platform/http/types.js';
import { ORACLE_ROLE, connectChain, deployContracts, disputeKey, loadArtifact, type Chain } from '../proofs/chain.js';
import { categoryId } from '../scoring/contracts.js';

// Hardhat's well-known development accounts 0 and 1.
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const OTHER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

let local: LocalChain;
let chain: Chain;
let oracle: Address;
const oracleAbi = loadArtifact('ReputationOracle').abi;

beforeAll(async () => {
  local = await startLocalChain({ chainId: 31337 });
  chain = await connectChain(local.url, DEPLOYER_KEY);
  oracle = (await deployContracts(chain)).oracle;
});
afterAll(async () => {
  await local?.stop();
});

async function escalationOnChain(disputeId: string) {
  return (await chain.publicClient.readContract({
    address: oracle,
    abi: oracleAbi,
    functionName: 'getEscalation',
    args: [disputeKey(disputeId)],
  })) as {
    subject: string;
    category: number;
    status: number;
    reason: string;
  };
}

async function fileAndEscalate(app: App, key: TestKey) {
  const wallet = randomAddress();
  const d = await app.inject({
    method: 'POST',
    url: '/api/v1/dispute',
    headers: key.headers,
    payload: { walletAddress: wallet, category: 'GOVERNANCE', reason: 'MissingActivity', description: 'My Compound votes are not counted' },
  });
  const id = d.json().id as string;
  const res = await app.inject({
    method: 'POST',
    url: `/api/v1/dispute/${id}/escalate`,
    headers: key.headers,
    payload: { reason: 'Admins rejected without looking at the votes' },
  });
  expect(res.statusCode).toBe(200);
  return { id, wallet, body: res.json() };
}

describe('escalation with the oracle configured', () => {
  it('submits the escalation to the oracle contract and stores the transaction hash', async () => {
    const app = await createTestApp({ config: { chainRpcUrl: local.url, signerKey: DEPLOYER_KEY, oracleAddress: oracle.toLowerCase() } });
    try {
      const key = await createKey(app, 'Free');
      const { id, wallet, body } = await fileAndEscalate(app, key);
      expect(body.status).toBe('Escalated');
      expect(body.escalation.onChainStatus).toBe('submitted');
      expect(body.escalation.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      const receipt = await chain.publicClient.getTransactionReceipt({ hash: body.escalation.txHash });
      expect(receipt.status).toBe('success');
      const onChain = await escalationOnChain(id);
      expect(onChain.subject.toLowerCase()).toBe(wallet);
      expect(onChain.category).toBe(categoryId('GOVERNANCE'));
      expect(onChain.reason).toBe('Admins rejected without looking at the votes');
      expect(onChain.status).toBe(1); // Pending governance review
    } finally {
      await app.close();
    }
  });

  it('a failed submission keeps the dispute Escalated and is retried by the worker', async () => {
    // This signer has no ORACLE_ROLE yet: the contract reverts.
    const app = await createTestApp({ config: { chainRpcUrl: local.url, signerKey: OTHER_KEY, oracleAddress: oracle.toLowerCase() } });
    try {
      const key = await createKey(app, 'Free');
      const { id, body } = await fileAndEscalate(app, key);
      expect(body.status).toBe('Escalated');
      expect(body.escalation).toMatchObject({ onChainStatus: 'failed', txHash: null });
      expect((await escalationOnChain(id)).status).toBe(0);

      const other = await connectChain(local.url, OTHER_KEY);
      await chain.write(oracle, oracleAbi, 'grantRole', [ORACLE_ROLE, other.account.address]);
      // Make the failed attempt old enough to be due, then let the worker run a pass.
      await app.ctx.db.query(`UPDATE disputes SET updated_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      const worker = app.ctx.workers.find((w) => w.name === 'dispute-escalations')!;
      await worker.stop();
      await worker.start();
      const done = await eventually(async () => {
        const d = (await app.inject({ url: `/api/v1/dispute/${id}`, headers: key.headers })).json();
        return d.escalation.onChainStatus === 'submitted' ? d : null;
      });
      expect(done.escalation.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect((await escalationOnChain(id)).status).toBe(1);
    } finally {
      await app.close();
    }
  });
});
