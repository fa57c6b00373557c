// What the billing route files share: the services they call, and the local provider's way to "send" its events.
import type { App } from '../../../platform/http/types.js';
import type { createKeyService } from '../keys.js';
import type { Payments } from '../payments.js';
import type { LocalDeliver, Subscriptions } from '../subscriptions.js';

export interface BillingRouteDeps {
  keys: ReturnType<typeof createKeyService>;
  payments: Payments;
  subscriptions: Subscriptions;
  deliverLocal: LocalDeliver;
}

/** The local provider "sends" its signed events to our own webhook route, exactly as Stripe would. */
export function localDeliverer(app: App): LocalDeliver {
  return async (payload, signature) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`local payment event refused: ${res.statusCode} ${res.body}`);
  };
}
