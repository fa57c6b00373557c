// POST /billing/plan: moves the key's one subscription to another paid plan.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { PlanBody, PlanResponse } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function changePlan(s: App, { subscriptions }: BillingRouteDeps): void {
  s.post(
    '/billing/plan',
    {
      config: { auth: 'apiKey', sandbox: true },
      schema: {
        operationId: 'billing.changePlan',
        tags: ['Billing'],
        summary: "Change the plan of this key's subscription",
        description:
          'Moves the key sent in X-API-Key to another paid plan by updating its one subscription (Stripe subscription update with proration; ' +
          'the local provider mirrors it with a signed customer.subscription.updated). Never a second subscription. 409 when the key has no ' +
          'active subscription (start one with POST /billing/checkout).',
        body: PlanBody,
        response: { 200: PlanResponse, ...errorResponses(409, 502) },
      },
    },
    async (req) => subscriptions.changePlan(req.apiKey!, req.body.planId),
  );
}
