// Plan changes and cancellation of a key's one subscription. A paid key changes plan by updating the subscription
// it has (Stripe's subscription update, with proration), never by a second checkout, so a customer is never billed
// twice; the local provider mirrors each change with the signed event Stripe would send.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../platform/context.js';
import { invalidState, upstream } from '../../platform/errors.js';
import type { ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import { writeAudit } from '../../platform/audit.js';
import { PLANS, limitsOf, type PlanId } from './tiers.js';
import type { ApiKeyRow, BillingRepo } from './repo.js';
import type { Payments } from './payments.js';
import { describeKey } from './keys.js';

/** Delivers a signed payment event to our own webhook route (the local provider's way of "sending" it). */
export type LocalDeliver = (payload: string, signature: string) => Promise<void>;

export function createSubscriptions(
  ctx: Pick<AppContext, 'db' | 'config' | 'log' | 'apiKeys'>,
  repo: BillingRepo,
  payments: Payments,
  deliverLocal: LocalDeliver,
) {
  const live = payments.provider === 'stripe';
  const stripe = payments.stripe;

  async function current(key: ApiKeyPrincipal): Promise<ApiKeyRow & { stripe_subscription_id: string }> {
    const row = await repo.keyById(key.keyId);
    if (!row?.stripe_subscription_id || row.subscription_status === 'canceled') {
      throw invalidState('This key has no active subscription: start one with POST /api/v1/billing/checkout.');
    }
    return row as ApiKeyRow & { stripe_subscription_id: string };
  }

  /** What Stripe would send about this subscription, signed with the webhook secret, through the webhook route. */
  async function emitLocal(
    type: 'customer.subscription.updated' | 'customer.subscription.deleted',
    row: ApiKeyRow,
    object: Record<string, unknown>,
  ) {
    // The local provider's own record changes first, as Stripe's does before it sends the event.
    await payments.localObjects.put(row.stripe_subscription_id!, object);
    const stored = await payments.localObjects.get(row.stripe_subscription_id!);
    const event = {
      id: `evt_local_${randomBytes(12).toString('hex')}`,
      object: 'event',
      type,
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      api_version: null,
      data: {
        object: {
          id: row.stripe_subscription_id,
          object: 'subscription',
          customer: row.stripe_customer_id,
          metadata: { apiKeyId: row.id },
          ...stored,
          ...object,
        },
      },
    };
    const payload = JSON.stringify(event);
    await deliverLocal(payload, (await stripe()).webhooks.generateTestHeaderString({ payload, secret: payments.webhookSecret }));
  }

  async function priceFor(planId: PlanId): Promise<string> {
    const configured = planId === 'starter' ? ctx.config.stripePriceStarter : ctx.config.stripePriceGrowth;
    if (configured) return configured;
    // Subscription items take a price id (inline price data would need a product id): make the plan's price.
    const tier = PLANS[planId];
    const price = await (
      await stripe()
    ).prices.create({
      currency: 'usd',
      unit_amount: (limitsOf(tier).priceUsd ?? 0) * 100,
      recurring: { interval: 'month' },
      product_data: { name: `Credence ${tier}` },
    });
    return price.id;
  }

  async function changePlan(key: ApiKeyPrincipal, planId: PlanId) {
    const row = await current(key);
    const tier = PLANS[planId];
    if (row.tier === tier) return { changed: false, ...view(row) };
    let item = row.stripe_subscription_item_id;
    if (live) {
      try {
        if (!item) item = (await (await stripe()).subscriptions.retrieve(row.stripe_subscription_id)).items.data[0]?.id ?? null;
        if (!item) throw new Error('subscription has no item');
        await (
          await stripe()
        ).subscriptions.update(row.stripe_subscription_id, {
          items: [{ id: item, price: await priceFor(planId) }],
          proration_behavior: 'create_prorations',
          cancel_at_period_end: false,
          metadata: { apiKeyId: row.id, tier },
        });
      } catch (err) {
        ctx.log.error({ err }, 'stripe subscription update failed');
        throw upstream('The payment provider did not change the subscription; nothing changed. Try again later.');
      }
    } else {
      item ??= `si_local_${randomBytes(8).toString('hex')}`;
      await emitLocal('customer.subscription.updated', row, {
        status: 'active',
        cancel_at_period_end: false,
        items: {
          object: 'list',
          data: [{ id: item, object: 'subscription_item', price: { id: payments.priceIds[planId], object: 'price' } }],
        },
        metadata: { apiKeyId: row.id, tier },
      });
    }
    const updated = await ctx.db.tx(async (q) => {
      // Stripe's state as of this call: events created before it are older than what the key now shows.
      const r = await repo.setSubscriptionState(row.id, { tier, item, status: 'active', cancelAtPeriodEnd: false, eventAt: new Date() }, q);
      await writeAudit(q, {
        actor: `api_key:${row.id}`,
        action: 'api_key.plan_change',
        target: `api_key:${row.id}`,
        details: { from: row.tier, to: tier, subscription: row.stripe_subscription_id },
      });
      return r!;
    });
    ctx.apiKeys.invalidate(row.key_hash);
    return { changed: true, ...view(updated) };
  }

  async function cancel(key: ApiKeyPrincipal, atPeriodEnd: boolean) {
    const row = await current(key);
    if (live) {
      try {
        if (atPeriodEnd) await (await stripe()).subscriptions.update(row.stripe_subscription_id, { cancel_at_period_end: true });
        else await (await stripe()).subscriptions.cancel(row.stripe_subscription_id);
      } catch (err) {
        ctx.log.error({ err }, 'stripe subscription cancel failed');
        throw upstream('The payment provider did not cancel the subscription; nothing changed. Try again later.');
      }
    } else {
      // The local provider has no billing periods: a cancel always ends the subscription now.
      await emitLocal('customer.subscription.deleted', row, { status: 'canceled', cancel_at_period_end: false });
      atPeriodEnd = false;
    }
    const updated = await ctx.db.tx(async (q) => {
      // A cancelled key has no pending checkout left to complete.
      await repo.expireOpenCheckouts(row.id, q);
      const r = atPeriodEnd
        ? await repo.setSubscriptionState(row.id, { cancelAtPeriodEnd: true, eventAt: new Date() }, q)
        : (await repo.keyById(row.id, q))!.stripe_subscription_id === row.stripe_subscription_id
          ? await repo.clearSubscription(row.id, q)
          : await repo.keyById(row.id, q);
      await writeAudit(q, {
        actor: `api_key:${row.id}`,
        action: 'api_key.cancel',
        target: `api_key:${row.id}`,
        details: { tier: row.tier, atPeriodEnd, subscription: row.stripe_subscription_id },
      });
      return r!;
    });
    ctx.apiKeys.invalidate(row.key_hash);
    return view(updated);
  }

  function view(row: ApiKeyRow) {
    const d = describeKey(row);
    return {
      id: d.id,
      tier: d.tier,
      rateLimit: d.rateLimit,
      monthlyQueryLimit: d.monthlyQueryLimit,
      subscription: d.subscription,
      provider: payments.provider,
    };
  }

  return { changePlan, cancel };
}

export type Subscriptions = ReturnType<typeof createSubscriptions>;
