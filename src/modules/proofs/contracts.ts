// What the proofs module offers other modules (compliance age checks, disputes escalation), and the KYC
// data it reads back from the compliance module (ModuleServices in src/platform/context.ts).
import type { SetupSummary } from './artifacts.js';

// values other modules use: the sandbox KYC test credentials read, the proof schemas compliance's routes share
export { sandboxKyc } from './sandbox.js';
export { ProofEnvironment } from './schemas.js';
export { SnarkjsField, snarkjsForm } from './snarkjs-form.js';

export type ProofType = 'ScoreAboveThreshold' | 'AgeVerification' | 'KYCVerified';

export interface ProofResult {
  /** 0x hex: ABI encoding of proof type, Groth16 a, b (Solidity order), c and the five public signals */
  proof: string;
  proofType: ProofType;
  publicInputs: {
    threshold?: number;
    minimumAge?: number;
    /** score proofs: the category name */
    category?: string;
    /** score proofs: the integer the circuit and ReputationOracle take (OVERALL = 0 ... COMPLIANCE = 8) */
    categoryId?: number;
    /** score proofs: keccak256 of the category name; informational, used by neither circuit nor contract */
    categoryHash?: string;
    /** age proofs: the date (yyyymmdd, UTC) the age holds on */
    currentDate?: number;
    timestamp: number;
    /** Unix seconds after which no verifier (API, contracts, offline) accepts the proof */
    validUntil: number;
    subject: string;
    commitment: string;
  };
}

export interface BirthDateCommitment {
  /** decimal string of a random field element */
  salt: string;
  /** decimal string: Poseidon commitment as the age circuit defines it */
  commitment: string;
}

export interface ProofsService {
  /** Makes the salted commitment the age circuit checks for a birth date given as yyyymmdd. */
  commitBirthDate(address: string, birthDate: number): Promise<BirthDateCommitment>;
  /** Proves age >= minimumAge at `now`; throws AppError proof_unsatisfiable (422) when it is not. */
  proveAge(input: { address: string; birthDate: number; salt: string; minimumAge: number; now?: Date }): Promise<ProofResult>;
}

/** Implemented by the compliance module (KYC): the approved birth date, decrypted, with its commitment. */
export interface KycRecords {
  approvedBirthDate(address: string): Promise<({ birthDate: number } & BirthDateCommitment) | null>;
  kycStatus(address: string): Promise<'none' | 'pending' | 'approved' | 'rejected'>;
}

/** On-chain side of the oracle contract; present only when CREDENCE_ORACLE_ADDRESS and a signer are configured. */
export interface OracleService {
  submitEscalation(input: { disputeId: string; address: string; category: number; reason: string }): Promise<{ txHash: string }>;
}

/** What /health shows about the trusted setup of the circuit keys and the commitment publisher on this instance. */
export interface ProofsSetupStatus extends SetupSummary {
  /** off: no chain configured or no worker here; refused: dev keys on a public chain, or the contracts' verifier
   *  does not accept the service's proofs (deployed for other keys); `refusal` says which */
  publishing: 'off' | 'connecting' | 'on' | 'refused';
  refusal: string | null;
}

interface PoolStats {
  threads: number;
  busy: number;
  queued: number;
}

/** Occupancy of the proving and verifying threads (null until they start), for /metrics. */
export interface ProofQueueStats {
  provers: PoolStats;
  verifiers: PoolStats;
}
