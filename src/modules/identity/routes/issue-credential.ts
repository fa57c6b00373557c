// POST /identity/{did}/credentials: a verifiable credential signed for (or by the holder of) a DID.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { DidParams, IssueBody, IssueResponse } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function issueCredential(s: App, { creds }: IdentityRouteDeps): void {
  s.post<{ Params: { did: string }; Body: IssueBody }>(
    '/identity/:did/credentials',
    {
      config: { auth: 'jwt', idempotent: true },
      schema: {
        operationId: 'identity.issueCredential',
        tags,
        summary: 'Issue a verifiable credential to a DID',
        description:
          "The service's issuer key (`did:credence:1:<issuer address>`) signs only what the service established (`kind` in the answer):\n" +
          '- **service_verified**: `credentialType` is one of KYCVerified (from an approved KYC session of this DID), AgeOver (subject ' +
          '`{"ageOver": N}`, from the KYC birth date), ReputationScore (subject `{"category": "OVERALL"}` by default, from the scoring ' +
          'model), SanctionsScreening (from the sanctions list in force; 503 without one) or DIDControl (the wallet itself signed in with ' +
          'SIWE). The service writes the claims; a subject claim that contradicts them, or that the service does not verify, is refused ' +
          'with 422 `proof_unsatisfiable` whose `fields` name each one (`subject.<claim>`), and nothing is signed. Lifetimes: a year ' +
          '(ReputationScore 7 days, SanctionsScreening 1 day); `expirationDate` may shorten them.\n' +
          '- **holder_assertion**: any other type. The VC type is `HolderAssertion` and the subject is `{id, assertion: {assertedBy, ' +
          'credentialType, claims}}`: the requested type and claims never appear at the top level of a service-signed credential. ' +
          "`assertedBy` is this DID when its wallet asks (an administrator: the administrator's own did:credence).\n" +
          "- **holder_signed**: with `holderJwt`, the holder's own VC-JWT (ES256K or ES256K-R by a key of this DID's assertionMethod, " +
          '`iss` and `sub` this DID, `vc.type` `["VerifiableCredential", credentialType]`, `vc.credentialSubject` exactly the subject with ' +
          '`id`, a `urn:uuid` jti, nbf within the last 10 minutes, exp at most 5 years on, no credentialStatus) is stored as it is; ' +
          'its jti becomes the id, so submitting it again is 409.\n' +
          'A spelling of a service type other than the exact one (`kycverified`, `KYC_Verified_Credential`) is 400. Expires after one ' +
          'year unless the subject carries `expirationDate`. `ipfsHash` is the CIDv1 (raw, sha2-256) of the JWT, pinned to the configured ' +
          'IPFS node when there is one (502 if pinning fails). Allowed for the DID owner or an administrator (403 otherwise).',
        params: DidParams,
        body: IssueBody,
        response: { 201: IssueResponse, ...errorResponses(403, 409, 422, 502, 503) },
      },
    },
    async (req, reply) => {
      const c = await creds.issue(req.params.did, req.body.credentialType, req.body.subject, req.user!, req.body.holderJwt);
      return reply.code(201).send(c);
    },
  );
}
