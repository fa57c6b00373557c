// POST /billing/checkout: a hosted checkout that upgrades this key once paid.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { CheckoutBody, CheckoutResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function createCheckout(s: App, { payments }: BillingRouteDeps): void {
  s.post(
    '/billing/checkout',
    {
      config: { auth: 'apiKey', sandbox: true, idempotent: true },
      schema: {
        operationId: 'billing.createCheckout',
        tags: ['Billing'],
        summary: 'Start a checkout to upgrade this API key',
        description:
          'Creates a hosted checkout for the plan; send the user to `url`. When the payment completes, the key sent in X-API-Key is upgraded ' +
          '(checkout.session.completed). With Stripe configured the URL is a Stripe Checkout page; otherwise it is the built-in local checkout page.',
        body: CheckoutBody,
        response: { 200: CheckoutResponse, ...errorResponses(403, 409, 502) },
      },
    },
    async (req) => payments.createCheckout(req.apiKey!, req.body),
  );
}
