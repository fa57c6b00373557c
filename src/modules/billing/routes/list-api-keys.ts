// GET /billing/api-keys: the signed-in wallet's keys, paged.
import type { App } from '../../../platform/http/types.js';
import { ApiKeyList, ApiKeyListQuery } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function listApiKeys(s: App, { keys }: BillingRouteDeps): void {
  s.get(
    '/billing/api-keys',
    {
      config: { auth: 'jwt' },
      schema: {
        operationId: 'billing.listApiKeys',
        tags: ['Billing'],
        summary: "The signed-in wallet's API keys",
        description:
          'Every key the signed-in wallet created, newest first, with its status, last use (recorded within a few seconds), expiry and subscription. Never the key itself. ' +
          'Paged with `limit` and `cursor` (see Pagination).',
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyList },
      },
    },
    async (req) => keys.list(req.user!, req.query as { limit?: number; cursor?: string }),
  );
}
