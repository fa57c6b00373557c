// POST /identity/{did}/credentials/{id}/revoke: verification reports the credential revoked from then on.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { Credential, CredentialParams } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function revokeCredential(s: App, { creds }: IdentityRouteDeps): void {
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
}
