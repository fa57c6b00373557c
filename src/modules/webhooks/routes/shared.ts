// What the webhook subscription route files share: their tag, the calling key, the webhook and delivery bodies,
// the paged lists and the OpenAPI callbacks describing what a webhook receives.
import type { FastifyRequest } from 'fastify';
import { toChecksum } from '../../../platform/http/address.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../../platform/http/pagination.js';
import type { SubscriptionRow } from '../repo.js';
import type { WebhookService, Caller } from '../service.js';
import { DebtClaimFiledEvent, ScoreUpdatedEvent } from '../schemas.js';

export const tags = ['Webhooks'];

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
export const deliveries = {
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

export const caller = (req: FastifyRequest): Caller => ({ keyId: req.apiKey!.keyId, tier: req.apiKey!.tier });

export const view = (r: SubscriptionRow) => ({
  id: r.id,
  url: r.url,
  walletAddressFilter: r.wallet_address_filter ? toChecksum(r.wallet_address_filter) : null,
  isActive: r.is_active,
  consecutiveFailures: r.consecutive_failures,
  lastDeliveryAt: r.last_delivery_at,
  createdAt: r.created_at,
});

/** One page of the calling key's webhooks, oldest first. */
export async function webhookPage(service: WebhookService, who: Caller, q: { limit?: number; cursor?: string }) {
  const { limit = 100, cursor } = q;
  const after = cursor ? decodeCursor('webhooks', cursor, [CREATED_KEY, UUID]) : null;
  const page = cutPage(await service.list(who, { limit: limit + 1, after }), limit, 'webhooks', (r) => [r.created_key, r.id]);
  return { count: page.items.length, webhooks: page.items.map(view), nextCursor: page.nextCursor, hasMore: page.hasMore };
}

/** One page of a webhook's deliveries, newest first, each with its attempts. */
export async function deliveryPage(service: WebhookService, who: Caller, id: string, q: { limit: number; cursor?: string }) {
  const { limit, cursor } = q;
  const before = cursor ? decodeCursor('webhook_deliveries', cursor, [CREATED_KEY, UUID]) : null;
  const page = cutPage(await service.deliveries(who, id, limit + 1, before), limit, 'webhook_deliveries', (d) => [
    d.row.created_key,
    d.row.id,
  ]);
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
}
