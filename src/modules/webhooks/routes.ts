// Webhook subscription routes (API key): register, list, read, delete, and the recent delivery attempts. One file
// each under routes/; this registers them (after the recovery routes) in the OpenAPI document's order.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { WebhookService } from './service.js';
import { registerRecoveryRoutes } from './recovery-routes.js';
import { view } from './routes/shared.js';
import { createWebhook } from './routes/create-webhook.js';
import { listWebhooks } from './routes/list-webhooks.js';
import { getWebhook } from './routes/get-webhook.js';
import { deleteWebhook } from './routes/delete-webhook.js';
import { listDeliveries } from './routes/list-deliveries.js';

const ROUTES = [createWebhook, listWebhooks, getWebhook, deleteWebhook, listDeliveries];

export function registerWebhookRoutes(app: App, service: WebhookService) {
  app.register(
    async (scope) => {
      const s = scope.withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
      registerRecoveryRoutes(s, service, view);
      for (const route of ROUTES) route(s, service);
    },
    { prefix: '/api/v1' },
  );
}
