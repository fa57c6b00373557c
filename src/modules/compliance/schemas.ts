// TypeBox schemas of the compliance routes (KYC sessions and status, age verification).
import { Type, type Static } from '@sinclair/typebox';
import { ProofEnvironment, SnarkjsField } from '../proofs/contracts.js';
import { AddressOrEns, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { KYC_PROVIDERS } from './providers/types.js';
import { PageCursor } from '../../platform/http/pagination.js';

// Same grammar as the identity module's DIDs (did:credence:[<chainId>:]0x<40 hex>).
const DID_PATTERN = '^did:credence:(?:[1-9][0-9]{0,9}:)?0x[0-9a-fA-F]{40}$';
export const Did = () => Type.String({ maxLength: 200, pattern: DID_PATTERN, description: 'did:credence:[<chainId>:]<address>' });

export const InitiateBody = Type.Object({
  did: Did(),
  provider: Type.Unsafe<(typeof KYC_PROVIDERS)[number]>({
    type: 'string',
    enum: [...KYC_PROVIDERS],
    default: KYC_PROVIDERS[0],
    description: `exactly \`${KYC_PROVIDERS[0]}\` (default) or \`${KYC_PROVIDERS[1]}\``,
  }),
});
export type InitiateBody = Static<typeof InitiateBody>;

export const KycSession = Type.Object(
  {
    sessionId: Uuid(),
    provider: Type.String(),
    redirectUrl: Type.String({ description: 'the page where the person completes verification' }),
    sessionUrl: Type.String({ description: 'same as redirectUrl' }),
    expiresIn: Type.Integer({ description: 'seconds (3600)' }),
    expiresAt: Timestamp(),
  },
  { $id: 'KycSession', title: 'KYC session' },
);

export const DidParams = Type.Object({ did: Did() });

export const KycStatus = Type.Object(
  {
    did: Type.String(),
    kycLevel: Type.Union([Type.Literal('none'), Type.Literal('basic'), Type.Literal('full')]),
    status: Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]),
    reason: Nullable(Type.String({ description: 'for rejected: the provider reason, or `expired` when the session ran out' })),
    sessionId: Uuid(),
    provider: Type.String(),
    updatedAt: Timestamp(),
  },
  { $id: 'KycStatus', title: 'KYC status' },
);

export const RevokeKycBody = Type.Object(
  {
    reason: Type.Optional(
      Type.String({ maxLength: 500, description: 'why (kept with the revoked session)', examples: ['document found to be forged'] }),
    ),
  },
  { $id: 'RevokeKycRequest', title: 'KYC revocation request' },
);
export type RevokeKycBody = Static<typeof RevokeKycBody>;

export const RevokedKyc = Type.Object(
  {
    did: Type.String(),
    kycLevel: Type.Literal('none'),
    status: Type.Literal('rejected'),
    reason: Nullable(Type.String({ description: '`revoked by an administrator`, with the reason given' })),
    sessionId: Uuid(),
    provider: Type.String(),
    updatedAt: Timestamp(),
    revokedSessions: Type.Array(Uuid(), { description: 'every approved session of the wallet, now revoked' }),
  },
  {
    $id: 'RevokedKyc',
    title: 'Revoked KYC',
    examples: [
      {
        did: 'did:credence:1:0xd8da6bf26964af9d7eed9e03e53415d37aa96045',
        kycLevel: 'none',
        status: 'rejected',
        reason: 'revoked by an administrator: document found to be forged',
        sessionId: '3f1c2a9e-8b7d-4c61-9a0e-2f5b6c7d8e9f',
        provider: KYC_PROVIDERS[0],
        updatedAt: '2026-11-26T06:00:00.000Z',
        revokedSessions: ['3f1c2a9e-8b7d-4c61-9a0e-2f5b6c7d8e9f'],
      },
    ],
  },
);

export const CallbackParams = Type.Object({ provider: Type.String({ maxLength: 100 }) });
export const CallbackResponse = Type.Object({
  received: Type.Boolean(),
  sessionId: Uuid(),
  status: Type.String(),
  duplicate: Type.Boolean({ description: 'true when this result had already been recorded (a replay)' }),
});

const MinimumAge = (def?: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 150,
    ...(def ? { default: def } : {}),
    description: def ? `years, default ${def}` : 'years; default: the jurisdiction legal age',
  });

const PublicInputs = Nullable(
  Type.Object({}, { additionalProperties: true, description: 'public signals of the proof (minimumAge, timestamp, subject, commitment)' }),
);

export const VerifyAgeBody = Type.Object({
  walletAddress: AddressOrEns({ description: 'the wallet whose age is checked' }),
  minimumAge: MinimumAge(21),
});
export type VerifyAgeBody = Static<typeof VerifyAgeBody>;
export const VerifyAgeResponse = Type.Object({
  proof: Nullable(Type.String({ description: '0x hex Groth16 proof; null when not verified' })),
  minimumAge: Type.Integer(),
  verified: Type.Boolean(),
  publicInputs: PublicInputs,
  reason: Nullable(Type.String({ description: 'why not verified: no_approved_kyc or under_minimum_age' })),
  environment: ProofEnvironment,
});

export const AgeVerifyBody = Type.Object({
  walletAddress: AddressOrEns({ description: 'the wallet whose age is checked' }),
  minimumAge: Type.Optional(MinimumAge()),
  jurisdictionCode: Type.String({
    pattern: '^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$',
    description: 'ISO 3166-2 country-region, e.g. US-CA',
    examples: ['US-CA'],
  }),
});
export type AgeVerifyBody = Static<typeof AgeVerifyBody>;
export const AgeVerifyResponse = Type.Object({
  walletAddress: Type.String(),
  jurisdictionCode: Type.String(),
  minimumAge: Type.Integer(),
  verified: Type.Boolean(),
  proof: Nullable(Type.String()),
  publicInputs: PublicInputs,
  reason: Nullable(Type.String()),
  snarkjs: SnarkjsField(),
  environment: ProofEnvironment,
});

export const AgeChecksQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'questions per page, newest first (1-1000, default 100)' }),
  ),
  cursor: Type.Optional(PageCursor()),
});
export type AgeChecksQuery = Static<typeof AgeChecksQuery>;

export const AgeCheck = Type.Object(
  {
    id: Uuid(),
    apiKeyId: Uuid({ description: 'the API key that asked' }),
    keyOwner: Type.String({ description: 'the wallet that owns that key (EIP-55)' }),
    minimumAge: Type.Integer(),
    route: Type.Union([Type.Literal('verify-age'), Type.Literal('age-verify'), Type.Literal('prove')], {
      description: 'POST /compliance/verify-age, POST /compliance/age-verify, or an age proof from POST /reputation/prove',
    }),
    verified: Nullable(Type.Boolean({ description: 'the answer given; null while the proof was being made' })),
    reason: Nullable(Type.String({ description: 'why not verified: no_approved_kyc, under_minimum_age, proof_unsatisfiable' })),
    askedAt: Timestamp(),
  },
  { $id: 'AgeCheck', title: 'Age check' },
);

/** The age questions asked about a wallet: a bare array, paged through the Link header. */
export const AgeCheckList = Type.Array(AgeCheck);
