// Test helpers for payment events: events shaped and signed as Stripe sends them (the SDK's own test header), and
// checkouts opened through the API so that completions name a session the service really created.
import Stripe from 'stripe';
import { expect } from 'vitest';
import type { TestKey } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';

const sdk = new Stripe('sk_test_unused');
const now = () => Math.floor(Date.now() / 1000);

export function signedBy(secret: string) {
  return (event: object) => {
    const payload = JSON.stringify(event);
    return {
      payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': sdk.webhooks.generateTestHeaderString({ payload, secret }) },
    };
  };
}

/** An event as Stripe shapes it; `created` in Unix seconds (default now). */
export const stripeEvent = (id: string, type: string, object: object | null | undefined, created = now()) => ({
  id,
  object: 'event',
  type,
  created,
  livemode: false,
  ...(object === undefined ? {} : { data: { object } }),
});

export const completedEvent = (
  id: string,
  session: string,
  key: TestKey,
  subscription: string,
  opts: { created?: number; tier?: string } = {},
) =>
  stripeEvent(
    id,
    'checkout.session.completed',
    {
      id: session,
      object: 'checkout.session',
      client_reference_id: key.id,
      customer: 'cus_1',
      subscription,
      status: 'complete',
      metadata: { apiKeyId: key.id, tier: opts.tier ?? 'Starter' },
    },
    opts.created,
  );

export const subscriptionEvent = (id: string, type: string, sub: string, key: TestKey, extra: object = {}, created?: number) =>
  stripeEvent(id, type, { id: sub, object: 'subscription', metadata: { apiKeyId: key.id }, ...extra }, created);

/** Opens a checkout for the key through the API; returns the session id. */
export async function openCheckout(app: App, key: TestKey, planId: 'starter' | 'growth'): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/billing/checkout', headers: key.headers, payload: { planId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sessionId;
}

export const usageOf = async (app: App, key: TestKey) => {
  const res = await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { tier: string; rateLimit: number };
};
