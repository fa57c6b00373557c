// Identity routes: DID registration, resolution and update; credential issue, list, verify and revoke.
import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import type { CredentialService } from './credentials.js';
import { toDidRecord, type DidService } from './service.js';
import {
  Credential,
  CredentialParams,
  DidParams,
  DidRecord,
  IssueBody,
  IssueResponse,
  RegisterBody,
  RegisterResponse,
  UpdateBody,
  VerifyBody,
  VerifyResponse,
} from './schemas.js';
import { notFound } from '../../platform/errors.js';
import { linkNext, pageQuery } from '../../platform/http/pagination.js';

const tags = ['Identity'];

/** The wallet of a did:credence DID (its last part; the path pattern was validated): its session reads it. */
const didWallet = (req: { params: unknown }) => (req.params as { did: string }).did.split(':').pop()!;

export function registerIdentityRoutes(app: App, dids: DidService, creds: CredentialService) {
  app.register(
    async (s) => {
      s.post<{ Body: RegisterBody }>(
        '/identity/register',
        {
          config: { auth: 'public', idempotent: true },
          schema: {
            operationId: 'identity.registerDid',
            tags,
            summary: 'Register a DID for a wallet',
            description:
              'Creates `did:credence:<chainId>:<lowercase address>` with a W3C DID Core document (one EcdsaSecp256k1RecoveryMethod2020 ' +
              'verification method whose `blockchainAccountId` is `eip155:<chainId>:<address>`, used for authentication and assertions). ' +
              'Any EIP-155 chain id >= 1 is accepted (default 1); scores use the five supported chains. One DID per wallet and chain: ' +
              'registering again gives 409 whose `details` names the existing DID.',
            body: RegisterBody,
            response: { 201: RegisterResponse, ...errorResponses(409) },
          },
        },
        async (req, reply) => {
          const row = await dids.registerOrConflict(req.body.walletAddress, req.body.chainId);
          return reply.code(201).send({ id: row.id, did: row.did, createdAt: row.created_at });
        },
      );

      s.post<{ Body: { jwt: string } }>(
        '/identity/credentials/verify',
        {
          config: { auth: 'public' },
          schema: {
            operationId: 'identity.verifyCredential',
            tags,
            summary: 'Verify a credential JWT',
            description:
              'Checks the ES256K signature against the issuer DID document as this service resolves it, and reports expiry and revocation. ' +
              '`valid` is true only when the signature checks out and the credential is neither expired, revoked nor not yet valid; ' +
              '`reason` says why not. A token that cannot be read is answered with `valid: false, reason: "malformed"`, not an error.',
            body: VerifyBody,
            response: { 200: VerifyResponse },
          },
        },
        async (req) => creds.verify(req.body.jwt),
      );

      s.get<{ Params: { did: string } }>(
        '/identity/:did',
        {
          config: { auth: 'apiKey', cost: 0, owner: didWallet },
          schema: {
            operationId: 'identity.resolveDid',
            tags,
            summary: 'Resolve a DID',
            description:
              'The DID record with its document (a JSON string). Accepts `did:credence:0x...` (chain 1) and any hex case. ' +
              'Free (counts 0 queries). Cached 5 minutes per DID; an update evicts the entry on every instance. ' +
              "The DID's wallet may also read it with its session alone (Authorization: Bearer, no API key); another wallet's session gets 403.",
            params: DidParams,
            response: { 200: DidRecord },
          },
        },
        async (req) => {
          const row = await dids.resolve(req.params.did);
          if (!row) throw notFound(`No DID ${req.params.did} is registered.`);
          return toDidRecord(row);
        },
      );

      s.put<{ Params: { did: string }; Body: { didDocument: string } }>(
        '/identity/:did',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'identity.updateDid',
            tags,
            summary: 'Replace the DID document',
            description:
              'Only the wallet that owns the DID (the JWT subject) may do this; anyone else gets 403. The document must be a JSON object ' +
              'whose `id` is this DID, at most 50,000 characters. 204 on success; 409 when the DID is deactivated.',
            params: DidParams,
            body: UpdateBody,
            response: { 204: Type.Null({ description: 'updated' }), ...errorResponses(403, 409) },
          },
        },
        async (req, reply) => {
          await dids.updateDocument(req.params.did, req.body.didDocument, req.user!.address);
          return reply.code(204).send();
        },
      );

      s.delete<{ Params: { did: string } }>(
        '/identity/:did',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'identity.deactivateDid',
            tags,
            summary: 'Deactivate a DID',
            description:
              'Owner only (403 otherwise). Permanent: the record stays resolvable with `isActive: false`, its document can no longer be ' +
              'changed, no credential can be issued to it and no KYC session started for it (409), and credentials it issued no longer ' +
              'verify. Deactivating twice gives 409. 204 on success.',
            params: DidParams,
            response: { 204: Type.Null({ description: 'deactivated' }), ...errorResponses(403, 409) },
          },
        },
        async (req, reply) => {
          await dids.deactivate(req.params.did, req.user!.address);
          return reply.code(204).send();
        },
      );

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

      s.get<{ Params: { did: string } }>(
        '/identity/:did/credentials',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'identity.listCredentials',
            tags,
            summary: "List a DID's credentials",
            description:
              'Newest first, revoked ones included (`revoked: true`). For the DID owner or an administrator (403 otherwise). ' +
              'The body is an array: the next page is in the `Link` header (see Pagination).',
            params: DidParams,
            querystring: Type.Object(pageQuery(100, 100)),
            response: { 200: Type.Array(Credential), ...errorResponses(403) },
          },
        },
        async (req, reply) => {
          const page = await creds.list(req.params.did, req.user!, req.query as { limit?: number; cursor?: string });
          linkNext(req, reply, page.nextCursor);
          return page.items;
        },
      );

      s.post<{ Params: { did: string; id: string } }>(
        '/identity/:did/credentials/:id/revoke',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'identity.revokeCredential',
            tags,
            summary: 'Revoke a credential',
            description:
              'For the DID owner or an administrator (403 otherwise). Verification reports the credential as revoked from then on. ' +
              'Revoking an already revoked credential gives 409.',
            params: CredentialParams,
            response: { 200: Credential, ...errorResponses(403, 409) },
          },
        },
        async (req) => creds.revoke(req.params.did, req.params.id, req.user!),
      );
    },
    { prefix: '/api/v1' },
  );
}
