// Payment events applied as Stripe's state, in the order it happened. An event changes a key only when it
// is newer than what was last applied to that key's subscription (`event.created`; our own calls to Stripe count as
// applied at their time), a completion only for a session still open for that key, and the tier comes from the
// subscription's price (the configured price ids) or our own checkout record, never from metadata text. What a
// completion claims is read back from Stripe through the SDK (the local provider answers the same calls). Malformed or
// unknown events are recorded and answered 200 with no effect, and logged; nothing here answers 500 for input.
import type Stripe from 'stripe';
import type { AppContext } from '../../platform/context.js';
import { badRequest, upstream } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { Queryable } from '../../platform/db/types.js';
import type { BillingRepo } from './repo.js';
import { tierOf, type Tier } from './tiers.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const idOf = (v: unknown) => (typeof v === 'string' ? v : isObj(v) && typeof v.id === 'string' ? v.id : null);
const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);
/** Statuses of a subscription that is over: Stripe never makes it active again. */
const ENDED = new Set(['canceled', 'incomplete_expired']);

export interface EventDeps {
  ctx: Pick<AppContext, 'db' | 'log' | 'apiKeys'>;
  repo: BillingRepo;
  /** The SDK client, loaded on first use */
  stripe: () => Promise<Stripe>;
  /** The tier a price id is sold as (configured or local price ids); null for any other price. */
  tierOfPrice(priceId: string | null): Tier | null;
  /** Cancels a subscription at the provider that no key uses (a completion that lost to a newer state). */
  cancelOrphan(subscriptionId: string): Promise<void>;
}

