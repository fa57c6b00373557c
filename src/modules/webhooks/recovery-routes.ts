// Recovery routes of a webhook (what Svix users ask for beyond delete-and-recreate): enable an inactive one
// with its kept queue, replay what did not get through since a time, and send a signed test event.
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import type { SubscriptionRow } from './repo.js';
import type { Caller, WebhookService } from './service.js';
import { ReplayBody, ReplayResult, TestDelivery, Webhook, WebhookIdParams } from './schemas.js';

const tags = ['Webhooks'];
const caller = (req: FastifyRequest): Caller => ({ keyId: req.apiKey!.keyId, tier: req.apiKey!.tier });

export function registerRecoveryRoutes(s: App, service: WebhookService, view: (r: SubscriptionRow) => unknown) {
  s.post(
    '/webhooks/:id/enable',
    {
      schema: {
        operationId: 'webhooks.enableWebhook',
        tags,
        summary: 'Re-activate a webhook',
        description:
          'Makes an inactive webhook (10 failures in a row) active again with its failure count at 0. The events it kept while inactive are ' +
          'sent at once, oldest first; if the endpoint still fails, it gets one attempt at a time along the retry schedule. Enabling an active ' +
          'webhook changes nothing. Needs no body.',
        params: WebhookIdParams,
        response: { 200: Webhook, ...errorResponses(404) },
      },
      config: { auth: 'apiKey', sandbox: true },
    },
    async (req) => view(await service.enable(caller(req), req.params.id)) as never,
  );

  s.post(
    '/webhooks/:id/replay',
    {
      schema: {
        operationId: 'webhooks.replayWebhook',
        tags,
        summary: 'Send again what did not get through',
        description:
          'Queues again every delivery of this webhook created at or after `since` that was not delivered: failed ones (retry schedule ' +
          'exhausted) start a fresh schedule, pending ones become due now. Delivered events are not repeated; each keeps its webhook-id, so a ' +
          'receiver that de-duplicates on it is safe. Deliveries are kept 30 days. An inactive webhook sends them once it is enabled.',
        params: WebhookIdParams,
        body: ReplayBody,
        response: { 202: ReplayResult, ...errorResponses(404) },
      },
      config: { auth: 'apiKey', sandbox: true, idempotent: true },
    },
    async (req, reply) => {
      const r = await service.replay(caller(req), req.params.id, new Date(req.body.since));
      return reply.code(202).send(r);
    },
  );

  s.post(
    '/webhooks/:id/test',
    {
      schema: {
        operationId: 'webhooks.testWebhook',
        tags,
        summary: 'Send a test event',
        description:
          'Queues a `webhook.test` event (`{event: "webhook.test", timestamp, data: {webhookId, url}}`), signed and retried like any ' +
          'delivery; its outcome shows in GET /webhooks/{id}/deliveries. Needs no body.',
        params: WebhookIdParams,
        response: { 202: TestDelivery, ...errorResponses(404) },
      },
      config: { auth: 'apiKey', sandbox: true, idempotent: true },
    },
    async (req, reply) => {
      const row = await service.test(caller(req), req.params.id);
      return reply
        .code(202)
        .send({ deliveryId: row.id, event: 'webhook.test' as const, status: 'pending' as const, createdAt: row.created_at });
    },
  );
}
