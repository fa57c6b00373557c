// Stripe: checkout and its webhook. Unset STRIPE_SECRET_KEY: the built-in payment page (local-providers.ts).
import { str, url, type Env } from './env.js';

export interface BillingSettings {
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  stripePriceStarter: string | null;
  stripePriceGrowth: string | null;
  /** Stripe API base URL (stripe-mock or a test double); the SDK's default when unset. */
  stripeApiBase: string | null;
}

export function billingSettings(env: Env): BillingSettings {
  return {
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    stripePriceStarter: str(env, 'STRIPE_PRICE_STARTER'),
    stripePriceGrowth: str(env, 'STRIPE_PRICE_GROWTH'),
    stripeApiBase: url(env, 'STRIPE_API_BASE', ['http:', 'https:']),
  };
}
