// GET /billing/checkout/done: the default landing page after a checkout (HTML).
import type { App } from '../../../platform/http/types.js';
import { securePage } from '../../../platform/http/page-security.js';
import { HtmlPage } from '../../../platform/http/schemas.js';
import { CheckoutDoneQuery } from '../schemas.js';
import { donePage } from '../checkout-page.js';

export function checkoutDonePage(s: App): void {
  s.get(
    '/billing/checkout/done',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'billing.checkoutDonePage',
        tags: ['Billing'],
        summary: 'Default landing page after checkout (HTML)',
        querystring: CheckoutDoneQuery,
        response: { 200: HtmlPage() },
      },
    },
    async (req, reply) => {
      reply.type('text/html; charset=utf-8');
      return donePage(!req.query.cancelled, securePage(reply));
    },
  );
}
