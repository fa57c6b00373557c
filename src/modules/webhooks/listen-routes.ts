// Routes of `credence webhooks listen` (a stream of deliveries to a temporary webhook, and their
// acknowledgements) and `credence trigger` (a sandbox event for test keys).
import { PassThrough } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { Db } from '../../platform/db/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { toChecksum } from '../../platform/http/address.js';
import type { Category } from '../scoring/contracts.js';
import type { Caller } from './service.js';
import { LISTENER_TOUCH_MS, sweepListeners, touchListeners, type ListenService } from './listen.js';
import type { Relay } from './relay.js';
import { AckBody, ListenBody, ListenHeaders, ListenStream, ListenerIdParams, TriggerBody, TriggerResult } from './listen-schemas.js';

const tags = ['Webhooks'];
const caller = (req: FastifyRequest): Caller => ({ keyId: req.apiKey!.keyId, tier: req.apiKey!.tier });
const PING_MS = 15_000;

export function registerListenRoutes(app: App, service: ListenService, relay: Relay, db: Db) {
  // Open streams end at shutdown, so closing the server does not wait for listeners to hang up.
  app.addHook('preClose', async () => relay.closeAll());
  // Presence: the listeners held here are refreshed every minute; any instance sweeps those nobody refreshed (an
  // instance that died could not delete its own).
  const held = new Set<string>();
  let presence: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    presence = setInterval(() => {
      touchListeners(db, [...held])
        .then(() => sweepListeners(db))
        .then((gone) => gone.length && app.log.info({ webhookIds: gone }, 'stale webhook listeners removed'))
        .catch((err) => app.log.warn({ err }, 'webhook listener presence not refreshed'));
    }, LISTENER_TOUCH_MS);
    presence.unref();
  });
  app.addHook('onClose', async () => clearInterval(presence));
  app.register(
    async (scope) => {
      const s = scope.withTypeProvider<TypeBoxTypeProvider>();
      s.post(
        '/webhooks/listen',
        {
          schema: {
            operationId: 'webhooks.listenWebhook',
            tags,
            summary: 'Receive deliveries over a stream (credence webhooks listen)',
            description:
              'For development, as `stripe listen`: creates a temporary webhook of this key (listed with the URL `credence-listen://...`) and ' +
              "streams its deliveries to the caller instead of POSTing them, since the service cannot reach a developer's machine. Each delivery " +
              'is signed, recorded and retried exactly as for any webhook; the caller forwards it to its local receiver and reports the local ' +
              'status with POST /webhooks/listen/{id}/acks (no acknowledgement within 10 s is a failed attempt). With a test key (any tier) it ' +
              'receives test events (POST /webhooks/trigger); with a live key (Starter and above) live score events. At most 5 listeners per key; ' +
              'the temporary webhook is deleted when the stream closes, or within about 5 minutes if the instance holding the stream dies. ' +
              'The request must accept `text/event-stream`.',
            headers: ListenHeaders,
            body: ListenBody,
            response: { 200: ListenStream, ...errorResponses(403) },
          },
          config: { auth: 'apiKey', sandbox: true },
        },
        async (req, reply) => {
          const who = caller(req);
          const { row, secret, token } = await service.open(who, req.body?.walletAddress);
          const stream = new PassThrough();
          const event = (name: string, data: unknown, id?: string) =>
            stream.write(`event: ${name}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
          const ping = setInterval(() => stream.write(': ping\n\n'), PING_MS);
          const detach = relay.attach(token, {
            write: (d) => event('delivery', { deliveryId: d.deliveryId, headers: d.headers, body: d.body }, d.deliveryId),
            end: () => stream.end(),
          });
          held.add(row.id);
          let closed = false;
          const close = () => {
            if (closed) return;
            closed = true;
            held.delete(row.id);
            clearInterval(ping);
            detach();
            stream.end();
            service.close(who, row.id).catch((err) => req.log.error({ err, webhookId: row.id }, 'temporary webhook not deleted'));
          };
          reply.raw.once('close', close);
          stream.once('end', close);
          event('ready', { webhookId: row.id, secret, environment: req.apiKey!.environment ?? 'live' });
          reply.header('cache-control', 'no-cache').header('x-accel-buffering', 'no').type('text/event-stream; charset=utf-8');
          return reply.send(stream);
        },
      );

      s.post(
        '/webhooks/listen/:id/acks',
        {
          schema: {
            operationId: 'webhooks.ackListenDelivery',
            tags,
            summary: 'Acknowledge a streamed delivery with the local status',
            description:
              "The listener's answer to one `delivery` event of POST /webhooks/listen: the HTTP status of its local receiver (2xx: delivered; " +
              'anything else, or null with `error`: a failed attempt, retried along the schedule). 404 for a webhook that is not a listener of this key.',
            params: ListenerIdParams,
            body: AckBody,
            response: { 204: { type: 'null', description: 'Recorded.' }, ...errorResponses(404) },
          },
          config: { auth: 'apiKey', sandbox: true },
        },
        async (req, reply) => {
          await service.ack(caller(req), req.params.id, req.body);
          return reply.code(204).send();
        },
      );

      s.post(
        '/webhooks/trigger',
        {
          schema: {
            operationId: 'webhooks.triggerEvent',
            tags,
            summary: 'Trigger a test event (test keys)',
            description:
              "Test keys (cred_test_...) only: makes a sandbox score change of `address` (default: the key owner's wallet) in `category` " +
              '(default OVERALL) and sends a real, signed `score.updated` event about it to the active test webhooks and listeners of this key ' +
              'that match the wallet, through the same outbox, signatures and retries as live events, and as `ScoreUpdated` to the test connections of the hub opened with this key. Sandbox scores themselves stay deterministic ' +
              '(reads still answer `oldScore`). Test events never reach live webhooks; live credentials get 403.',
            body: TriggerBody,
            response: { 202: TriggerResult, ...errorResponses(403) },
          },
          config: { auth: 'apiKey', sandbox: true },
        },
        async (req, reply) => {
          const address = toChecksum(req.body.address ?? req.apiKey!.ownerAddress);
          const r = await service.triggerScoreUpdated(caller(req), address, (req.body.category ?? 'OVERALL') as Category);
          return reply.code(202).send(r);
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
