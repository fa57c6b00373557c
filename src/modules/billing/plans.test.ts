// Plans: one subscription per key. A paid key changes plan by updating its subscription (never a second checkout),
// cancels with POST /billing/cancel, and events about any other subscription never change it. Tested with the
// local provider and with the Stripe SDK against a stand-in of Stripe's API, events signed by the SDK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createKey, createTestApp, type TestKey } from '../../../test/helpers/app.js';
import { startFakeStripe } from '../../../test/fakes/stripe-api.js';
import type { App } from '../../platform/http/types.js';
import { completedEvent, openCheckout, subscriptionEvent } from './test-helpers.js';

const WEBHOOK_SECRET = 'whsec_test_credence_plans_0123456789';
const sdk = new Stripe('sk_test_unused');

function signed(event: object) {
  const payload = JSON.stringify(event);
  return {
    payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
  };
}
const usage = async (app: App, key: TestKey) =>
  (await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json();
const plan = (app: App, key: TestKey, planId: string) =>
  app.inject({ method: 'POST', url: '/api/v1/billing/plan', headers: key.headers, payload: { planId } });
const cancel = (app: App, key: TestKey, payload: object = {}) =>
  app.inject({ method: 'POST', url: '/api/v1/billing/cancel', headers: key.headers, payload });

describe('local provider', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { publicUrl: 'http://credence.test' } });
  });
  afterAll(() => app.close());

  async function paidKey(planId = 'starter') {
    const key = await createKey(app, 'Free');
    const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId } });
    const path = new URL(res.json().url).pathname;
    const page = await app.inject({ method: 'GET', url: path });
    // the confirm form carries whatever the page needs (a token bound to the session's creator, where required)
    const action = /action="([^"]+)"/.exec(page.body)?.[1] ?? `${path}/confirm`;
    const confirm = await app.inject({ method: 'POST', url: action.replace(/&amp;/g, '&'), headers: key.headers, payload: {} });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return key;
  }

  it('a paid key changes plan on its one subscription; a second checkout is refused', async () => {
    const key = await paidKey('starter');
    expect((await usage(app, key)).tier).toBe('Starter');
    const [{ stripe_subscription_id: sub }] = await app.ctx.db.query<{ stripe_subscription_id: string }>(
      'SELECT stripe_subscription_id FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(sub).toMatch(/^sub_local_/);

    const second = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: key.headers,
      payload: { planId: 'growth' },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().details).toContain('/billing/plan');

    const res = await plan(app, key, 'growth');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: key.id,
      changed: true,
      tier: 'Growth',
      rateLimit: 500,
      monthlyQueryLimit: 100_000,
      provider: 'local',
      subscription: { id: sub, status: 'active', cancelAtPeriodEnd: false },
    });
    expect(await usage(app, key)).toMatchObject({ tier: 'Growth', rateLimit: 500 });
    // mirrored as Stripe would: a signed customer.subscription.updated reached the webhook route
    const events = await app.ctx.db.query("SELECT * FROM payment_events WHERE type = 'customer.subscription.updated' AND api_key_id = $1", [
      key.id,
    ]);
    expect(events).toHaveLength(1);
    // the same plan again changes nothing
    expect((await plan(app, key, 'growth')).json()).toMatchObject({ changed: false, tier: 'Growth' });
    const audit = await app.ctx.db.query("SELECT * FROM audit_log WHERE action = 'api_key.plan_change' AND target = $1", [
      `api_key:${key.id}`,
    ]);
    expect(audit).toHaveLength(1);
  });

  it('cancel ends the subscription: the key is Free at once', async () => {
    const key = await paidKey('growth');
    const res = await cancel(app, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'Free', subscription: null });
    expect(await usage(app, key)).toMatchObject({ tier: 'Free', rateLimit: 10 });
    expect((await cancel(app, key)).statusCode).toBe(409);
    // after a cancel, a new checkout is allowed again
    expect(
      (await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId: 'starter' } }))
        .statusCode,
    ).toBe(200);
  });

  it('a key without a subscription cannot change plan (409) and the body is validated', async () => {
    const key = await createKey(app, 'Free');
    const res = await plan(app, key, 'growth');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('invalid_state');
    const bad = await plan(app, key, 'enterprise');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields[0].field).toBe('planId');
    expect((await app.inject({ method: 'POST', url: '/api/v1/billing/plan', payload: { planId: 'growth' } })).statusCode).toBe(401);
  });
});

