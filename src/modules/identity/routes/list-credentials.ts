// GET /identity/{did}/credentials: a DID's credentials, newest first, paged through Link.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { linkNext } from '../../../platform/http/pagination.js';
import { CredentialList, CredentialListQuery, DidParams } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function listCredentials(s: App, { creds }: IdentityRouteDeps): void {
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
        querystring: CredentialListQuery,
        response: { 200: CredentialList, ...errorResponses(403) },
      },
    },
    async (req, reply) => {
      const page = await creds.list(req.params.did, req.user!, req.query as { limit?: number; cursor?: string });
      linkNext(req, reply, page.nextCursor);
      return page.items;
    },
  );
}
