// Billing follows Stripe's state in the order it happened. Each sequence below is replayed with
// events signed by the Stripe SDK against a stand-in of Stripe's API (prices configured, so tiers come from price
// ids); the plan must end as Stripe's latest state says, and unknown tiers or null objects change nothing, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, type TestKey } from '../../../test/helpers/app.js';
import { startFakeStripe } from '../../../test/fakes/stripe-api.js';
import type { App } from '../../platform/http/types.js';
import { completedEvent, openCheckout, signedBy, stripeEvent, subscriptionEvent, usageOf } from './test-helpers.js';

const SECRET = 'whsec_test_credence_order_0123456789';
const PRICE = { starter: 'price_cfg_starter', growth: 'price_cfg_growth' };
const signed = signedBy(SECRET);

let app: App;
let fake: Awaited<ReturnType<typeof startFakeStripe>>;
beforeAll(async () => {
  fake = await startFakeStripe();
  app = await createTestApp({
    config: {
      stripeSecretKey: 'sk_test_fake',
      stripeApiBase: fake.url,
      stripeWebhookSecret: SECRET,
      stripePriceStarter: PRICE.starter,
      stripePriceGrowth: PRICE.growth,
    },
  });
});
afterAll(async () => {
  await app.close();
  await fake.close();
});

