// POST /billing/cancel: ends the key's subscription, now or at the end of the paid period.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { CancelBody, PlanResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function cancelPlan(s: App, { subscriptions }: BillingRouteDeps): void {
  s.post(
    '/billing/cancel',
    {
      config: { auth: 'apiKey', sandbox: true },
      schema: {
        operationId: 'billing.cancelPlan',
        tags: ['Billing'],
        summary: "Cancel this key's subscription",
        description:
          'With Stripe, `atPeriodEnd: true` (default) keeps the plan until the paid period ends, when customer.subscription.deleted makes the key Free; ' +
          '`false` cancels now and the key is Free at once. The local provider has no billing periods: it always ends the subscription now. ' +
          '409 when the key has no active subscription.',
        body: CancelBody,
        response: { 200: PlanResponse, ...errorResponses(409, 502) },
      },
    },
    async (req) => subscriptions.cancel(req.apiKey!, req.body?.atPeriodEnd ?? true),
  );
}
