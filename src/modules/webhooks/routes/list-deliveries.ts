// GET /webhooks/{id}/deliveries: a webhook's recent deliveries and their attempts.
import type { App } from '../../../platform/http/types.js';
import type { WebhookService } from '../service.js';
import { DeliveriesQuery, DeliveryList, WebhookIdParams } from '../schemas.js';
import { caller, deliveryPage, tags } from './shared.js';

export function listDeliveries(s: App, service: WebhookService): void {
  s.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        operationId: 'webhooks.listDeliveries',
        tags,
        summary: 'Recent deliveries and their attempts',
        description:
          'The most recent deliveries of this webhook (newest first), each with its status and every attempt (status code, duration, error). ' +
          'A delivery is `pending` until it succeeds, `delivered` after, `failed` when its retries are exhausted; the pending deliveries of an ' +
          'inactive webhook stay pending and are not sent. Paged with `limit` and `cursor` (see Pagination).',
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList },
      },
      config: { auth: 'apiKey', sandbox: true },
    },
    async (req) => deliveryPage(service, caller(req), req.params.id, req.query),
  );
}
