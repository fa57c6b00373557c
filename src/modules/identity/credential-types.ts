// Which credentials the service's issuer key may sign with its own claims, and how everything else is issued.
// The service signs, as its own finding, only a type whose claims it writes from its records (verified-claims.ts).
// Anything else a holder submits is the holder's assertion: signed by the holder (iss = the holder's DID), or signed
// by the service as a HolderAssertion whose subject nests the claims under `assertion` with `assertedBy`, so the
// requested type and claims never appear at the top level of a service-signed credential.

/** Types whose claims the service writes from what it established itself. */
export const SERVICE_TYPES = ['KYCVerified', 'AgeOver', 'ReputationScore', 'SanctionsScreening', 'DIDControl'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** The VC type of a holder's assertion signed by the service. */
export const HOLDER_ASSERTION_TYPE = 'HolderAssertion';

/**
 * The service-verified types that count as identity evidence (IDENTITY's VERIFIABLE_CREDENTIALS): those backed by a
 * completed KYC. DIDControl, ReputationScore and SanctionsScreening restate facts the model already reads (or the
 * score itself), so asking for them adds nothing.
 */
export const IDENTITY_EVIDENCE_TYPES: readonly ServiceType[] = ['KYCVerified', 'AgeOver'];

/** Revoked with the KYC that backs them. */
export const KYC_BACKED_TYPES: readonly ServiceType[] = ['KYCVerified', 'AgeOver'];

export type CredentialKind = 'service_verified' | 'holder_assertion' | 'holder_signed' | 'legacy_holder_written';

/** Names no holder may use, in any spelling: the service's types and the VC machinery's own. */
const RESERVED = [
  ...SERVICE_TYPES,
  HOLDER_ASSERTION_TYPE,
  'VerifiableCredential',
  'BitstringStatusListCredential',
  'StatusList2021Credential',
];

/** Case, width, separators and a trailing "Credential" do not make a different name ("kycverified", "KYC_Verified_Credential"). */
export const normalizeType = (t: string) =>
  t
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/credential$/, '');

const RESERVED_BY_NORMAL = new Map(RESERVED.map((t) => [normalizeType(t), t]));

export type TypeClass = { kind: 'service'; type: ServiceType } | { kind: 'holder' } | { kind: 'lookalike'; of: string };

export function classifyType(requested: string): TypeClass {
  const service = SERVICE_TYPES.find((t) => t === requested);
  if (service) return { kind: 'service', type: service };
  const of = RESERVED_BY_NORMAL.get(normalizeType(requested));
  return of ? { kind: 'lookalike', of } : { kind: 'holder' };
}
