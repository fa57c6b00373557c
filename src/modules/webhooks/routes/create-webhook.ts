// POST /webhooks: subscribes a URL to score.updated and debt_claim.filed events.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import type { WebhookService } from '../service.js';
import { CreateWebhookBody, WebhookCreated } from '../schemas.js';
import { caller, deliveries, tags, view } from './shared.js';

export function createWebhook(s: App, service: WebhookService): void {
  s.post(
    '/webhooks',
    {
      schema: {
        operationId: 'webhooks.createWebhook',
        tags,
        summary: 'Register a webhook for score changes',
        description:
          'Subscribes `url` to `score.updated` and `debt_claim.filed` events of every wallet, or of one wallet (`walletAddress` or its alias `walletAddressFilter`). ' +
          'Live keys: available from the Starter tier (Free: 403); at most 3 (Starter), 10 (Growth) or 50 (Enterprise) webhooks per key (more: 403 `forbidden`). ' +
          "Test keys (cred_test_...) of every tier, Free included, register test webhooks (at least 3 per key, or their tier's allowance when larger), " +
          'which receive test events only (POST /webhooks/trigger, test debt claims). ' +
          'The URL must be http(s), at most 2,000 characters, and must not point at a private, loopback, link-local or otherwise reserved address ' +
          '(checked now and again at each delivery after DNS resolution). The signing `secret` is returned only here. ' +
          'Each delivery is a POST of `{event, timestamp, data}` (the `score.updated` callback below: `data` is `{walletAddress, address, category, ' +
          'oldScore, previousScore, newScore, confidence, tier, coverage}`, where `coverage` is the `Coverage` of score entries, how much of the ' +
          "wallet's on-chain history the new score covers: `partial` while chains are still read, `complete`, or `none` with `NO_CHAIN_SOURCE`) " +
          'signed with `X-Credence-Signature: sha256=<hex HMAC-SHA256 of the body keyed by the secret>` ' +
          'and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`. Delivery is at least once; failures are retried ' +
          'with backoff; while an endpoint fails it gets one attempt at a time along the schedule, and 10 failures in a row make the webhook inactive ' +
          '(its undelivered events are kept; POST /webhooks/{id}/enable resumes it, /replay sends failed ones again, /test sends a test event).',
        body: CreateWebhookBody,
        response: { 201: WebhookCreated, ...errorResponses(403) },
        ...deliveries,
      },
      config: { auth: 'apiKey', sandbox: true, idempotent: true },
    },
    async (req, reply) => {
      const { row, secret } = await service.create(caller(req), req.body);
      const v = view(row);
      return reply.code(201).send({ id: v.id, url: v.url, walletAddressFilter: v.walletAddressFilter, secret, createdAt: v.createdAt });
    },
  );
}
