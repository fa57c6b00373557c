// Wires the webhooks module: subscription routes, the score-change outbox (ctx.services.webhooks) used by
// the scoring transaction, and the delivery worker (workers role), woken by `score.updated` on the bus.
import type { Module } from '../../platform/http/types.js';
import { SCORE_UPDATED } from '../scoring/contracts.js';
import { createSubscriptionRepo } from './repo.js';
import { createOutboxRepo } from './outbox-repo.js';
import { createOutbox } from './outbox.js';
import { createSender } from './sender.js';
import { createWebhookService } from './service.js';
import { WEBHOOKS_DUE, createDeliveryWorker } from './worker.js';
import { registerWebhookRoutes } from './routes.js';
import { createRelay } from './relay.js';
import { createListenService } from './listen.js';
import { SANDBOX_SCORE_UPDATED } from '../hub/index.js';
import { registerListenRoutes } from './listen-routes.js';

export const webhooksModule: Module = {
  name: 'webhooks',
  register(app, ctx) {
    const outboxRepo = createOutboxRepo(ctx.db);
    const outbox = createOutbox(outboxRepo);
    ctx.services.webhooks = outbox;
    const service = createWebhookService({
      repo: createSubscriptionRepo(ctx.db),
      cipher: ctx.cipher,
      allowPrivate: ctx.config.webhookAllowPrivate,
      wake: () => ctx.bus.publish(WEBHOOKS_DUE, {}),
    });
    registerWebhookRoutes(app, service);
    // `credence webhooks listen` and `credence trigger` (relay.ts, listen.ts)
    const relay = createRelay({ bus: ctx.bus, distributed: ctx.redis !== null });
    const wake = () => ctx.bus.publish(WEBHOOKS_DUE, {});
    const announce = (e: object) => ctx.bus.publish(SANDBOX_SCORE_UPDATED, e);
    registerListenRoutes(
      app,
      createListenService({ db: ctx.db, repo: createSubscriptionRepo(ctx.db), cipher: ctx.cipher, relay, wake, announce }),
      relay,
      ctx.db,
    );
    ctx.workers.push(
      createDeliveryWorker({
        repo: outboxRepo,
        sender: relay.sender(createSender({ allowPrivate: ctx.config.webhookAllowPrivate })),
        cipher: ctx.cipher,
        log: ctx.log,
        retrySchedule: ctx.config.webhookRetrySchedule,
        leaseSeconds: ctx.config.webhookLeaseSeconds,
        onHint: (wake) => {
          // a change of this instance whose transaction queued no delivery has nothing for the worker to claim
          const onChange = (c: unknown) => void (outbox.queuedNothing(c) || wake());
          const offs = [ctx.bus.subscribe(SCORE_UPDATED, onChange), ctx.bus.subscribe(WEBHOOKS_DUE, wake)];
          return () => offs.forEach((off) => off());
        },
      }),
    );
  },
};