export function createPaymentEvents({ ctx, repo, stripe, tierOfPrice, cancelOrphan }: EventDeps) {
  /** Stripe's current view of a subscription; null when Stripe has no such subscription. Other failures: 502, so Stripe retries. */
  async function readSubscription(id: string): Promise<Obj | null> {
    try {
      return (await (await stripe()).subscriptions.retrieve(id)) as unknown as Obj;
    } catch (err) {
      if ((err as { code?: string }).code === 'resource_missing') return null;
      ctx.log.error({ err, subscription: id }, 'could not read a subscription back from the payment provider');
      throw upstream('Could not read the subscription back from the payment provider; retry the event later.');
    }
  }

  const priceOf = (sub: Obj) => {
    const items = isObj(sub.items) && Array.isArray(sub.items.data) ? sub.items.data : [];
    return isObj(items[0]) ? { item: idOf(items[0]), price: idOf(items[0].price) } : { item: null, price: null };
  };

  /** Records the event id as handled with no effect; false when it was handled before. */
  async function ignore(
    event: { id: string; type: string },
    keyId: string | null,
    payload: unknown,
    reason: string,
    q: Queryable = ctx.db,
  ) {
    const fresh = await repo.claimEvent({ id: event.id, type: event.type, keyId, payload }, q);
    if (fresh) ctx.log.warn({ eventId: event.id, type: event.type, keyId, reason }, 'payment event changes nothing');
    return fresh;
  }

  async function handle(raw: unknown): Promise<{ received: true; duplicate: boolean }> {
    if (!isObj(raw) || typeof raw.id !== 'string' || !raw.id || typeof raw.type !== 'string' || typeof raw.created !== 'number') {
      ctx.log.warn({ eventId: isObj(raw) ? raw.id : undefined }, 'malformed payment event refused');
      throw badRequest('The event is not a Stripe event (id, type and created are required).', [
        { field: 'body', message: 'needs id, type and created' },
      ]);
    }
    const event = { id: raw.id, type: raw.type, created: new Date(raw.created * 1000), createdS: raw.created };
    const obj = isObj(raw.data) && isObj(raw.data.object) && typeof raw.data.object.id === 'string' ? raw.data.object : null;
    const done = (fresh: boolean) => ({ received: true as const, duplicate: !fresh });
    if (!obj) return done(await ignore(event, null, raw, 'no data.object with an id'));
    switch (event.type) {
      case 'checkout.session.completed':
        return done(await completed(event, obj, raw));
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return done(await subscriptionChanged(event, obj, raw));
      default:
        return done(await ignore(event, null, raw, 'event type not used'));
    }
  }

  type Ev = { id: string; type: string; created: Date; createdS: number };

  async function completed(event: Ev, session: Obj, raw: Obj): Promise<boolean> {
    // The key is the one that opened this checkout with us, whatever the event's metadata says.
    const row = await repo.checkout(String(session.id));
    if (!row) return ignore(event, null, raw, 'no checkout session of ours');
    if (row.status !== 'open')
      return ignore(event, row.api_key_id, raw, `checkout session is ${row.status}, no longer the key's pending checkout`);
    const subscriptionId = idOf(session.subscription);
    if (!subscriptionId) return ignore(event, row.api_key_id, raw, 'completion without a subscription');
    const sub = await readSubscription(subscriptionId);
    if (!sub) return ignore(event, row.api_key_id, raw, 'the payment provider has no such subscription');
    const status = typeof sub.status === 'string' ? sub.status : 'active';
    const { item, price } = priceOf(sub);
    // the configured price says the tier; failing that, what the key bought from us
    const tier = tierOfPrice(price) ?? tierOf(row.tier);
    let orphan: string | null = null;
    let replaced: string | null = null;
    const fresh = await ctx.db.tx(async (q) => {
      const key = await repo.keyForUpdate(row.api_key_id, q);
      const again = await repo.checkoutForUpdate(row.id, q);
      if (!key || again?.status !== 'open') return ignore(event, row.api_key_id, raw, 'checkout session closed meanwhile', q);
      if (!(await repo.claimEvent({ id: event.id, type: event.type, keyId: key.id, payload: raw }, q))) return false;
      const appliedAt = seconds(key.subscription_event_at);
      if (ENDED.has(status) || (appliedAt !== null && event.createdS < appliedAt) || tier === 'Free') {
        // An older completion than the key's state (or of a subscription already over): this session lost.
        await repo.closeCheckout(row.id, 'superseded', subscriptionId, q);
        if (!ENDED.has(status) && key.stripe_subscription_id !== subscriptionId) orphan = subscriptionId;
        ctx.log.warn(
          { eventId: event.id, keyId: key.id, subscription: subscriptionId, status, appliedAt },
          "checkout completion older than the key's state: not applied",
        );
        await writeAudit(q, {
          actor: 'payment-processor',
          action: 'checkout.superseded',
          target: `api_key:${key.id}`,
          details: { event: event.id, session: row.id, subscription: subscriptionId },
        });
        return true;
      }
      if (key.stripe_subscription_id && key.stripe_subscription_id !== subscriptionId && key.subscription_status !== 'canceled')
        replaced = key.stripe_subscription_id;
      await repo.setSubscription(
        key.id,
        {
          tier,
          customer: idOf(session.customer),
          subscription: subscriptionId,
          item,
          status,
          cancelAtPeriodEnd: sub.cancel_at_period_end === true,
          eventAt: event.created,
        },
        q,
      );
      await repo.closeCheckout(row.id, 'completed', subscriptionId, q);
      await writeAudit(q, {
        actor: 'payment-processor',
        action: 'api_key.upgrade',
        target: `api_key:${key.id}`,
        details: { from: key.tier, to: tier, event: event.id, subscription: subscriptionId, replaced },
      });
      ctx.apiKeys.invalidate(key.key_hash);
      return true;
    });
    // Never two subscriptions billing for one key: the one that lost stops now.
    for (const s of [orphan, replaced]) if (s) await cancelOrphan(s);
    return fresh;
  }

  async function subscriptionChanged(event: Ev, eventSub: Obj, raw: Obj): Promise<boolean> {
    // Only the key whose CURRENT subscription this is; an old subscription's events never change a key.
    const current = await repo.keyBySubscription(String(eventSub.id));
    if (!current) return ignore(event, null, raw, "not any key's current subscription");
    const appliedAt = seconds(current.subscription_event_at);
    const deleted = event.type === 'customer.subscription.deleted';
    if (!deleted && appliedAt !== null && event.createdS < appliedAt)
      return ignore(event, current.id, raw, 'older than the state already applied');
    // Same second as what was applied: which came first is unknown, so Stripe's own current state decides.
    let sub: Obj | null = eventSub;
    if (!deleted && appliedAt !== null && event.createdS === appliedAt)
      sub = (await readSubscription(String(eventSub.id))) ?? { ...eventSub, status: 'canceled' };
    return ctx.db.tx(async (q) => {
      const key = await repo.keyForUpdate(current.id, q);
      if (!key || key.stripe_subscription_id !== eventSub.id)
        return ignore(event, current.id, raw, "no longer the key's current subscription", q);
      if (!(await repo.claimEvent({ id: event.id, type: event.type, keyId: key.id, payload: raw }, q))) return false;
      const status = deleted ? 'canceled' : typeof sub.status === 'string' ? sub.status : null;
      if (status && ENDED.has(status)) {
        await repo.clearSubscription(key.id, q, event.created);
        await writeAudit(q, {
          actor: 'payment-processor',
          action: 'api_key.downgrade',
          target: `api_key:${key.id}`,
          details: { from: key.tier, to: 'Free', event: event.id },
        });
      } else {
        const { item, price } = priceOf(sub);
        const tier = tierOfPrice(price);
        const cancelAtPeriodEnd = typeof sub.cancel_at_period_end === 'boolean' ? sub.cancel_at_period_end : undefined;
        await repo.setSubscriptionState(key.id, { tier: tier ?? undefined, status, cancelAtPeriodEnd, item, eventAt: event.created }, q);
        await writeAudit(q, {
          actor: 'payment-processor',
          action: 'subscription.updated',
          target: `api_key:${key.id}`,
          details: { event: event.id, status, cancelAtPeriodEnd: cancelAtPeriodEnd ?? null, tier: tier ?? key.tier },
        });
      }
      ctx.apiKeys.invalidate(key.key_hash);
      return true;
    });
  }

  return { handle };
}
