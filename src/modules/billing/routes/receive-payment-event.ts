// POST /billing/stripe/webhook: payment processor events, verified over the raw body.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { StripeSignatureHeaders, WebhookAck } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function receivePaymentEvent(s: App, { payments }: BillingRouteDeps): void {
  // Payment events need the raw bytes for signature verification: a scoped JSON parser keeps them.
  s.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    raw.post(
      '/billing/stripe/webhook',
      {
        config: { auth: 'none' },
        schema: {
          operationId: 'billing.receivePaymentEvent',
          tags: ['Billing'],
          summary: 'Payment processor events (Stripe webhook)',
          description:
            'Receives checkout.session.completed (upgrades the key to the purchased tier), customer.subscription.updated (logged) and ' +
            'customer.subscription.deleted (downgrades the key to Free). Verified with the Stripe-Signature header over the raw body ' +
            '(400 when missing or bad, nothing changes); each event id is handled once (a redelivery answers duplicate: true).',
          headers: StripeSignatureHeaders,
          response: { 200: WebhookAck, ...errorResponses(400) },
        },
      },
      async (req) => payments.handleEvent(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
    );
  });
}
