// TypeBox schemas of the proofs routes.
import { Type, type Static } from '@sinclair/typebox';
import { EthAddress } from '../../platform/http/schemas.js';
import { CATEGORIES } from '../scoring/contracts.js';

export const PROOF_TYPES = ['ScoreAboveThreshold', 'AgeVerification', 'AgeAboveMinimum', 'KYCVerified'] as const;
export const MAX_PROOF_CHARS = 10_000;

export const ProveBody = Type.Object({
  subject: EthAddress({ description: 'the wallet the statement is about' }),
  proofType: Type.Union(
    PROOF_TYPES.map((t) => Type.Literal(t)),
    { description: 'ScoreAboveThreshold; AgeVerification (alias AgeAboveMinimum); KYCVerified' },
  ),
  category: Type.Optional(Type.Union(CATEGORIES.map((c) => Type.Literal(c)), { description: 'score category (required for ScoreAboveThreshold)' })),
  threshold: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'minimum score (required for ScoreAboveThreshold)' })),
  minimumAge: Type.Optional(Type.Integer({ minimum: 1, maximum: 150, description: 'whole years, for age proofs; default 21' })),
});
export type ProveBody = Static<typeof ProveBody>;

const PublicInputsOut = Type.Object({
  threshold: Type.Optional(Type.Integer({ description: 'score proofs: the threshold proven' })),
  category: Type.Optional(Type.String({ description: 'score proofs: the category' })),
  categoryHash: Type.Optional(Type.String({ description: 'score proofs: keccak256 of the category name, 0x hex' })),
  minimumAge: Type.Optional(Type.Integer({ description: 'age proofs: the minimum age proven (0 for KYCVerified)' })),
  currentDate: Type.Optional(Type.Integer({ description: 'age proofs: the UTC date (yyyymmdd) the age holds on' })),
  timestamp: Type.Integer({ description: 'Unix seconds when the proof was made' }),
  subject: Type.String({ description: 'the wallet (EIP-55)' }),
  commitment: Type.String({ description: 'decimal Poseidon commitment the proof is against' }),
});

export const ProveResponse = Type.Object({
  proof: Type.String({
    description: '0x hex: abi.encode(uint8 proofType, uint256[2] a, uint256[2][2] b, uint256[2] c, uint256[4] publicSignals), ready for ReputationOracle.verifyProof',
  }),
  proofType: Type.String(),
  publicInputs: PublicInputsOut,
});

export const VerifyBody = Type.Object({
  proof: Type.String({ maxLength: MAX_PROOF_CHARS, description: 'the proof string from /reputation/prove (max 10,000 characters)' }),
  publicInputs: Type.Optional(
    Type.Object(
      {
        threshold: Type.Optional(Type.Integer()),
        category: Type.Optional(Type.String()),
        categoryHash: Type.Optional(Type.String()),
        minimumAge: Type.Optional(Type.Integer()),
        currentDate: Type.Optional(Type.Integer()),
        timestamp: Type.Optional(Type.Integer()),
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
});

export const VerificationKeysResponse = Type.Object({
  ptauPower: Type.Integer({ description: 'power of the phase-1 powers of tau the keys were made from' }),
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
