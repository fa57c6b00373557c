// PUT /identity/{did}: the owner replaces the DID document.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { DidParams, DidUpdated, UpdateBody } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function updateDid(s: App, { dids }: IdentityRouteDeps): void {
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
        response: { 204: DidUpdated, ...errorResponses(403, 409) },
      },
    },
    async (req, reply) => {
      await dids.updateDocument(req.params.did, req.body.didDocument, req.user!.address);
      return reply.code(204).send();
    },
  );
}
