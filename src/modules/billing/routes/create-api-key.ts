// POST /billing/api-keys: a new API key for the signed-in wallet.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { CreateKeyBody, CreateKeyResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function createApiKey(s: App, { keys }: BillingRouteDeps): void {
  s.post(
    '/billing/api-keys',
    {
      config: { auth: 'jwt', idempotent: true },
      schema: {
        operationId: 'billing.createApiKey',
        tags: ['Billing'],
        summary: 'Create an API key',
        description:
          'Creates an API key tied to the signed-in wallet. Any JWT may create Free keys; paid tiers need an admin JWT (others get 403 and should upgrade a Free key ' +
          'through POST /billing/checkout). The key itself (`apiKey`, cred_live_...) is returned only in this response; only its hash is stored.',
        body: CreateKeyBody,
        response: { 201: CreateKeyResponse, ...errorResponses(403) },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return keys.create(req.user!, req.body);
    },
  );
}