describe('Stripe (official SDK, events signed by the SDK)', () => {
  let app: App;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  beforeAll(async () => {
    fake = await startFakeStripe();
    app = await createTestApp({
      config: { stripeSecretKey: 'sk_test_fake', stripeApiBase: fake.url, stripeWebhookSecret: WEBHOOK_SECRET },
    });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  const post = (e: object) => app.inject({ method: 'POST', url: '/api/v1/billing/stripe/webhook', ...signed(e) });
  /** A checkout opened through the API and completed by Stripe with a subscription Stripe knows. */
  async function complete(eventId: string, key: TestKey, tier: 'Starter' | 'Growth', sub: string, created?: number) {
    const session = await openCheckout(app, key, tier === 'Starter' ? 'starter' : 'growth');
    fake.addSubscription(sub, { apiKeyId: key.id });
    const res = await post(completedEvent(eventId, session, key, sub, { created }));
    expect(res.statusCode, res.body).toBe(200);
    return session;
  }

  it('Starter -> Growth updates the same subscription (proration), never a second one', async () => {
    const key = await createKey(app, 'Free');
    await complete('evt_up_1', key, 'Starter', 'sub_up_1');
    expect((await usage(app, key)).tier).toBe('Starter');
    const sessionsBefore = fake.sessions.length;
    const res = await plan(app, key, 'growth');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'Growth', provider: 'stripe', subscription: { id: 'sub_up_1' } });
    expect(fake.sessions.length).toBe(sessionsBefore); // no new checkout
    const update = fake.subscriptionCalls.find((c) => c.method === 'POST' && c.id === 'sub_up_1')!;
    expect(update.form['items[0][id]']).toBe(fake.subscriptions.get('sub_up_1')!.item);
    expect(update.form['items[0][price]']).toMatch(/^price_/);
    expect(update.form.proration_behavior).toBe('create_prorations');
    expect(fake.subscriptions.get('sub_up_1')!.metadata.tier).toBe('Growth');
    expect((await usage(app, key)).tier).toBe('Growth');
  });

  it("the attack: a signed subscription.deleted for a key's OLD subscription (with our apiKeyId metadata) changes nothing", async () => {
    const key = await createKey(app, 'Free');
    // two checkouts opened before either completed: both complete, the older first
    const s1 = await openCheckout(app, key, 'starter');
    const s2 = await openCheckout(app, key, 'growth');
    fake.addSubscription('sub_old', { apiKeyId: key.id });
    fake.addSubscription('sub_new', { apiKeyId: key.id });
    const t = Math.floor(Date.now() / 1000);
    expect((await post(completedEvent('evt_old_c', s1, key, 'sub_old', { created: t - 10 }))).statusCode).toBe(200);
    expect((await post(completedEvent('evt_new_c', s2, key, 'sub_new', { created: t }))).statusCode).toBe(200);
    expect((await usage(app, key)).tier).toBe('Growth');
    // the replaced subscription is cancelled at Stripe: one key, one subscription billing
    expect(fake.subscriptions.get('sub_old')!.status).toBe('canceled');
    expect(fake.subscriptions.get('sub_new')!.status).toBe('active');
    // ... and its deletion event, signed and carrying apiKeyId, leaves the Growth key alone
    const res = await post(subscriptionEvent('evt_old_d', 'customer.subscription.deleted', 'sub_old', key, { status: 'canceled' }, t + 1));
    expect(res.statusCode).toBe(200);
    expect((await usage(app, key)).tier).toBe('Growth');
    const updated = await post(
      subscriptionEvent('evt_old_u', 'customer.subscription.updated', 'sub_old', key, { status: 'canceled' }, t + 1),
    );
    expect(updated.statusCode).toBe(200);
    const [row] = await app.ctx.db.query<{ subscription_status: string; stripe_subscription_id: string }>(
      'SELECT * FROM api_keys WHERE id = $1',
      [key.id],
    );
    expect(row).toMatchObject({ stripe_subscription_id: 'sub_new', subscription_status: 'active' });
    // the current subscription's deletion does downgrade
    await post(subscriptionEvent('evt_new_d', 'customer.subscription.deleted', 'sub_new', key, {}, t + 2));
    expect((await usage(app, key)).tier).toBe('Free');
  });

  it('cancel at period end keeps the plan until Stripe ends it; an immediate cancel downgrades now', async () => {
    const key = await createKey(app, 'Free');
    await complete('evt_c_1', key, 'Growth', 'sub_c_1');
    const res = await cancel(app, key, { atPeriodEnd: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ tier: 'Growth', subscription: { id: 'sub_c_1', cancelAtPeriodEnd: true } });
    expect(fake.subscriptions.get('sub_c_1')!.cancel_at_period_end).toBe(true);
    expect((await usage(app, key)).tier).toBe('Growth');
    await post(subscriptionEvent('evt_c_1d', 'customer.subscription.deleted', 'sub_c_1', key));
    expect((await usage(app, key)).tier).toBe('Free');

    const now = await createKey(app, 'Free');
    await complete('evt_c_2', now, 'Starter', 'sub_c_2');
    const immediate = await cancel(app, now, { atPeriodEnd: false });
    expect(immediate.json()).toMatchObject({ tier: 'Free', subscription: null });
    expect(fake.subscriptions.get('sub_c_2')!.status).toBe('canceled');
    // Stripe's own deletion event arrives afterwards: nothing left to change
    expect((await post(subscriptionEvent('evt_c_2d', 'customer.subscription.deleted', 'sub_c_2', now))).statusCode).toBe(200);
    expect((await usage(app, now)).tier).toBe('Free');
  });

  it('a failing subscription update is a 502 and changes nothing', async () => {
    const key = await createKey(app, 'Free');
    await complete('evt_missing', key, 'Starter', 'sub_gone_from_stripe');
    // Stripe no longer knows the subscription: the SDK gets 404 resource_missing
    fake.subscriptions.delete('sub_gone_from_stripe');
    const res = await plan(app, key, 'growth');
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('upstream_unavailable');
    expect((await usage(app, key)).tier).toBe('Starter');
  });
});
