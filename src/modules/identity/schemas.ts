// TypeBox schemas of the identity routes (DIDs and verifiable credentials).
import { Type, type Static } from '@sinclair/typebox';
import { EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { DID_PATTERN } from './did.js';
import { pageQuery } from '../../platform/http/pagination.js';

export const MAX_DID_DOCUMENT = 50_000;

export const Did = (description = 'did:credence:<chainId>:<address>; did:credence:<address> means chain 1; any hex case') =>
  Type.String({
    maxLength: 200,
    pattern: DID_PATTERN,
    description,
    examples: ['did:credence:1:0xd8da6bf26964af9d7eed9e03e53415d37aa96045'],
  });

export const RegisterBody = Type.Object({
  walletAddress: EthAddress({ description: 'the wallet the DID is for' }),
  chainId: Type.Integer({ minimum: 1, maximum: 2147483647, default: 1, description: 'EIP-155 chain id (default 1, Ethereum)' }),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const RegisterResponse = Type.Object({
  id: Uuid(),
  did: Type.String(),
  createdAt: Timestamp(),
});

export const DidParams = Type.Object({ did: Did() });
export type DidParams = Static<typeof DidParams>;

export const DidRecord = Type.Object(
  {
    id: Uuid(),
    did: Type.String({ description: 'canonical form: did:credence:<chainId>:<lowercase address>' }),
    walletAddress: Type.String({ description: 'EIP-55 checksummed' }),
    didDocument: Type.String({ description: 'the W3C DID document, serialized as JSON' }),
    chainId: Type.Integer(),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
    isActive: Type.Boolean(),
  },
  { $id: 'DidRecord', title: 'DID record' },
);

export const UpdateBody = Type.Object({
  didDocument: Type.String({ maxLength: MAX_DID_DOCUMENT, description: 'JSON object whose `id` is this DID; at most 50,000 characters' }),
});
export type UpdateBody = Static<typeof UpdateBody>;

const KINDS = ['service_verified', 'holder_assertion', 'holder_signed', 'legacy_holder_written'] as const;
const Kind = () =>
  Type.Unsafe<(typeof KINDS)[number]>({
    type: 'string',
    enum: [...KINDS],
    description:
      'service_verified: claims the service wrote from its records (type KYCVerified, AgeOver, ReputationScore, SanctionsScreening, DIDControl); ' +
      "holder_assertion: the holder's claims, signed by the service as a HolderAssertion nesting them under `assertion`; holder_signed: " +
      "signed by the holder (issuerDID is the holder's DID); legacy_holder_written: signed before the service checked claims, revoked",
  });

export const IssueBody = Type.Object(
  {
    credentialType: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^\\S(.*\\S)?$',
      description:
        'a service-verified type (KYCVerified, AgeOver, ReputationScore, SanctionsScreening, DIDControl), whose claims the service writes; ' +
        "any other name is the holder's own assertion (see the route description)",
    }),
    subject: Type.String({
      maxLength: 5000,
      description:
        'JSON object serialized as a string: the claims (for a service-verified type, its parameters and at most claims that agree ' +
        "with the service's records). Its `id`, when present, must be this DID. " +
        'An `expirationDate` (ISO 8601, in the future) sets the expiry instead of the default one year and is not a claim.',
    }),
    holderJwt: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20_000,
        description:
          "the holder's own VC-JWT of this type and subject (ES256K or ES256K-R by the DID's key): stored as it is, `iss` the holder",
      }),
    ),
  },
  {
    $id: 'IssueCredentialRequest',
    title: 'Credential request',
    examples: [
      { credentialType: 'KYCVerified', subject: '{}' },
      { credentialType: 'AgeOver', subject: '{"ageOver":18}' },
      { credentialType: 'ReputationScore', subject: '{"category":"OVERALL"}' },
      { credentialType: 'AccreditedInvestor', subject: '{"accredited":true}' },
    ],
  },
);
export type IssueBody = Static<typeof IssueBody>;

export const IssueResponse = Type.Object({
  id: Uuid(),
  credentialType: Type.String({
    description: 'the type asked for (for a holder assertion, the VC type is HolderAssertion and this is `assertion.credentialType`)',
  }),
  kind: Kind(),
  issuerDID: Type.String(),
  issuanceDate: Timestamp(),
  expirationDate: Timestamp(),
  ipfsHash: Type.String({ description: 'CIDv1 (raw codec, sha2-256) of the credential JWT' }),
  jwt: Type.String({ description: 'the verifiable credential as a JWT (ES256K, W3C VC-JWT)' }),
});

export const Credential = Type.Object(
  {
    id: Uuid(),
    credentialType: Type.String(),
    kind: Kind(),
    issuerDID: Type.String(),
    issuanceDate: Timestamp(),
    expirationDate: Timestamp(),
    revoked: Type.Boolean(),
    revokedAt: Nullable(Timestamp()),
    ipfsHash: Type.String(),
    jwt: Type.String(),
  },
  { $id: 'Credential', title: 'Credential' },
);

export const CredentialParams = Type.Object({ did: Did(), id: Uuid() });
export type CredentialParams = Static<typeof CredentialParams>;

export const VerifyBody = Type.Object({ jwt: Type.String({ minLength: 1, maxLength: 20_000, description: 'a credential JWT' }) });
export type VerifyBody = Static<typeof VerifyBody>;

export const VerifyResponse = Type.Object({
  valid: Type.Boolean({
    description: 'signature checks out against the issuer DID document, and the credential is neither expired nor revoked',
  }),
  revoked: Type.Boolean(),
  expired: Type.Boolean(),
  issuer: Nullable(Type.String({ description: 'the `iss` DID, when the JWT could be read' })),
  signatureValid: Type.Boolean(),
  credentialId: Nullable(Uuid()),
  kind: Nullable(Kind()),
  reason: Nullable(
    Type.String({
      description: 'why valid is false: malformed, unsupported_algorithm, unknown_issuer, bad_signature, not_yet_valid, expired, revoked',
    }),
  ),
});

/** A DID's credentials: a bare array, paged through the Link header. */
export const CredentialListQuery = Type.Object(pageQuery(100, 100));
export const CredentialList = Type.Array(Credential);

export const DidUpdated = Type.Null({ description: 'updated' });
export const DidDeactivated = Type.Null({ description: 'deactivated' });
