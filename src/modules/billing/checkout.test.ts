import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { createKey, createTestApp } from '../../../test/helpers/app.js';
import { startFakeStripe } from '../../../test/fakes/stripe-api.js';
import { completedEvent, openCheckout, stripeEvent, subscriptionEvent } from './test-helpers.js';
import type { App } from '../../platform/http/types.js';

const WEBHOOK_SECRET = 'whsec_test_credence_0123456789abcdef';
const stripe = new Stripe('sk_test_unused');

function signed(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  return {
    payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret }) },
  };
}

const usage = async (app: App, headers: Record<string, string>) => {
  const res = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers });
  return { ...res.json(), limitHeader: res.headers['x-ratelimit-limit'] };
};

describe('local payment provider (no Stripe settings)', () => {
  let app: App;
  beforeAll(async () => {
    app = await createTestApp({ config: { publicUrl: 'http://credence.test' } });
  });
  afterAll(() => app.close());

  it('checkout page + confirm upgrades the key through a signed checkout.session.completed', async () => {
    const key = await createKey(app, 'Free');
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: key.headers,
      payload: { planId: 'starter', successUrl: 'https://dapp.example/thanks' },
    });
    expect(res.statusCode).toBe(200);
    const { sessionId, url, provider } = res.json();
    expect(provider).toBe('local');
    // the url carries the confirm token that binds the session to its creator
    expect(url).toMatch(new RegExp(`^http://credence\\.test/api/v1/billing/checkout/local/${sessionId}\\?token=[A-Za-z0-9_-]+$`));
    const page = await app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Upgrade to Starter');
    expect(page.body).toContain('Confirm payment');
    const confirm = await app.inject({ method: 'POST', url: `${new URL(url).pathname}/confirm${new URL(url).search}`, payload: {} });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toEqual({ completed: true, redirectTo: 'https://dapp.example/thanks' });
    const u = await usage(app, key.headers);
    expect(u).toMatchObject({ tier: 'Starter', rateLimit: 100, monthlyLimit: 10_000, limitHeader: '100' });
    const again = await app.inject({ method: 'POST', url: `${new URL(url).pathname}/confirm${new URL(url).search}`, payload: {} });
    expect(again.statusCode).toBe(409);
    const events = await app.ctx.db.query("SELECT * FROM payment_events WHERE type = 'checkout.session.completed' AND api_key_id = $1", [
      key.id,
    ]);
    expect(events).toHaveLength(1);
  });

  it('validates the checkout body and needs an API key', async () => {
    const key = await createKey(app, 'Free');
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: key.headers,
      payload: { planId: 'enterprise', successUrl: 'ftp://x', walletAddress: '0x123' },
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .fields.map((f: { field: string }) => f.field)
        .sort(),
    ).toEqual(expect.arrayContaining(['planId', 'successUrl', 'walletAddress']));
    const long = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/checkout',
      headers: key.headers,
      payload: { planId: 'growth', cancelUrl: `https://x.example/${'a'.repeat(2000)}` },
    });
    expect(long.statusCode).toBe(400);
    expect((await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', payload: { planId: 'growth' } })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/v1/billing/checkout/local/cs_nope' })).statusCode).toBe(404);
  });
});