const post = async (event: object) => {
  const res = await app.inject({ method: 'POST', url: '/api/v1/billing/stripe/webhook', ...signed(event) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { received: true; duplicate: boolean };
};
const now = () => Math.floor(Date.now() / 1000);
const uid = () => Math.random().toString(36).slice(2, 10);
const keyRow = async (key: TestKey) =>
  (
    await app.ctx.db.query<{
      tier: string;
      stripe_subscription_id: string | null;
      subscription_status: string | null;
      cancel_at_period_end: boolean;
    }>('SELECT * FROM api_keys WHERE id = $1', [key.id])
  )[0];
const sessionStatus = async (id: string) =>
  (await app.ctx.db.query<{ status: string }>('SELECT status FROM checkout_sessions WHERE id = $1', [id]))[0].status;
/** A key with two checkouts opened before either completed (S1 Starter, S2 Growth), each with its subscription at Stripe. */
async function twoCheckouts() {
  const key = await createKey(app, 'Free');
  const s1 = await openCheckout(app, key, 'starter');
  const s2 = await openCheckout(app, key, 'growth');
  const sub1 = `sub_s1_${uid()}`;
  const sub2 = `sub_s2_${uid()}`;
  fake.addSubscription(sub1, { apiKeyId: key.id }, PRICE.starter);
  fake.addSubscription(sub2, { apiKeyId: key.id }, PRICE.growth);
  return { key, s1, s2, sub1, sub2 };
}

describe('the sequences of issue 24', () => {
  it("S1's completion, 120 s older than S2's, arrives late: the key stays on S2 (Growth) and S1's subscription is cancelled", async () => {
    const { key, s1, s2, sub1, sub2 } = await twoCheckouts();
    const t = now();
    await post(completedEvent(`evt_${uid()}`, s2, key, sub2, { created: t }));
    expect((await usageOf(app, key)).tier).toBe('Growth');
    await post(completedEvent(`evt_${uid()}`, s1, key, sub1, { created: t - 120 }));
    expect((await usageOf(app, key)).tier).toBe('Growth');
    expect(await keyRow(key)).toMatchObject({ stripe_subscription_id: sub2, subscription_status: 'active' });
    // Stripe's latest state: S2 billing, S1 cancelled (never two subscriptions for one key)
    expect(fake.subscriptions.get(sub2)!.status).toBe('active');
    expect(fake.subscriptions.get(sub1)!.status).toBe('canceled');
    expect(await sessionStatus(s1)).toBe('superseded');
  });

  it("S2's completion again under a new event id changes nothing (the key moved to Starter meanwhile)", async () => {
    const { key, s2, sub2 } = await twoCheckouts();
    const t = now() - 60;
    await post(completedEvent(`evt_${uid()}`, s2, key, sub2, { created: t }));
    const change = await app.inject({ method: 'POST', url: '/api/v1/billing/plan', headers: key.headers, payload: { planId: 'starter' } });
    expect(change.statusCode, change.body).toBe(200);
    expect(fake.subscriptions.get(sub2)!.price).toBe(PRICE.starter);
    const again = await post(completedEvent(`evt_${uid()}`, s2, key, sub2, { created: now() }));
    expect(again.duplicate).toBe(false);
    expect((await usageOf(app, key)).tier).toBe('Starter');
  });

  it('after POST /billing/cancel {atPeriodEnd:false}, a late completion (S2 again, or S1 left open) does not revive the plan', async () => {
    const { key, s1, s2, sub1, sub2 } = await twoCheckouts();
    await post(completedEvent(`evt_${uid()}`, s2, key, sub2, { created: now() - 30 }));
    const cancel = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/cancel',
      headers: key.headers,
      payload: { atPeriodEnd: false },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(fake.subscriptions.get(sub2)!.status).toBe('canceled');
    expect(await sessionStatus(s1)).toBe('expired');
    await post(completedEvent(`evt_${uid()}`, s2, key, sub2, { created: now() }));
    await post(completedEvent(`evt_${uid()}`, s1, key, sub1, { created: now() }));
    expect((await usageOf(app, key)).tier).toBe('Free');
    expect(await keyRow(key)).toMatchObject({ stripe_subscription_id: null, subscription_status: 'canceled' });
    // a new checkout after the cancel is the key's pending one again
    const s3 = await openCheckout(app, key, 'starter');
    const sub3 = `sub_s3_${uid()}`;
    fake.addSubscription(sub3, { apiKeyId: key.id }, PRICE.starter);
    await post(completedEvent(`evt_${uid()}`, s3, key, sub3, { created: now() + 1 }));
    expect((await usageOf(app, key)).tier).toBe('Starter');
  });

  it('an older customer.subscription.updated does not overwrite cancelAtPeriodEnd, a newer one applies', async () => {
    const { key, s1, sub1 } = await twoCheckouts();
    const t = now() - 100;
    await post(completedEvent(`evt_${uid()}`, s1, key, sub1, { created: t }));
    // events only: Stripe's update at t+20 (cancel at period end), then an older one from t+10 arrives
    await post(
      subscriptionEvent(
        `evt_${uid()}`,
        'customer.subscription.updated',
        sub1,
        key,
        { status: 'active', cancel_at_period_end: true },
        t + 20,
      ),
    );
    expect((await keyRow(key)).cancel_at_period_end).toBe(true);
    await post(
      subscriptionEvent(
        `evt_${uid()}`,
        'customer.subscription.updated',
        sub1,
        key,
        { status: 'active', cancel_at_period_end: false },
        t + 10,
      ),
    );
    expect((await keyRow(key)).cancel_at_period_end).toBe(true);
    // same second as the state applied: the order is unknown, so Stripe's own state (read back) decides
    fake.subscriptions.get(sub1)!.cancel_at_period_end = true;
    await post(
      subscriptionEvent(
        `evt_${uid()}`,
        'customer.subscription.updated',
        sub1,
        key,
        { status: 'active', cancel_at_period_end: false },
        t + 20,
      ),
    );
    expect((await keyRow(key)).cancel_at_period_end).toBe(true);
    // a newer update applies, its tier from the price id
    await post(
      subscriptionEvent(
        `evt_${uid()}`,
        'customer.subscription.updated',
        sub1,
        key,
        { status: 'active', cancel_at_period_end: false, items: { data: [{ id: 'si_1', price: { id: PRICE.growth } }] } },
        t + 30,
      ),
    );
    expect(await keyRow(key)).toMatchObject({ cancel_at_period_end: false, tier: 'Growth' });
  });

  it("through the API: cancel at period end, then Stripe's older update (from before the cancel) arrives late", async () => {
    const { key, s1, sub1 } = await twoCheckouts();
    const t = now() - 60;
    await post(completedEvent(`evt_${uid()}`, s1, key, sub1, { created: t }));
    const cancel = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/cancel',
      headers: key.headers,
      payload: { atPeriodEnd: true },
    });
    expect(cancel.json()).toMatchObject({ tier: 'Starter', subscription: { cancelAtPeriodEnd: true } });
    await post(
      subscriptionEvent(
        `evt_${uid()}`,
        'customer.subscription.updated',
        sub1,
        key,
        { status: 'active', cancel_at_period_end: false },
        t + 5,
      ),
    );
    expect((await keyRow(key)).cancel_at_period_end).toBe(true);
    // Stripe's deletion at period end ends it, whatever came before
    await post(subscriptionEvent(`evt_${uid()}`, 'customer.subscription.deleted', sub1, key, { status: 'canceled' }, t + 6));
    expect((await usageOf(app, key)).tier).toBe('Free');
  });
});

