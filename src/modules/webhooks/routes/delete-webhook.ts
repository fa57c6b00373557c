// DELETE /webhooks/{id}: deletes a webhook with its undelivered deliveries and history.
import type { App } from '../../../platform/http/types.js';
import type { WebhookService } from '../service.js';
import { WebhookIdParams } from '../schemas.js';
import { caller, tags } from './shared.js';

export function deleteWebhook(s: App, service: WebhookService): void {
  s.delete(
    '/webhooks/:id',
    {
      schema: {
        operationId: 'webhooks.deleteWebhook',
        tags,
        summary: 'Delete a webhook',
        description:
          'Deletes the webhook with its undelivered deliveries and history (nothing is sent to it afterwards). To resume an inactive webhook ' +
          'without losing its queued events, use POST /webhooks/{id}/enable instead.',
        params: WebhookIdParams,
        response: { 204: { type: 'null', description: 'Deleted.' } },
      },
      config: { auth: 'apiKey', sandbox: true },
    },
    async (req, reply) => {
      await service.remove(caller(req), req.params.id);
      return reply.code(204).send();
    },
  );
}
