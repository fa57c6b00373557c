// TypeBox schemas of the webhook routes, and of the `score.updated` event they deliver (documented as the
// callback of POST /webhooks).
import { Type, type Static } from '@sinclair/typebox';
import { EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { PageCursor, pageFields, pageQuery } from '../../platform/http/pagination.js';
import { CategorySchema, Coverage } from '../reputation/index.js';

export const CreateWebhookBody = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'http(s) URL the deliveries are POSTed to; private, loopback and link-local targets are refused',
  }),
  walletAddress: Type.Optional(EthAddress({ description: 'only changes of this wallet (alias of walletAddressFilter)' })),
  walletAddressFilter: Type.Optional(EthAddress({ description: 'only changes of this wallet; omitted means every wallet' })),
});
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const WebhookCreated = Type.Object({
  id: Uuid(),
  url: Type.String(),
  walletAddressFilter: Nullable(EthAddress()),
  secret: Type.String({ description: 'signing secret (whsec_...), shown only in this response' }),
  createdAt: Timestamp(),
});

export const Webhook = Type.Object(
  {
    id: Uuid(),
    url: Type.String(),
    walletAddressFilter: Nullable(EthAddress()),
    isActive: Type.Boolean({
      description:
        'false after 10 consecutive failed deliveries along the retry schedule; its undelivered events are kept: POST /webhooks/{id}/enable resumes it',
    }),
    consecutiveFailures: Type.Integer({
      description:
        'failed attempts in a row; while it is above 0 the endpoint gets one attempt at a time, along the retry schedule, until one succeeds',
    }),
    lastDeliveryAt: Nullable(Timestamp()),
    createdAt: Timestamp(),
  },
  { title: 'Webhook', description: 'A webhook subscription (never its secret).' },
);

export const WebhookList = Type.Object({
  count: Type.Integer({ description: 'webhooks in this page' }),
  webhooks: Type.Array(Webhook),
  ...pageFields(),
});
export const WebhookListQuery = Type.Object(pageQuery(100, 100));

export const WebhookIdParams = Type.Object({ id: Uuid() });

export const DeliveriesQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'deliveries per page, newest first (1-100, default 20)' }),
  cursor: Type.Optional(PageCursor()),
});

export const Attempt = Type.Object({
  attempt: Type.Integer({ description: '1 for the first try' }),
  statusCode: Nullable(Type.Integer({ description: 'HTTP status answered; null on a connection error or time-out' })),
  durationMs: Type.Integer(),
  error: Nullable(Type.String()),
  succeeded: Type.Boolean(),
  attemptedAt: Timestamp(),
});

export const Delivery = Type.Object({
  id: Uuid({ description: 'also sent as the webhook-id header' }),
  event: Type.String({ examples: ['score.updated', 'webhook.test'] }),
  walletAddress: Nullable(EthAddress({ description: 'null for webhook.test events' })),
  category: Nullable(Type.String({ description: 'null for webhook.test events' })),
  status: Type.Unsafe<'pending' | 'delivered' | 'failed'>({
    type: 'string',
    enum: ['pending', 'delivered', 'failed'],
    description: 'pending: waiting for its next attempt (or for the webhook to be active); delivered; failed: retries exhausted',
  }),
  attemptCount: Type.Integer(),
  nextAttemptAt: Nullable(Timestamp()),
  deliveredAt: Nullable(Timestamp()),
  createdAt: Timestamp(),
  attempts: Type.Array(Attempt),
});

export const DeliveryList = Type.Object({
  count: Type.Integer({ description: 'deliveries in this page' }),
  deliveries: Type.Array(Delivery),
  ...pageFields(),
});

export const ReplayBody = Type.Object({
  since: Type.String({
    format: 'date-time',
    description: 'deliveries created at or after this time (ISO 8601) that did not get through are sent again',
  }),
});

export const ReplayResult = Type.Object({
  requeued: Type.Integer({ description: 'deliveries queued again (failed ones with a fresh retry schedule, pending ones due now)' }),
  since: Timestamp(),
});

export const TestDelivery = Type.Object({
  deliveryId: Uuid({
    description: 'the queued webhook.test delivery (also its webhook-id header); follow it in GET /webhooks/{id}/deliveries',
  }),
  event: Type.Literal('webhook.test'),
  status: Type.Literal('pending'),
  createdAt: Timestamp(),
});

/** The body of a `score.updated` delivery (outbox.ts webhookBody); `data` carries both key sets the spec shows. */
export const ScoreUpdatedEvent = Type.Object(
  {
    event: Type.Literal('score.updated'),
    timestamp: Timestamp({ description: 'when the new score was calculated' }),
    data: Type.Object(
      {
        walletAddress: EthAddress({ description: 'EIP-55 checksummed (same as `address`)' }),
        address: EthAddress({ description: 'EIP-55 checksummed (same as `walletAddress`)' }),
        category: CategorySchema,
        oldScore: Nullable(
          Type.Integer({ minimum: 0, maximum: 1000, description: "null for the wallet's first score (same as `previousScore`)" }),
        ),
        previousScore: Nullable(Type.Integer({ minimum: 0, maximum: 1000, description: 'same as `oldScore`' })),
        newScore: Type.Integer({ minimum: 0, maximum: 1000 }),
        confidence: Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'confidence of the new score when it was calculated (not decayed)',
        }),
        tier: Type.String({ examples: ['High'] }),
        coverage: Type.Optional({
          ...Coverage,
          description:
            "How much of the wallet's on-chain history the new score covers, read when the change was computed (every change carries it; " +
            'only deliveries queued before coverage existed lack it). With chain sources, `score.updated` fires as each chain ' +
            'completes: `status` is `partial` until every configured chain is read to its final block, then `complete`; with no chain source ' +
            'it is `none` with reason `NO_CHAIN_SOURCE`.',
        }),
      },
      { title: 'ScoreUpdatedData' },
    ),
  },
  { title: 'ScoreUpdatedEvent', description: 'The JSON body POSTed to a webhook URL for each score change.' },
);

/** The body of a `debt_claim.filed` delivery (debt-claims/events.ts): the debtor is told while it can still dispute. */
export const DebtClaimFiledEvent = Type.Object(
  {
    event: Type.Literal('debt_claim.filed'),
    timestamp: Timestamp({ description: 'when the claim was filed' }),
    data: Type.Object(
      {
        claimId: Type.String({ format: 'uuid' }),
        debtorAddress: EthAddress({ description: 'EIP-55; the wallet the webhook filter matches' }),
        creditorAddress: EthAddress(),
        claimType: Type.String({ examples: ['DefaultedLoan'] }),
        amount: Type.String({ description: 'the claimed amount, exact decimal as a string', examples: ['1500.25'] }),
        currency: Type.String({ examples: ['USDC'] }),
        chainId: Type.Integer(),
        evidenceTransactionHash: Type.String(),
        protocolName: Type.String(),
        createdAt: Timestamp(),
        noticeEndsAt: Nullable(
          Timestamp({
            description: 'the claim has no score impact before this; a dispute before it stops the claim from counting while under review',
          }),
        ),
        disputeUrl: Type.String({
          description: 'POST here with {debtorAddress, reason} to dispute',
          examples: ['/api/v1/debt-claims/3f1c.../dispute'],
        }),
      },
      { title: 'DebtClaimFiledData' },
    ),
  },
  {
    title: 'DebtClaimFiledEvent',
    description:
      'POSTed to webhooks matching the debtor (or every wallet) when a debt claim is filed against it; delivered and retried like score.updated.',
  },
);
