// Schemas of the listener routes (`credence webhooks listen`) and of the sandbox trigger (`credence trigger`).
import { Type } from '@sinclair/typebox';
import { EthAddress, Nullable, Uuid } from '../../platform/http/schemas.js';
import { CategorySchema } from '../reputation/index.js';

export const ListenBody = Type.Object(
  { walletAddress: Type.Optional(EthAddress({ description: 'only events of this wallet; omitted means every wallet' })) },
  { title: 'ListenRequest' },
);

/** A stream is opened only for a client that reads one (as EventSource does), never by a plain JSON call. */
export const ListenHeaders = Type.Object({
  accept: Type.String({ pattern: 'text/event-stream', description: 'must accept text/event-stream', examples: ['text/event-stream'] }),
});

export const ListenStream = {
  description:
    'A server-sent event stream. First `event: ready` with `data: {webhookId, secret, environment}` (the temporary webhook and its signing ' +
    'secret); then one `event: delivery` per delivery, `data: {deliveryId, headers, body}`: the exact body and signature headers a webhook ' +
    'URL would receive. A comment line (`: ping`) every 15 s keeps the connection open. The temporary webhook is deleted when the stream closes.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

export const ListenerIdParams = Type.Object({ id: Uuid({ description: 'the temporary webhook (webhookId of the ready event)' }) });

export const AckBody = Type.Object(
  {
    deliveryId: Uuid({ description: 'the delivery acknowledged (deliveryId of the delivery event, also its webhook-id header)' }),
    statusCode: Nullable(
      Type.Integer({ minimum: 100, maximum: 599, description: "the local receiver's HTTP status; null when it could not be reached" }),
    ),
    error: Type.Optional(Type.String({ maxLength: 500, description: 'why the local receiver could not be reached' })),
  },
  { title: 'ListenAck' },
);

export const TriggerBody = Type.Object(
  {
    event: Type.Literal('score.updated', { description: 'the event to trigger (score.updated)' }),
    address: Type.Optional(EthAddress({ description: "the wallet whose sandbox score changes; default the key owner's wallet" })),
    category: Type.Optional({ ...CategorySchema, default: 'OVERALL' }),
  },
  { title: 'TriggerEventRequest' },
);

export const TriggerResult = Type.Object(
  {
    event: Type.Literal('score.updated'),
    address: EthAddress(),
    category: CategorySchema,
    oldScore: Type.Integer({ description: 'the sandbox score before the change (what a test key reads)' }),
    newScore: Type.Integer({ description: 'the score the event announces' }),
    deliveryIds: Type.Array(Uuid(), {
      description:
        'one queued delivery per active test webhook or listener of this key that matches the wallet; follow each in GET /webhooks/{id}/deliveries',
    }),
  },
  { title: 'TriggeredEvent' },
);
