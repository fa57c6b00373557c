// POST /billing/api-keys/{id}/rotate: a new secret for the same key, the old one kept for a grace period.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { KeyIdParams, RotateKeyBody, RotateKeyResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function rotateApiKey(s: App, { keys }: BillingRouteDeps): void {
  s.post(
    '/billing/api-keys/:id/rotate',
    {
      config: { auth: 'jwt', idempotent: true },
      schema: {
        operationId: 'billing.rotateApiKey',
        tags: ['Billing'],
        summary: 'Rotate an API key',
        description:
          'Issues a new secret for the same key (same id, tier, quota and subscription). The previous secret keeps working for ' +
          '`gracePeriodSeconds` (default 24 h, 0 ends it now), so deployments can switch without downtime; a secret rotated out earlier stops at once. ' +
          'The new key is shown only in this response. 409 for a revoked or expired key.',
        params: KeyIdParams,
        body: RotateKeyBody,
        response: { 200: RotateKeyResponse, ...errorResponses(404, 409) },
      },
    },
    async (req) => keys.rotate(req.user!, req.params.id, req.body?.gracePeriodSeconds),
  );
}
