// Billing routes: API key creation, usage, checkout, the local checkout page and payment-processor events.
import { Type } from '@sinclair/typebox';
import { apiRoutes, type App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import type { AppContext } from '../../platform/context.js';
import { CheckoutBody, CheckoutResponse, CreateKeyBody, CreateKeyResponse, UsageResponse, WebhookAck } from './schemas.js';
import type { createKeyService } from './keys.js';
import type { Payments } from './payments.js';
import { checkoutPage, donePage } from './checkout-page.js';
import { limitsOf } from './tiers.js';
import { notFound } from '../../platform/errors.js';

export function billingRoutes(app: App, ctx: AppContext, keys: ReturnType<typeof createKeyService>, payments: Payments) {
  apiRoutes(app, (s) => {
    s.post(
      '/billing/api-keys',
      {
        config: { auth: 'jwt' },
        schema: {
          operationId: 'billing.createApiKey',
          tags: ['Billing'],
          summary: 'Create an API key',
          description:
            'Creates an API key tied to the signed-in wallet. Any JWT may create Free keys; paid tiers need an admin JWT (others get 403 and should upgrade a Free key ' +
            'through POST /billing/checkout). The key itself (`apiKey`, cred_live_...) is returned only in this response; only its hash is stored.',
          body: CreateKeyBody,
          response: { 201: CreateKeyResponse, ...errorResponses(403) },
        },
      },
      async (req, reply) => {
        reply.code(201);
        return keys.create(req.user!, req.body);
      },
    );

    s.get(
      '/billing/usage',
      {
        config: { auth: 'apiKey', cost: 0 },
        schema: {
          operationId: 'billing.getUsage',
          tags: ['Billing'],
          summary: 'Usage of this API key this month',
          description: 'Queries counted this calendar month (UTC) against the tier quota. Counts 0 queries. Enterprise: monthlyLimit and remaining are null.',
          response: { 200: UsageResponse },
        },
      },
      async (req) => keys.usage(req.apiKey!),
    );

    s.post(
      '/billing/checkout',
      {
        config: { auth: 'apiKey' },
        schema: {
          operationId: 'billing.createCheckout',
          tags: ['Billing'],
          summary: 'Start a checkout to upgrade this API key',
          description:
            'Creates a hosted checkout for the plan; send the user to `url`. When the payment completes, the key sent in X-API-Key is upgraded ' +
            '(checkout.session.completed). With Stripe configured the URL is a Stripe Checkout page; otherwise it is the built-in local checkout page.',
          body: CheckoutBody,
          response: { 200: CheckoutResponse, ...errorResponses(502) },
        },
      },
      async (req) => payments.createCheckout(req.apiKey!, req.body),
    );

    s.get(
      '/billing/checkout/local/:sessionId',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'billing.localCheckoutPage',
          tags: ['Billing'],
          summary: 'Local payment provider: checkout page (HTML)',
          description: 'Served only when Stripe is not configured. The page\'s confirm button completes the payment.',
          params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }),
          produces: ['text/html'],
          response: { 200: { description: 'HTML page', type: 'string' } },
        },
      },
      async (req, reply) => {
        const cs = await payments.checkout(req.params.sessionId);
        if (!cs || cs.provider !== 'local') throw notFound('Unknown checkout session.');
        reply.type('text/html; charset=utf-8');
        return checkoutPage({ id: cs.id, tier: cs.tier, priceUsd: limitsOf(cs.tier).priceUsd, status: cs.status, cancelUrl: cs.cancel_url });
      },
    );

    s.post(
      '/billing/checkout/local/:sessionId/confirm',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'billing.confirmLocalCheckout',
          tags: ['Billing'],
          summary: 'Local payment provider: confirm the payment',
          description: 'Emits a signed checkout.session.completed event to POST /billing/stripe/webhook, as Stripe would. 409 if already completed.',
          params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }),
          response: { 200: Type.Object({ completed: Type.Boolean(), redirectTo: Type.String() }), ...errorResponses(409) },
        },
      },
      async (req) => {
        const r = await payments.completeLocal(req.params.sessionId, async (payload, signature) => {
          const res = await app.inject({
            method: 'POST',
            url: '/api/v1/billing/stripe/webhook',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            payload,
          });
          if (res.statusCode !== 200) throw new Error(`local payment event refused: ${res.statusCode} ${res.body}`);
        });
        return { completed: true, ...r };
      },
    );

    s.get(
      '/billing/checkout/done',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'billing.checkoutDonePage',
          tags: ['Billing'],
          summary: 'Default landing page after checkout (HTML)',
          querystring: Type.Object({ session_id: Type.Optional(Type.String({ maxLength: 200 })), cancelled: Type.Optional(Type.String({ maxLength: 10 })) }),
          produces: ['text/html'],
          response: { 200: { description: 'HTML page', type: 'string' } },
        },
      },
      async (req, reply) => {
        reply.type('text/html; charset=utf-8');
        return donePage(!req.query.cancelled);
      },
    );

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
            headers: Type.Object({ 'stripe-signature': Type.Optional(Type.String()) }),
            response: { 200: WebhookAck },
          },
        },
        async (req) => payments.handleEvent(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
      );
    });
  });
}
