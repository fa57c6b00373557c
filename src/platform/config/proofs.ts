// Proofs and the oracle contracts: proving and verifying threads, proof freshness, the trusted setup, the chain
// the commitments are published on and the roles of `credence contracts deploy`.
import { address, addresses, bool, hexKey, int, str, url, type Env } from './env.js';

export interface ProofSettings {
  chainRpcUrl: string | null;
  oracleAddress: string | null;
  credentialVerifierAddress: string | null;
  signerKey: string | null;
  proverConcurrency: number;
  verifierThreads: number;
  /** Start the proving and verifying threads at boot (API instances) instead of on the first proof. Off by default:
   *  the threads and the circuits' keys they load are ~110 MB an instance that proves nothing never needs. */
  proverWarmup: boolean;
  /** Seconds a proof stays valid (its validUntil); API, contracts and offline verifiers refuse it afterwards. */
  proofLifetimeSeconds: number;
  /** Upper bound on the delay before a superseded published commitment is replaced or cleared on-chain. */
  commitmentClearSeconds: number;
  /** Publish commitments to a public chain (1, 10, 137, 8453, 42161) with single-contributor (dev) artifacts. */
  allowDevSetup: boolean;
  /** Directory of the circuit artifacts (manifest, setup, zkeys); null: the committed circuits/build. */
  circuitsDir: string | null;
  /** `credence contracts deploy`: DEFAULT_ADMIN_ROLE and GOVERNANCE_ROLE holders (a multisig in production). */
  contractAdmins: string[];
  contractGovernance: string[];
}

export function proofSettings(env: Env): ProofSettings {
  const oracle = str(env, 'CREDENCE_ORACLE_ADDRESS');
  const verifier = str(env, 'CREDENCE_CREDENTIAL_VERIFIER_ADDRESS');
  return {
    chainRpcUrl: url(env, 'CREDENCE_CHAIN_RPC_URL', ['http:', 'https:', 'ws:', 'wss:']),
    oracleAddress: oracle ? address(oracle, 'CREDENCE_ORACLE_ADDRESS') : null,
    credentialVerifierAddress: verifier ? address(verifier, 'CREDENCE_CREDENTIAL_VERIFIER_ADDRESS') : null,
    signerKey: hexKey(env, 'CREDENCE_SIGNER_KEY'),
    proverConcurrency: int(env, 'CREDENCE_PROVER_CONCURRENCY', 2, 1, 64),
    verifierThreads: int(env, 'CREDENCE_VERIFIER_THREADS', 1, 1, 64),
    proverWarmup: bool(env, 'CREDENCE_PROVER_WARMUP', false),
    proofLifetimeSeconds: int(env, 'CREDENCE_PROOF_LIFETIME_SECONDS', 3600, 60, 30 * 86400),
    commitmentClearSeconds: int(env, 'CREDENCE_COMMITMENT_CLEAR_SECONDS', 30, 1, 3600),
    allowDevSetup: bool(env, 'CREDENCE_ALLOW_DEV_SETUP', false),
    circuitsDir: str(env, 'CREDENCE_CIRCUITS_DIR'),
    contractAdmins: addresses(env, 'CREDENCE_CONTRACT_ADMINS'),
    contractGovernance: addresses(env, 'CREDENCE_CONTRACT_GOVERNANCE'),
  };
}
