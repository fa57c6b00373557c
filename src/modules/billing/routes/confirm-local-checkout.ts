// POST /billing/checkout/local/{sessionId}/confirm: the local provider completes the payment, as Stripe would.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { ConfirmLocalResponse, ConfirmQuery, LocalSessionParams } from '../schemas.js';
import type { BillingRouteDeps } from './shared.js';

export function confirmLocalCheckout(s: App, { payments, deliverLocal }: BillingRouteDeps): void {
  // The page's form posts without any script (application/x-www-form-urlencoded) and gets a redirect, as a browser
  // expects; its script, and API clients, post JSON and get JSON.
  s.register(async (scope) => {
    const form = scope.withTypeProvider<TypeBoxTypeProvider>();
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4 * 1024 }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    form.post(
      '/billing/checkout/local/:sessionId/confirm',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'billing.confirmLocalCheckout',
          tags: ['Billing'],
          summary: 'Local payment provider: confirm the payment',
          description:
            "Emits a signed checkout.session.completed event to POST /billing/stripe/webhook, as Stripe would. Only the session's creator may confirm: " +
            'with the `token` of the url POST /billing/checkout returned, or with the creating API key in X-API-Key (403 otherwise). 409 if already completed; ' +
            "404 when local providers are off. A JSON body (or none) answers JSON; the page's plain form submission (application/x-www-form-urlencoded) " +
            'answers 303 to the success page.',
          params: LocalSessionParams,
          querystring: ConfirmQuery,
          response: {
            200: ConfirmLocalResponse,
            303: { description: 'Form submission: the payment is complete; Location is the success page', type: 'null' },
            ...errorResponses(403, 409),
          },
        },
      },
      async (req, reply) => {
        const apiKey = req.headers['x-api-key'];
        await payments.authorizeLocal(req.params.sessionId, {
          token: req.query.token,
          apiKey: typeof apiKey === 'string' ? apiKey : undefined,
        });
        const r = await payments.completeLocal(req.params.sessionId, deliverLocal);
        if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
          return reply.code(303).header('location', r.redirectTo).send();
        return { completed: true, ...r };
      },
    );
  });
}
