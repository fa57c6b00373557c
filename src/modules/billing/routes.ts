// Billing routes: API key creation, usage, checkout, the local checkout page and payment-processor events.
import { originOf, securePage } from '../../platform/http/page-security.js';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { apiRoutes, type App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import type { AppContext } from '../../platform/context.js';
import {
  ApiKeyList,
  ApiKeyListQuery,
  CancelBody,
  CheckoutBody,
  CheckoutResponse,
  CreateKeyBody,
  CreateKeyResponse,
  KeyIdParams,
  PlanBody,
  PlanResponse,
  RotateKeyBody,
  RotateKeyResponse,
  UsageResponse,
  DailyUsageQuery,
  DailyUsageResponse,
  WebhookAck,
} from './schemas.js';
import type { createKeyService } from './keys.js';
import type { Payments } from './payments.js';
import type { BillingRepo } from './repo.js';
import { createSubscriptions, type LocalDeliver } from './subscriptions.js';
import { checkoutPage, donePage } from './checkout-page.js';
import { limitsOf } from './tiers.js';
import { notFound } from '../../platform/errors.js';
import { HtmlPage } from '../../platform/http/schemas.js';

/** The local checkout's confirm token (issued to the session's creator in the checkout url). */
const ConfirmQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 200, description: 'confirm token from the checkout url' })),
});

export function billingRoutes(app: App, ctx: AppContext, repo: BillingRepo, keys: ReturnType<typeof createKeyService>, payments: Payments) {
  // The local provider "sends" its signed events to our own webhook route, exactly as Stripe would.
  const deliverLocal: LocalDeliver = async (payload, signature) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
    if (res.statusCode !== 200) throw new Error(`local payment event refused: ${res.statusCode} ${res.body}`);
  };
  const subscriptions = createSubscriptions(ctx, repo, payments, deliverLocal);
  apiRoutes(app, (s) => {
    s.post(
      '/billing/api-keys',
      {
        config: { auth: 'jwt', idempotent: true },
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
      '/billing/api-keys',
      {
        config: { auth: 'jwt' },
        schema: {
          operationId: 'billing.listApiKeys',
          tags: ['Billing'],
          summary: "The signed-in wallet's API keys",
          description:
            'Every key the signed-in wallet created, newest first, with its status, last use (recorded within a few seconds), expiry and subscription. Never the key itself. ' +
            'Paged with `limit` and `cursor` (see Pagination).',
          querystring: ApiKeyListQuery,
          response: { 200: ApiKeyList },
        },
      },
      async (req) => keys.list(req.user!, req.query as { limit?: number; cursor?: string }),
    );

    s.delete(
      '/billing/api-keys/:id',
      {
        config: { auth: 'jwt' },
        schema: {
          operationId: 'billing.revokeApiKey',
          tags: ['Billing'],
          summary: 'Revoke an API key',
          description:
            'Revokes the key at once on every instance (cached keys are evicted through the shared event bus); further calls with it get 401. ' +
            'Only the wallet that created it (or an admin) may revoke it; any other key id answers 404. Revoking twice is not an error. Audited.',
          params: KeyIdParams,
          response: { 204: { description: 'Revoked', type: 'null' }, ...errorResponses(404) },
        },
      },
      async (req, reply) => {
        await keys.revoke(req.user!, req.params.id);
        reply.code(204);
      },
    );

    s.post(
      '/billing/api-keys/:id/rotate',
      {
        config: { auth: 'jwt', idempotent: true },
        schema: {
          operationId: 'billing.rotateApiKey',
          tags: ['Billing'],
          summary: 'Rotate an API key',
          description:
            'Issues a new secret for the same key (same id, tier, quota and subscription). The previous secret keeps working for ' +
            '`gracePeriodSeconds` (default 24 h, 0 ends it now), so deployments can switch without downtime; a secret rotated out earlier stops at once. ' +
            'The new key is shown only in this response. 409 for a revoked or expired key.',
          params: KeyIdParams,
          body: RotateKeyBody,
          response: { 200: RotateKeyResponse, ...errorResponses(404, 409) },
        },
      },
      async (req) => keys.rotate(req.user!, req.params.id, req.body?.gracePeriodSeconds),
    );

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

    s.get(
      '/billing/usage',
      {
        config: { auth: 'apiKey', sandbox: true, cost: 0 },
        schema: {
          operationId: 'billing.getUsage',
          tags: ['Billing'],
          summary: 'Usage of this API key this month',
          description:
            'Queries counted this calendar month (UTC) against the tier quota. Counts 0 queries. Enterprise: monthlyLimit and remaining are null.',
          response: { 200: UsageResponse },
        },
      },
      async (req) => keys.usage(req.apiKey!),
    );

    s.get(
      '/billing/usage/daily',
      {
        config: { auth: 'apiKey', sandbox: true, cost: 0 },
        schema: {
          operationId: 'billing.getDailyUsage',
          tags: ['Billing'],
          summary: 'Usage of this API key per day',
          description:
            'Queries counted per UTC day over the last `days` days (default 30, at most 90), oldest first and today last, each with `monthToDate`: ' +
            "its month's running total, which the plan's `monthlyLimit` caps (null: unlimited). Days without queries are 0; a fixed window, not a paged list. " +
            'Counts 0 queries.',
          querystring: DailyUsageQuery,
          response: { 200: DailyUsageResponse },
        },
      },
      async (req) => keys.dailyUsage(req.apiKey!, req.query.days ?? 30),
    );

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
          params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }),
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
        const confirmAction = `/api/v1/billing/checkout/local/${encodeURIComponent(cs.id)}/confirm${req.query.token ? `?token=${encodeURIComponent(req.query.token)}` : ''}`;
        return checkoutPage({
          id: cs.id,
          tier: cs.tier,
          priceUsd: limitsOf(cs.tier).priceUsd,
          status: cs.status,
          cancelUrl: cs.cancel_url,
          confirmAction,
          nonce,
        });
      },
    );

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
            params: Type.Object({ sessionId: Type.String({ maxLength: 100 }) }),
            querystring: ConfirmQuery,
            response: {
              200: Type.Object({ completed: Type.Boolean(), redirectTo: Type.String() }),
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

    s.get(
      '/billing/checkout/done',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'billing.checkoutDonePage',
          tags: ['Billing'],
          summary: 'Default landing page after checkout (HTML)',
          querystring: Type.Object({
            session_id: Type.Optional(Type.String({ maxLength: 200 })),
            cancelled: Type.Optional(Type.String({ maxLength: 10 })),
          }),
          response: { 200: HtmlPage() },
        },
      },
      async (req, reply) => {
        reply.type('text/html; charset=utf-8');
        return donePage(!req.query.cancelled, securePage(reply));
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
            response: { 200: WebhookAck, ...errorResponses(400) },
          },
        },
        async (req) => payments.handleEvent(req.body as Buffer, req.headers['stripe-signature'] as string | undefined),
      );
    });
  });
}
