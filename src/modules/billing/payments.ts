// Checkout and payment events. Stripe (official SDK) when STRIPE_SECRET_KEY is set; otherwise the built-in
// local provider, whose checkout page emits a correctly signed checkout.session.completed to the same webhook
// route, so the whole flow works offline. Events are verified with Stripe-Signature and handled once per id.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import type { AppContext } from '../../platform/context.js';
import { AppError, badRequest, forbidden, notFound, unavailable, upstream } from '../../platform/errors.js';
import { hashApiKey } from '../../platform/auth/api-key.js';
import type { ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import { PLANS, limitsOf, type PlanId, type Tier } from './tiers.js';
import type { BillingRepo } from './repo.js';
import { createPaymentEvents } from './events.js';
import { createLocalObjects, LOCAL_PRICES } from './stripe-local.js';

export interface CheckoutInput {
  planId: PlanId;
  walletAddress?: string;
  successUrl?: string;
  cancelUrl?: string;
}

export function createPayments(ctx: Pick<AppContext, 'db' | 'config' | 'log' | 'secret' | 'publicUrl' | 'apiKeys'>, repo: BillingRepo) {
  const live = Boolean(ctx.config.stripeSecretKey);
  const base = ctx.config.stripeApiBase ? new URL(ctx.config.stripeApiBase) : null;
  // Without a secret key the SDK is still used, offline, for signature verification and signing local events.
  const localObjects = createLocalObjects(ctx.db);
  // The SDK (a few hundred modules) loads on the first call that needs it, not at every start.
  let client: Promise<Stripe> | undefined;
  const stripe = (): Promise<Stripe> =>
    (client ??= (async () => {
      const [{ default: StripeSdk }, { LocalStripeHttpClient }] = await Promise.all([import('stripe'), import('./stripe-local-http.js')]);
      return new StripeSdk(ctx.config.stripeSecretKey ?? 'sk_test_credence_local', {
        maxNetworkRetries: 2,
        timeout: 10_000,
        // Offline, the local provider answers the SDK's reads of Stripe's state (sessions, subscriptions) itself.
        ...(live ? {} : { httpClient: new LocalStripeHttpClient(localObjects) }),
        ...(base
          ? {
              host: base.hostname,
              port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
              protocol: base.protocol.replace(':', '') as 'http' | 'https',
            }
          : {}),
      });
    })());
  const webhookSecret =
    ctx.config.stripeWebhookSecret ?? ctx.secret('stripe-webhook-secret', () => `whsec_${randomBytes(24).toString('base64')}`);
  const provider = live ? ('stripe' as const) : ('local' as const);
  // The local provider upgrades keys for free: development only (CREDENCE_LOCAL_PROVIDERS, see config.ts).
  const localOn = !live && ctx.config.localProviders;

  /** A local session's confirm token: only its creator gets it (in the checkout url), bound to session and key. */
  const confirmToken = (sessionId: string, keyId: string) =>
    createHmac('sha256', webhookSecret).update(`local-checkout-confirm\n${sessionId}\n${keyId}`).digest('base64url');

  /** An open local session, if local payments are on (a session made while they were on stays unusable after). */
  async function localSession(sessionId: string) {
    const s = localOn ? await repo.checkout(sessionId) : null;
    return s && s.provider === 'local' ? s : null;
  }

  /** The confirm button is the payment: only the session's creator may press it (its token, or its API key). */
  async function authorizeLocal(sessionId: string, proof: { token?: string; apiKey?: string }) {
    const s = await localSession(sessionId);
    if (!s) throw notFound('Unknown checkout session.');
    const want = Buffer.from(confirmToken(s.id, s.api_key_id));
    const got = Buffer.from(proof.token ?? '');
    if (got.length === want.length && timingSafeEqual(got, want)) return;
    if (proof.apiKey && (await ctx.apiKeys.resolve(hashApiKey(proof.apiKey)))?.keyId === s.api_key_id) return;
    throw forbidden(
      'Only the creator of this checkout can confirm it: use the url returned by POST /billing/checkout (its token), or send the API key that started it.',
    );
  }

  async function createCheckout(key: ApiKeyPrincipal, input: CheckoutInput) {
    const tier = PLANS[input.planId];
    if (!live && !localOn) {
      throw unavailable(
        'No payment provider is configured: set STRIPE_SECRET_KEY (the built-in local provider is for development; CREDENCE_LOCAL_PROVIDERS=true enables it).',
      );
    }
    const row = await repo.keyById(key.keyId);
    if (row?.stripe_subscription_id && row.subscription_status !== 'canceled') {
      throw new AppError(
        'invalid_state',
        `This key already has a ${row.tier} subscription: change plan with POST /api/v1/billing/plan (one subscription per key), or cancel it with POST /api/v1/billing/cancel.`,
      );
    }
    if (key.environment === 'test') throw new AppError('forbidden', 'Test keys cannot be upgraded; create a live key for paid plans.');
    const done = `${ctx.publicUrl()}/api/v1/billing/checkout/done`;
    const successUrl = input.successUrl ?? null;
    const cancelUrl = input.cancelUrl ?? null;
    let sessionId: string;
    let url: string;
    if (live) {
      const priceId = input.planId === 'starter' ? ctx.config.stripePriceStarter : ctx.config.stripePriceGrowth;
      const metadata = { apiKeyId: key.keyId, tier, ...(input.walletAddress ? { walletAddress: input.walletAddress.toLowerCase() } : {}) };
      try {
        const s = await (
          await stripe()
        ).checkout.sessions.create({
          mode: 'subscription',
          client_reference_id: key.keyId,
          success_url: successUrl ?? `${done}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: cancelUrl ?? `${done}?cancelled=1`,
          metadata,
          subscription_data: { metadata },
          line_items: [
            priceId
              ? { price: priceId, quantity: 1 }
              : {
                  quantity: 1,
                  price_data: {
                    currency: 'usd',
                    unit_amount: (limitsOf(tier).priceUsd ?? 0) * 100,
                    recurring: { interval: 'month' },
                    product_data: { name: `Credence ${tier}` },
                  },
                },
          ],
        });
        sessionId = s.id;
        url = s.url ?? '';
      } catch (e) {
        ctx.log.error({ err: e }, 'stripe checkout failed');
        throw upstream('The payment provider did not create a checkout session; try again later.');
      }
    } else {
      sessionId = `cs_local_${randomBytes(16).toString('hex')}`;
      url = `${ctx.publicUrl()}/api/v1/billing/checkout/local/${sessionId}?token=${confirmToken(sessionId, key.keyId)}`;
    }
    await repo.insertCheckout({
      id: sessionId,
      keyId: key.keyId,
      tier,
      provider,
      wallet: input.walletAddress?.toLowerCase() ?? null,
      successUrl,
      cancelUrl,
    });
    return { sessionId, url, provider };
  }

  /** The plan price ids: configured for Stripe (a plan without one is sold with inline price data), fixed locally. */
  const priceIds: Record<PlanId, string | null> = live
    ? { starter: ctx.config.stripePriceStarter, growth: ctx.config.stripePriceGrowth }
    : { starter: LOCAL_PRICES.starter, growth: LOCAL_PRICES.growth };
  const tierOfPrice = (price: string | null): Tier | null => {
    const plan = (Object.keys(priceIds) as PlanId[]).find((p) => price !== null && priceIds[p] === price);
    return plan ? PLANS[plan] : null;
  };
  const events = createPaymentEvents({
    ctx,
    repo,
    stripe,
    tierOfPrice,
    async cancelOrphan(subscription) {
      if (live) {
        await (
          await stripe()
        ).subscriptions
          .cancel(subscription)
          .catch((err: unknown) => ctx.log.error({ err, subscription }, 'could not cancel a subscription no key uses'));
      } else {
        await localObjects.put(subscription, { status: 'canceled' });
      }
      ctx.log.warn({ subscription }, 'cancelled a subscription that lost to a newer state of its key');
    },
  });

  /** Verifies the signature, then applies the event as Stripe's state in order (events.ts). */
  async function handleEvent(rawBody: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    if (!signature) throw badRequest('Missing Stripe-Signature header.', [{ field: 'Stripe-Signature', message: 'is required' }]);
    let event: unknown;
    try {
      event = (await stripe()).webhooks.constructEvent(rawBody, signature, webhookSecret);
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, 'payment event with a bad signature or body refused');
      throw badRequest('The Stripe-Signature does not match the payload.', [{ field: 'Stripe-Signature', message: 'does not verify' }]);
    }
    return events.handle(event);
  }

  /** The local provider's confirm button: builds and signs the event Stripe would send, and delivers it. */
  async function completeLocal(sessionId: string, deliver: (payload: string, signature: string) => Promise<void>) {
    const s = await localSession(sessionId);
    if (!s) throw notFound('Unknown checkout session.');
    if (s.status !== 'open') throw new AppError('invalid_state', 'This checkout session is already completed.');
    // What Stripe would now hold: the completed session and the active subscription it created.
    const customer = `cus_local_${s.api_key_id.slice(0, 8)}`;
    const subscription = `sub_local_${randomBytes(8).toString('hex')}`;
    const planId = (Object.keys(PLANS) as PlanId[]).find((p) => PLANS[p] === s.tier) ?? 'starter';
    await localObjects.put(subscription, {
      object: 'subscription',
      status: 'active',
      customer,
      cancel_at_period_end: false,
      created: Math.floor(Date.now() / 1000),
      metadata: { apiKeyId: s.api_key_id },
      items: {
        object: 'list',
        data: [
          {
            id: `si_local_${randomBytes(8).toString('hex')}`,
            object: 'subscription_item',
            price: { id: LOCAL_PRICES[planId], object: 'price' },
          },
        ],
      },
    });
    await localObjects.put(s.id, {
      object: 'checkout.session',
      status: 'complete',
      payment_status: 'paid',
      subscription,
      customer,
      client_reference_id: s.api_key_id,
    });
    const event = {
      id: `evt_local_${randomBytes(12).toString('hex')}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      api_version: null,
      data: {
        object: {
          id: s.id,
          object: 'checkout.session',
          client_reference_id: s.api_key_id,
          customer,
          subscription,
          metadata: { apiKeyId: s.api_key_id, tier: s.tier },
          payment_status: 'paid',
          status: 'complete',
        },
      },
    };
    const payload = JSON.stringify(event);
    await deliver(payload, (await stripe()).webhooks.generateTestHeaderString({ payload, secret: webhookSecret }));
    return { redirectTo: s.success_url ?? `${ctx.publicUrl()}/api/v1/billing/checkout/done?session_id=${s.id}` };
  }

  return {
    provider,
    createCheckout,
    handleEvent,
    completeLocal,
    authorizeLocal,
    localSession,
    confirmToken,
    checkout: (id: string) => repo.checkout(id),
    stripe,
    webhookSecret,
    localObjects,
    priceIds,
  };
}

export type Payments = ReturnType<typeof createPayments>;
