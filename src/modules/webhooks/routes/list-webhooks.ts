// GET /webhooks: the calling key's webhooks, oldest first.
import type { App } from '../../../platform/http/types.js';
import type { WebhookService } from '../service.js';
import { WebhookList, WebhookListQuery } from '../schemas.js';
import { caller, tags, webhookPage } from './shared.js';

export function listWebhooks(s: App, service: WebhookService): void {
  s.get(
    '/webhooks',
    {
      schema: {
        operationId: 'webhooks.listWebhooks',
        tags,
        summary: "List this API key's webhooks",
        description:
          'Only the webhooks registered with the calling key, oldest first, paged with `limit` and `cursor` (see Pagination). Secrets are never listed.',
        querystring: WebhookListQuery,
        response: { 200: WebhookList },
      },
      config: { auth: 'apiKey', sandbox: true },
    },
    async (req) => webhookPage(service, caller(req), req.query as { limit?: number; cursor?: string }),
  );
}
