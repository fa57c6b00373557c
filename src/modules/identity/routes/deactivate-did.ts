// DELETE /identity/{did}: the owner deactivates the DID for good.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { DidDeactivated, DidParams } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function deactivateDid(s: App, { dids }: IdentityRouteDeps): void {
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
        response: { 204: DidDeactivated, ...errorResponses(403, 409) },
      },
    },
    async (req, reply) => {
      await dids.deactivate(req.params.did, req.user!.address);
      return reply.code(204).send();
    },
  );
}