describe('tiers come from price ids, never from metadata text', () => {
  it('"Platinum" or "starter" in metadata change nothing; the price decides; keys and usage keep answering', async () => {
    const key = await createKey(app, 'Free');
    const s = await openCheckout(app, key, 'starter');
    const sub = `sub_meta_${uid()}`;
    fake.addSubscription(sub, { apiKeyId: key.id, tier: 'Platinum' }, PRICE.starter);
    const t = now() - 50;
    await post(completedEvent(`evt_${uid()}`, s, key, sub, { created: t, tier: 'Platinum' }));
    expect((await usageOf(app, key)).tier).toBe('Starter');
    for (const [i, tier] of ['Platinum', 'starter', 'Enterprise'].entries()) {
      await post(
        subscriptionEvent(
          `evt_${uid()}`,
          'customer.subscription.updated',
          sub,
          key,
          { status: 'active', metadata: { apiKeyId: key.id, tier } },
          t + 1 + i,
        ),
      );
      await post(
        subscriptionEvent(
          `evt_${uid()}`,
          'customer.subscription.updated',
          sub,
          key,
          { status: 'active', items: { data: [{ id: 'si_x', price: { id: `price_${tier}` } }] } },
          t + 5 + i,
        ),
      );
    }
    expect((await keyRow(key)).tier).toBe('Starter');
    // a completion for a session we never opened, claiming a tier: recorded, nothing changes
    const stranger = await createKey(app, 'Free');
    await post(completedEvent(`evt_${uid()}`, `cs_forged_${uid()}`, stranger, sub, { tier: 'Enterprise' }));
    expect((await usageOf(app, stranger)).tier).toBe('Free');
    const usage = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers });
    expect(usage.statusCode).toBe(200);
    const keys = await app.inject({ method: 'GET', url: '/api/v1/billing/api-keys', headers: key.owner.auth });
    expect(keys.statusCode, keys.body).toBe(200);
    expect(keys.json().keys.find((k: { id: string }) => k.id === key.id)).toMatchObject({ tier: 'Starter' });
  });

  it('null or missing objects on every event type: 200, recorded, nothing changes, logged', async () => {
    const { key, s1, sub1 } = await twoCheckouts();
    await post(completedEvent(`evt_${uid()}`, s1, key, sub1, { created: now() - 10 }));
    for (const type of ['checkout.session.completed', 'customer.subscription.updated', 'customer.subscription.deleted', 'invoice.paid']) {
      for (const object of [null, undefined, {}, { id: 42 }]) {
        const r = await post(stripeEvent(`evt_${uid()}`, type, object as object));
        expect(r.duplicate).toBe(false);
      }
    }
    expect(await keyRow(key)).toMatchObject({ tier: 'Starter', stripe_subscription_id: sub1, subscription_status: 'active' });
  });
});
