// DELETE /billing/api-keys/{id}: revokes a key on every instance.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { KeyIdParams } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function revokeApiKey(s: App, { keys }: BillingRouteDeps): void {
  s.delete(
    '/billing/api-keys/:id',
    {
      config: { auth: 'jwt' },
      schema: {
        operationId: 'billing.revokeApiKey',
        tags: ['Billing'],
        summary: 'Revoke an API key',
        description:
          'Revokes the key at once on every instance (cached keys are evicted through the shared event bus); further calls with it get 401. ' +
          'Only the wallet that created it (or an admin) may revoke it; any other key id answers 404. Revoking twice is not an error. Audited.',
        params: KeyIdParams,
        response: { 204: { description: 'Revoked', type: 'null' }, ...errorResponses(404) },
      },
    },
    async (req, reply) => {
      await keys.revoke(req.user!, req.params.id);
      reply.code(204);
    },
  );
}
