// The on-chain side, through viem: deploying the contracts, publishing commitments in batches (a worker),
// and recording dispute escalations in the oracle. Active only when an RPC URL and a signer key are set.
import { existsSync, readFileSync } from 'node:fs';
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
import { BUILD_DIR, CIRCUIT_NAMES, VERIFIER_NAMES, circuitFiles, loadArtifact, type CircuitName } from './artifacts.js';
import type { OracleService } from './contracts.js';
import { SolcMissingError, compileSolidity, exportVerifierSource, loadSolc, verifierFiles, type ContractArtifact } from './solidity.js';
import { checkVerifier, proveWithDir } from './verifier-check.js';

export type { ContractArtifact };

export { loadArtifact } from './artifacts.js';

/**
 * The compiled Groth16 verifier of a circuit for the keys of a circuits directory: for the committed build,
 * contracts/artifacts (compiled by npm run build:contracts from contracts/src/verifiers); for another directory
 * (a ceremony's output), <dir>/verifiers/<Verifier>.json as `credence ceremony finalize` writes it, or, where solc
 * is installed, compiled now from <dir>/verifiers/<Verifier>.sol (exported from the zkey when missing).
 */
export async function verifierArtifact(circuit: CircuitName, circuitsDir: string = BUILD_DIR): Promise<ContractArtifact> {
  const name = VERIFIER_NAMES[circuit];
  if (path.resolve(circuitsDir) === path.resolve(BUILD_DIR)) return loadArtifact(name);
  const f = verifierFiles(name, path.join(circuitsDir, 'verifiers'));
  if (existsSync(f.json)) return JSON.parse(readFileSync(f.json, 'utf8'));
  if (!loadSolc()) throw new SolcMissingError(`${f.json} is missing; compiling it (npm run build:contracts -- --circuits ${circuitsDir})`);
  const content = existsSync(f.sol)
    ? readFileSync(f.sol, 'utf8')
    : await exportVerifierSource(circuitFiles(circuit, circuitsDir).zkey, name);
  return compileSolidity({ [`verifiers/${name}.sol`]: { content } }, { only: [name] })[name];
}

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
  const chain = defineChain({
    id: chainId,
    name: `chain-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
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

export const DEFAULT_ADMIN_ROLE: Hex = `0x${'0'.repeat(64)}`;

/**
 * Deploys both verifiers (those of the keys in `circuitsDir`, see verifierArtifact; with `checkVerifiers`, each must
 * accept a proof made with those keys before anything else is deployed), the oracle and the credential verifier. `operators` (default: the deployer, i.e. the
 * service's hot key) get ORACLE_ROLE and ISSUER_ROLE only; `governors` get GOVERNANCE_ROLE; `admins` get
 * DEFAULT_ADMIN_ROLE on both contracts, after which the deployer renounces it, so no key the service holds can
 * grant roles (e.g. GOVERNANCE_ROLE to itself, to review its own escalations). Without `admins` the deployer stays
 * admin: development chains only (`credence contracts deploy` always names admins).
 */
export async function deployContracts(
  chain: Chain,
  opts: {
    operators?: Address[];
    governors?: Address[];
    admins?: Address[];
    /** whose keys the verifiers are for (default the committed circuits/build): see verifierArtifact */
    circuitsDir?: string;
    /** before the oracle is deployed, prove with the directory's keys and check each verifier accepts (checkVerifier) */
    checkVerifiers?: boolean;
    log?: (m: string) => void;
  } = {},
): Promise<Deployment> {
  const log = opts.log ?? (() => undefined);
  const deployer = chain.account.address;
  const operators = opts.operators ?? [deployer];
  const lower = (a: string) => a.toLowerCase();
  const hot = opts.admins?.find((a) => operators.some((o) => lower(o) === lower(a)));
  if (hot) throw new Error(`${hot} holds the service's roles and must not also be an admin`);
  const circuitsDir = opts.circuitsDir ?? BUILD_DIR;
  const verifiers = Object.fromEntries(
    await Promise.all(CIRCUIT_NAMES.map(async (c) => [VERIFIER_NAMES[c], await verifierArtifact(c, circuitsDir)] as const)),
  );
  const deploy = async (name: string, args: unknown[] = []): Promise<Address> => {
    const a = verifiers[name] ?? loadArtifact(name);
    const hash = await chain.walletClient.deployContract({
      abi: a.abi,
      bytecode: a.bytecode,
      args,
      account: chain.account,
      chain: chain.walletClient.chain,
    } as never);
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 250 });
    if (!receipt.contractAddress || receipt.status !== 'success') throw new Error(`deploying ${name} failed in ${hash}`);
    log(`${name}: ${receipt.contractAddress} (gas ${receipt.gasUsed})`);
    return receipt.contractAddress;
  };
  const scoreVerifier = await deploy('ScoreThresholdVerifier');
  const ageVerifier = await deploy('AgeOverVerifier');
  if (opts.checkVerifiers) {
    const prove = proveWithDir(circuitsDir);
    for (const [c, address] of [
      ['score_threshold', scoreVerifier],
      ['age_over', ageVerifier],
    ] as const) {
      const problem = await checkVerifier(chain.publicClient, address, c, prove);
      if (problem) throw new Error(`${problem} (keys: ${path.resolve(circuitsDir)}); nothing else was deployed`);
      log(`${VERIFIER_NAMES[c]} accepts a proof made with the keys in ${circuitsDir}`);
    }
  }
  const oracle = await deploy('ReputationOracle', [deployer, scoreVerifier]);
  const credentialVerifier = await deploy('CredentialVerifier', [deployer, ageVerifier]);
  const oracleAbi = loadArtifact('ReputationOracle').abi;
  const cvAbi = loadArtifact('CredentialVerifier').abi;
  for (const op of operators) {
    await chain.write(oracle, oracleAbi, 'grantRole', [ORACLE_ROLE, op]);
    await chain.write(credentialVerifier, cvAbi, 'grantRole', [ISSUER_ROLE, op]);
  }
  for (const g of opts.governors ?? []) await chain.write(oracle, oracleAbi, 'grantRole', [GOVERNANCE_ROLE, g]);
  if (opts.admins?.length) {
    for (const a of opts.admins) {
      await chain.write(oracle, oracleAbi, 'grantRole', [DEFAULT_ADMIN_ROLE, a]);
      await chain.write(credentialVerifier, cvAbi, 'grantRole', [DEFAULT_ADMIN_ROLE, a]);
    }
    if (!opts.admins.some((a) => lower(a) === lower(deployer))) {
      await chain.write(oracle, oracleAbi, 'renounceRole', [DEFAULT_ADMIN_ROLE, deployer]);
      await chain.write(credentialVerifier, cvAbi, 'renounceRole', [DEFAULT_ADMIN_ROLE, deployer]);
      log(`the deployer ${deployer} renounced DEFAULT_ADMIN_ROLE`);
    }
  }
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
