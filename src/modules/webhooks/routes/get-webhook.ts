// GET /webhooks/{id}: one webhook of the calling key.
import type { App } from '../../../platform/http/types.js';
import type { WebhookService } from '../service.js';
import { Webhook, WebhookIdParams } from '../schemas.js';
import { caller, tags, view } from './shared.js';

export function getWebhook(s: App, service: WebhookService): void {
  s.get(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'webhooks.getWebhook',
        tags,
        summary: 'Read one webhook',
        description: "A webhook of the calling key; another key's webhook is 404.",
        params: WebhookIdParams,
        response: { 200: Webhook },
      },
      config: { auth: 'apiKey', sandbox: true },
    },
    async (req) => view(await service.get(caller(req), req.params.id)),
  );
}
