// Billing routes: API key creation, usage, checkout, the local checkout page and payment-processor events, one file
// each under routes/; this registers them in the order the OpenAPI document lists them.
import { apiRoutes, type App } from '../../platform/http/types.js';
import type { AppContext } from '../../platform/context.js';
import type { createKeyService } from './keys.js';
import type { Payments } from './payments.js';
import type { BillingRepo } from './repo.js';
import { createSubscriptions } from './subscriptions.js';
import { localDeliverer, type BillingRouteDeps } from './routes/shared.js';
import { createApiKey } from './routes/create-api-key.js';
import { listApiKeys } from './routes/list-api-keys.js';
import { revokeApiKey } from './routes/revoke-api-key.js';
import { rotateApiKey } from './routes/rotate-api-key.js';
import { changePlan } from './routes/change-plan.js';
import { cancelPlan } from './routes/cancel-plan.js';
import { getUsage } from './routes/get-usage.js';
import { getDailyUsage } from './routes/get-daily-usage.js';
import { createCheckout } from './routes/create-checkout.js';
import { localCheckoutPage } from './routes/local-checkout-page.js';
import { confirmLocalCheckout } from './routes/confirm-local-checkout.js';
import { checkoutDonePage } from './routes/checkout-done-page.js';
import { receivePaymentEvent } from './routes/receive-payment-event.js';

const ROUTES = [
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  changePlan,
  cancelPlan,
  getUsage,
  getDailyUsage,
  createCheckout,
  localCheckoutPage,
  confirmLocalCheckout,
  checkoutDonePage,
  receivePaymentEvent,
];

export function billingRoutes(app: App, ctx: AppContext, repo: BillingRepo, keys: ReturnType<typeof createKeyService>, payments: Payments) {
  const deliverLocal = localDeliverer(app);
  const deps: BillingRouteDeps = { keys, payments, deliverLocal, subscriptions: createSubscriptions(ctx, repo, payments, deliverLocal) };
  apiRoutes(app, (s) => {
    for (const route of ROUTES) route(s, deps);
  });
}
