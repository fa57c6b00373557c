// Webhook subscription routes (API key): register, list, read, delete, and the recent delivery attempts.
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { toChecksum } from '../../platform/http/address.js';
import type { SubscriptionRow } from './repo.js';
import type { WebhookService, Caller } from './service.js';
import { registerRecoveryRoutes } from './recovery-routes.js';
import {
  CreateWebhookBody,
  DebtClaimFiledEvent,
  DeliveriesQuery,
  DeliveryList,
  ScoreUpdatedEvent,
  Webhook,
  WebhookCreated,
  WebhookIdParams,
  WebhookList,
  WebhookListQuery,
} from './schemas.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../platform/http/pagination.js';

const tags = ['Webhooks'];

/** A schema as OpenAPI 3.0 takes it: one `example`, not JSON Schema's `examples` (route schemas get this from
 * openapi-document.ts; callbacks are not walked there). */
function openapi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openapi30);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'examples' && Array.isArray(v)) {
      if (v.length && !('example' in node)) out.example = v[0];
    } else out[k] = openapi30(v);
  }
  return out;
}

/** OpenAPI 3.0 callbacks of POST /webhooks: the `score.updated` and `debt_claim.filed` deliveries to the registered URL. */
const deliveries = {
  callbacks: {
    'debt_claim.filed': {
      '{$request.body#/url}': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: openapi30(DebtClaimFiledEvent) } } },
          responses: {
            '2XX': { description: 'Any 2xx acknowledges the delivery; anything else is retried along the schedule, as for score.updated.' },
          },
        },
      },
    },
    'score.updated': {
      '{$request.body#/url}': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: openapi30(ScoreUpdatedEvent) } } },
          responses: {
            '2XX': {
              description: 'Any 2xx acknowledges the delivery; anything else, or no answer within 10 s, is retried along the schedule.',
            },
          },
        },
      },
    },
  },
};
const caller = (req: FastifyRequest): Caller => ({ keyId: req.apiKey!.keyId, tier: req.apiKey!.tier });

export const view = (r: SubscriptionRow) => ({
  id: r.id,
  url: r.url,
  walletAddressFilter: r.wallet_address_filter ? toChecksum(r.wallet_address_filter) : null,
  isActive: r.is_active,
  consecutiveFailures: r.consecutive_failures,
  lastDeliveryAt: r.last_delivery_at,
  createdAt: r.created_at,
});

export function registerWebhookRoutes(app: App, service: WebhookService) {
  app.register(
    async (scope) => {
      const s = scope.withTypeProvider<TypeBoxTypeProvider>();
      registerRecoveryRoutes(s as unknown as App, service, view);
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
        async (req) => {
          const { limit = 100, cursor } = req.query as { limit?: number; cursor?: string };
          const after = cursor ? decodeCursor('webhooks', cursor, [CREATED_KEY, UUID]) : null;
          const page = cutPage(await service.list(caller(req), { limit: limit + 1, after }), limit, 'webhooks', (r) => [
            r.created_key,
            r.id,
          ]);
          return { count: page.items.length, webhooks: page.items.map(view), nextCursor: page.nextCursor, hasMore: page.hasMore };
        },
      );

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
        async (req) => {
          const { limit, cursor } = req.query;
          const before = cursor ? decodeCursor('webhook_deliveries', cursor, [CREATED_KEY, UUID]) : null;
          const page = cutPage(
            await service.deliveries(caller(req), req.params.id, limit + 1, before),
            limit,
            'webhook_deliveries',
            (d) => [d.row.created_key, d.row.id],
          );
          const items = page.items;
          return {
            count: items.length,
            nextCursor: page.nextCursor,
            hasMore: page.hasMore,
            deliveries: items.map(({ row, attempts }) => ({
              id: row.id,
              event: row.event_type,
              walletAddress: row.wallet_address ? toChecksum(row.wallet_address) : null,
              category: row.category,
              status: row.status as 'pending' | 'delivered' | 'failed',
              attemptCount: row.attempts,
              nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
              deliveredAt: row.delivered_at,
              createdAt: row.created_at,
              attempts: attempts.map((a) => ({
                attempt: a.attempt,
                statusCode: a.status_code,
                durationMs: a.duration_ms,
                error: a.error,
                succeeded: a.succeeded,
                attemptedAt: a.created_at,
              })),
            })),
          };
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
