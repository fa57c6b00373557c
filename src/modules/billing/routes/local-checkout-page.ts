// GET /billing/checkout/local/{sessionId}: the local payment provider's checkout page (HTML).
import type { App } from '../../../platform/http/types.js';
import { originOf, securePage } from '../../../platform/http/page-security.js';
import { HtmlPage } from '../../../platform/http/schemas.js';
import { notFound } from '../../../platform/errors.js';
import { ConfirmQuery, LocalSessionParams } from '../schemas.js';
import { localCheckoutPage as page } from '../checkout-page.js';
import type { BillingRouteDeps } from './shared.js';

export function localCheckoutPage(s: App, { payments }: BillingRouteDeps): void {
  s.get(
    '/billing/checkout/local/:sessionId',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'billing.localCheckoutPage',
        tags: ['Billing'],
        summary: 'Local payment provider: checkout page (HTML)',
        description:
          "Served only when Stripe is not configured and local providers are on (CREDENCE_LOCAL_PROVIDERS). The page's confirm button completes the payment.",
        params: LocalSessionParams,
        querystring: ConfirmQuery,
        response: { 200: HtmlPage() },
      },
    },
    async (req, reply) => {
      const cs = await payments.localSession(req.params.sessionId);
      if (!cs) throw notFound('Unknown checkout session.');
      reply.type('text/html; charset=utf-8');
      // the form posts here and is redirected (303) to the success page, which may be the integrator's site
      const nonce = securePage(
        reply,
        [originOf(cs.success_url)].filter((o): o is string => o !== null),
      );
      return page(cs, req.query.token, nonce);
    },
  );
}
