// The on-chain side, through viem: deploying the contracts, publishing commitments in batches (a worker),
// and recording dispute escalations in the oracle. Active only when an RPC URL and a signer key are set.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  keccak256,
  pad,
  toBytes,
  type Abi,
  type Address,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { ROOT } from './artifacts.js';
import type { OracleService } from './contracts.js';
import type { CommitmentRow, ProofsRepo } from './repo.js';

export interface ContractArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

export const loadArtifact = (name: string): ContractArtifact =>
  JSON.parse(readFileSync(path.join(ROOT, 'contracts/artifacts', `${name}.json`), 'utf8'));

export const ORACLE_ROLE = keccak256(toBytes('ORACLE_ROLE'));
export const GOVERNANCE_ROLE = keccak256(toBytes('GOVERNANCE_ROLE'));
export const ISSUER_ROLE = keccak256(toBytes('ISSUER_ROLE'));

export interface Chain {
  account: PrivateKeyAccount;
  publicClient: PublicClient;
  walletClient: WalletClient;
  /** sends, waits for the receipt, and throws when the transaction reverted */
  write(address: Address, abi: Abi, functionName: string, args: unknown[]): Promise<Hex>;
}

export async function connectChain(rpcUrl: string, signerKey: Hex): Promise<Chain> {
  const transport = http(rpcUrl, { retryCount: 2 });
  const probe = createPublicClient({ transport });
  const chainId = await probe.getChainId();
  const chain = defineChain({ id: chainId, name: `chain-${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const account = privateKeyToAccount(signerKey);
  const publicClient = createPublicClient({ chain, transport }) as PublicClient;
  const walletClient = createWalletClient({ chain, transport, account });
  // one transaction at a time from this signer keeps nonces in order
  let tail: Promise<unknown> = Promise.resolve();
  const write: Chain['write'] = (address, abi, functionName, args) => {
    const run = async () => {
      const hash = await walletClient.writeContract({ address, abi, functionName, args, account, chain } as never);
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 250 });
      if (receipt.status !== 'success') throw new Error(`${functionName} reverted in ${hash}`);
      return hash;
    };
    const p = tail.then(run, run);
    tail = p.catch(() => undefined);
    return p;
  };
  return { account, publicClient, walletClient, write };
}

export interface Deployment {
  scoreVerifier: Address;
  ageVerifier: Address;
  oracle: Address;
  credentialVerifier: Address;
}

/** Deploys both verifiers, the oracle and the credential verifier; grants the oracle and issuer roles to
 *  `operators` (the service's signer) and the governance role to `governors`. The signer is the admin. */
export async function deployContracts(chain: Chain, opts: { operators?: Address[]; governors?: Address[]; log?: (m: string) => void } = {}): Promise<Deployment> {
  const log = opts.log ?? (() => undefined);
  const admin = chain.account.address;
  const deploy = async (name: string, args: unknown[] = []): Promise<Address> => {
    const a = loadArtifact(name);
    const hash = await chain.walletClient.deployContract({ abi: a.abi, bytecode: a.bytecode, args, account: chain.account, chain: chain.walletClient.chain } as never);
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 250 });
    if (!receipt.contractAddress || receipt.status !== 'success') throw new Error(`deploying ${name} failed in ${hash}`);
    log(`${name}: ${receipt.contractAddress} (gas ${receipt.gasUsed})`);
    return receipt.contractAddress;
  };
  const scoreVerifier = await deploy('ScoreThresholdVerifier');
  const ageVerifier = await deploy('AgeOverVerifier');
  const oracle = await deploy('ReputationOracle', [admin, scoreVerifier]);
  const credentialVerifier = await deploy('CredentialVerifier', [admin, ageVerifier]);
  const oracleAbi = loadArtifact('ReputationOracle').abi;
  const cvAbi = loadArtifact('CredentialVerifier').abi;
  for (const op of opts.operators ?? [admin]) {
    await chain.write(oracle, oracleAbi, 'grantRole', [ORACLE_ROLE, op]);
    await chain.write(credentialVerifier, cvAbi, 'grantRole', [ISSUER_ROLE, op]);
  }
  for (const g of opts.governors ?? []) await chain.write(oracle, oracleAbi, 'grantRole', [GOVERNANCE_ROLE, g]);
  return { scoreVerifier, ageVerifier, oracle, credentialVerifier };
}

/** bytes32 id of a dispute on chain: its GUID's 16 bytes, left-padded. */
export const disputeKey = (disputeId: string): Hex => pad(`0x${disputeId.replace(/-/g, '').toLowerCase()}`, { size: 32 });

export function createOracleService(chain: Chain, oracle: Address): OracleService {
  const abi = loadArtifact('ReputationOracle').abi;
  return {
    async submitEscalation({ disputeId, address, category, reason }) {
      const txHash = await chain.write(oracle, abi, 'escalateDispute', [disputeKey(disputeId), address as Address, category, reason]);
      return { txHash };
    },
  };
}

/** Publishes current, not yet published commitments in batches: scores to the oracle, birth dates to the
 *  credential verifier (when its address is set). Runs as a worker; `flush` publishes at once. */
export function createCommitmentPublisher(opts: {
  chain: Chain;
  repo: ProofsRepo;
  oracle: Address;
  credentialVerifier: Address | null;
  intervalMs?: number;
  batchSize?: number;
  onError(err: unknown): void;
}) {
  const oracleAbi = loadArtifact('ReputationOracle').abi;
  const cvAbi = loadArtifact('CredentialVerifier').abi;
  let timer: NodeJS.Timeout | null = null;
  let nudgeTimer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;

  // One batch: claim, send, mark. Claimed rows are skipped by the other instances' publishers, so no batch is sent
  // twice; a claim outlives any transaction's mining (5 minutes) and lapses if this instance dies meanwhile.
  async function publishOnce(): Promise<number> {
    const rows = await opts.repo.claimUnpublished(opts.credentialVerifier ? ['score', 'birth_date'] : ['score'], opts.batchSize ?? 100, 300);
    const scores = rows.filter((r) => r.kind === 'score');
    const births = rows.filter((r) => r.kind === 'birth_date');
    const send = async (batch: CommitmentRow[], write: () => Promise<Hex>) => {
      if (!batch.length) return;
      const ids = batch.map((r) => r.id);
      const tx = await write().catch(async (err) => {
        await opts.repo.releaseClaims(ids);
        throw err;
      });
      await opts.repo.markPublished(ids, tx);
    };
    await send(scores, () =>
      opts.chain.write(opts.oracle, oracleAbi, 'publishCommitments', [scores.map((r) => r.address as Address), scores.map((r) => r.category_id), scores.map((r) => BigInt(r.commitment))]),
    );
    await send(births, () => opts.chain.write(opts.credentialVerifier!, cvAbi, 'publishAgeCommitments', [births.map((r) => r.address as Address), births.map((r) => BigInt(r.commitment))]));
    return rows.length;
  }

  const flush = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          while ((await publishOnce()) === (opts.batchSize ?? 100));
        } while (again && !stopped);
      } catch (err) {
        opts.onError(err);
      } finally {
        running = null;
      }
    })();
    return running;
  };

  return {
    flush,
    /** A new commitment exists: publish soon (batches whatever arrives meanwhile). */
    nudge() {
      if (stopped || nudgeTimer) return;
      nudgeTimer = setTimeout(() => {
        nudgeTimer = null;
        void flush();
      }, 200);
    },
    worker: {
      name: 'proofs-commitment-publisher',
      start() {
        stopped = false;
        const tick = () => {
          if (stopped) return;
          void flush().finally(() => {
            if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? 5000);
          });
        };
        tick();
      },
      async stop() {
        stopped = true;
        for (const t of [timer, nudgeTimer]) if (t) clearTimeout(t);
        timer = nudgeTimer = null;
        await running;
      },
    },
  };
}
