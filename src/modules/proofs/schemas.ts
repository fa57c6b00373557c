// TypeBox schemas of the proofs routes.
import { Type, type Static } from '@sinclair/typebox';
import { EthAddress } from '../../platform/http/schemas.js';
import { CATEGORIES } from '../scoring/contracts.js';
import { SnarkjsProof } from './snarkjs-form.js';

export const PROOF_TYPES = ['ScoreAboveThreshold', 'AgeVerification', 'AgeAboveMinimum', 'KYCVerified'] as const;
export const MAX_PROOF_CHARS = 10_000;

export const ProveBody = Type.Object({
  subject: EthAddress({ description: 'the wallet the statement is about' }),
  proofType: Type.Union(
    PROOF_TYPES.map((t) => Type.Literal(t)),
    { description: 'ScoreAboveThreshold; AgeVerification (alias AgeAboveMinimum); KYCVerified' },
  ),
  category: Type.Optional(
    Type.Union(
      CATEGORIES.map((c) => Type.Literal(c)),
      { description: 'score category (required for ScoreAboveThreshold)' },
    ),
  ),
  threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'minimum score (required for ScoreAboveThreshold)' })),
  minimumAge: Type.Optional(Type.Integer({ minimum: 1, maximum: 150, description: 'whole years, for age proofs; default 21' })),
});
export type ProveBody = Static<typeof ProveBody>;

const PublicInputsOut = Type.Object({
  threshold: Type.Optional(Type.Integer({ description: 'score proofs: the threshold proven' })),
  category: Type.Optional(Type.String({ description: 'score proofs: the category' })),
  categoryId: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 8,
      description: 'score proofs: the integer the circuit and ReputationOracle take (OVERALL = 0 ... COMPLIANCE = 8)',
    }),
  ),
  categoryHash: Type.Optional(
    Type.String({
      description:
        'score proofs: keccak256 of the category name, 0x hex. Informational: neither the circuit nor the contracts use it (they take categoryId)',
    }),
  ),
  minimumAge: Type.Optional(Type.Integer({ description: 'age proofs: the minimum age proven (0 for KYCVerified)' })),
  currentDate: Type.Optional(Type.Integer({ description: 'age proofs: the UTC date (yyyymmdd) the age holds on' })),
  timestamp: Type.Integer({ description: 'Unix seconds when the proof was made' }),
  validUntil: Type.Integer({
    description:
      'Unix seconds: the proof expires after this (a public input of the proof; the API, the contracts and offline verifiers refuse it afterwards)',
  }),
  subject: Type.String({ description: 'the wallet the proof is about (EIP-55): only that wallet should be able to use it' }),
  commitment: Type.String({ description: 'decimal Poseidon commitment the proof is against' }),
});

/** live, or test for a proof made with test credentials over sandbox data. */
export const ProofEnvironment = Type.Union([Type.Literal('live'), Type.Literal('test')], {
  title: 'ProofEnvironment',
  description:
    'live: a proof over the real score or KYC. test: a sandbox proof, made with test credentials (a cred_test_ key or a test sign-in) ' +
    'over the sandbox score model and the sandbox KYC: a real Groth16 proof, but against a commitment that is never recorded nor ' +
    'published on-chain, so POST /reputation/verify with live credentials answers `valid: false` and the oracle contracts refuse it. ' +
    'Never accept a test proof as evidence about a real person.',
  examples: ['test'],
});

export const ProveResponse = Type.Object({
  proof: Type.String({
    description:
      '0x hex: abi.encode(uint8 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[5] publicSignals), ready for ReputationOracle.verifyProofFor(holder, proof, threshold, categoryId)',
  }),
  proofType: Type.String(),
  publicInputs: PublicInputsOut,
  snarkjs: SnarkjsProof,
  environment: ProofEnvironment,
});

export const VerifyBody = Type.Object({
  proof: Type.String({ maxLength: MAX_PROOF_CHARS, description: 'the proof string from /reputation/prove (max 10,000 characters)' }),
  publicInputs: Type.Optional(
    Type.Object(
      {
        threshold: Type.Optional(Type.Integer()),
        category: Type.Optional(Type.String()),
        categoryId: Type.Optional(Type.Integer()),
        categoryHash: Type.Optional(Type.String()),
        minimumAge: Type.Optional(Type.Integer()),
        currentDate: Type.Optional(Type.Integer()),
        timestamp: Type.Optional(Type.Integer()),
        validUntil: Type.Optional(Type.Integer()),
        subject: Type.Optional(Type.String()),
        commitment: Type.Optional(Type.String()),
      },
      { description: 'optional: every field given must agree with the proof, else valid is false' },
    ),
  ),
});
export type VerifyBody = Static<typeof VerifyBody>;

export const VerifyResponse = Type.Object({
  valid: Type.Boolean(),
  reason: Type.Optional(Type.String({ description: 'why the proof is not valid (absent when valid)' })),
  subject: Type.Optional(
    Type.String({
      description:
        'when valid: the wallet the proof is about (EIP-55). A valid proof about someone else proves nothing about the presenter',
    }),
  ),
  validUntil: Type.Optional(Type.Integer({ description: 'when valid: Unix seconds until which the proof stays valid' })),
  environment: {
    ...ProofEnvironment,
    description:
      'the environment the proof was checked in: live credentials accept live proofs only (a sandbox proof is `valid: false` with a ' +
      'reason saying so); test credentials accept sandbox proofs only',
  },
});

export const SetupSummary = Type.Object(
  {
    kind: Type.Union([Type.Literal('dev'), Type.Literal('ceremony')], {
      description: 'dev: single-party development setup; ceremony: multi-party',
    }),
    label: Type.String(),
    phase1Contributors: Type.Integer({ description: 'independent contributions to the powers of tau (phase 1)' }),
    phase2Contributors: Type.Integer({ description: 'independent contributions to the circuit keys (phase 2), read from the zkeys' }),
    contributors: Type.Array(Type.String(), { description: 'phase-2 contributor names, in order' }),
    beacon: Type.Boolean({ description: 'a public random beacon was applied last' }),
  },
  { description: 'who took part in the trusted setup of the circuit keys' },
);

export const VerificationKeysResponse = Type.Object({
  ptauPower: Type.Integer({ description: 'power of the phase-1 powers of tau the keys were made from' }),
  setup: SetupSummary,
  circuits: Type.Array(
    Type.Object({
      circuit: Type.String(),
      proofTypes: Type.Array(Type.String()),
      publicSignals: Type.Array(Type.String(), { description: 'names of the public signals, in order' }),
      zkeySha256: Type.String(),
      verificationKey: Type.Object({}, { additionalProperties: true, description: 'snarkjs verification_key.json' }),
    }),
  ),
});