describe('payment events (Stripe-Signature)', () => {
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
  const post = (p: { payload: string; headers: Record<string, string> }) =>
    app.inject({ method: 'POST', url: '/api/v1/billing/stripe/webhook', ...p });
  async function paying(planId: 'starter' | 'growth', sub: string) {
    const key = await createKey(app, 'Free');
    const session = await openCheckout(app, key, planId);
    fake.addSubscription(sub, { apiKeyId: key.id });
    return { key, session };
  }

  it('a good signature upgrades; the same event id again changes nothing', async () => {
    const { key, session } = await paying('growth', 'sub_good_1');
    const ev = signed(completedEvent('evt_good_1', session, key, 'sub_good_1'));
    const first = await post(ev);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect((await usage(app, key.headers)).tier).toBe('Growth');
    const dup = await post(ev);
    expect(dup.json()).toEqual({ received: true, duplicate: true });
    expect(await app.ctx.db.query('SELECT * FROM payment_events WHERE id = $1', ['evt_good_1'])).toHaveLength(1);
  });

  it('a bad or missing signature gets 400 and changes nothing', async () => {
    const { key, session } = await paying('growth', 'sub_forged');
    const forged = signed(completedEvent('evt_forged', session, key, 'sub_forged'), 'whsec_someone_else');
    const r1 = await post(forged);
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error).toBe('validation_failed');
    const good = signed(completedEvent('evt_tamper', session, key, 'sub_forged'));
    const tampered = await post({ headers: good.headers, payload: good.payload.replace('sub_forged', 'sub_other_1') });
    expect(tampered.statusCode).toBe(400);
    const missing = await post({ headers: { 'content-type': 'application/json' }, payload: good.payload });
    expect(missing.statusCode).toBe(400);
    expect((await usage(app, key.headers)).tier).toBe('Free');
    expect(await app.ctx.db.query('SELECT * FROM payment_events WHERE api_key_id = $1', [key.id])).toHaveLength(0);
  });

  it('subscription.updated is recorded; subscription.deleted downgrades to Free', async () => {
    const { key, session } = await paying('starter', 'sub_abc');
    const t = Math.floor(Date.now() / 1000);
    await post(signed(completedEvent('evt_c2', session, key, 'sub_abc', { created: t })));
    expect((await usage(app, key.headers)).tier).toBe('Starter');
    const updated = await post(
      signed(subscriptionEvent('evt_u2', 'customer.subscription.updated', 'sub_abc', key, { status: 'past_due' }, t + 1)),
    );
    expect(updated.statusCode).toBe(200);
    expect((await usage(app, key.headers)).tier).toBe('Starter');
    const audit = await app.ctx.db.query("SELECT * FROM audit_log WHERE action = 'subscription.updated' AND target = $1", [
      `api_key:${key.id}`,
    ]);
    expect(audit).toHaveLength(1);
    const deleted = await post(signed(subscriptionEvent('evt_d2', 'customer.subscription.deleted', 'sub_abc', key, {}, t + 2)));
    expect(deleted.statusCode).toBe(200);
    const u = await usage(app, key.headers);
    expect(u).toMatchObject({ tier: 'Free', limitHeader: '10' });
  });

  it('an event that is not a Stripe event is 400; one without a usable data.object is recorded and changes nothing', async () => {
    const { key, session } = await paying('growth', 'sub_malformed');
    for (const body of [
      null,
      [],
      'text',
      { type: 'checkout.session.completed' },
      { id: 'evt_no_created', type: 'checkout.session.completed' },
    ]) {
      const res = await post(signed(body as object));
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
    for (const [i, object] of [null, undefined, 'cs_x', { object: 'checkout.session' }].entries()) {
      const res = await post(signed(stripeEvent(`evt_null_${i}_${key.id}`, 'checkout.session.completed', object as object)));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: false });
    }
    const deleted = await post(signed(stripeEvent(`evt_null_d_${key.id}`, 'customer.subscription.deleted', null)));
    expect(deleted.statusCode).toBe(200);
    expect((await usage(app, key.headers)).tier).toBe('Free');
    // the real completion still works afterwards
    expect((await post(signed(completedEvent(`evt_after_null_${key.id}`, session, key, 'sub_malformed')))).statusCode).toBe(200);
    expect((await usage(app, key.headers)).tier).toBe('Growth');
  });
});

describe('Stripe checkout through the official SDK', () => {
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

  it('creates a subscription checkout session tagged with the key, and the completed event upgrades it', async () => {
    const key = await createKey(app, 'Free');
    const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId: 'growth' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.provider).toBe('stripe');
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const sent = fake.sessions.at(-1)!;
    expect(sent.mode).toBe('subscription');
    expect(sent.client_reference_id).toBe(key.id);
    expect(sent['metadata[apiKeyId]']).toBe(key.id);
    expect(sent['metadata[tier]']).toBe('Growth');
    expect(sent['line_items[0][price_data][unit_amount]']).toBe('19900');
    fake.addSubscription('sub_evt_sdk', { apiKeyId: key.id });
    const done = await app.inject({
      method: 'POST',
      url: '/api/v1/billing/stripe/webhook',
      ...signed(completedEvent('evt_sdk', body.sessionId, key, 'sub_evt_sdk')),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await usage(app, key.headers)).tier).toBe('Growth');
  });

  it('an upstream failure is a 502', async () => {
    fake.failNext = 3; // the SDK retries twice
    const key = await createKey(app, 'Free');
    const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId: 'starter' } });
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toBe('upstream_unavailable');
  });
});
