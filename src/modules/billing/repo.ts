// SQL for API keys, checkout sessions and processed payment events.
import type { Queryable } from '../../platform/db/types.js';

export interface ApiKeyRow {
  id: string;
  key_hash: string;
  key_prefix: string;
  tier: string;
  owner_address: string;
  organization_name: string;
  contact_email: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  created_at: Date;
}

export interface CheckoutRow {
  id: string;
  api_key_id: string;
  tier: string;
  provider: string;
  status: string;
  success_url: string | null;
  cancel_url: string | null;
  created_at: Date;
}

export function createBillingRepo(db: Queryable) {
  return {
    async insertKey(k: { hash: string; prefix: string; tier: string; owner: string; org: string; email: string }, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>(
        `INSERT INTO api_keys (key_hash, key_prefix, tier, owner_address, organization_name, contact_email)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [k.hash, k.prefix, k.tier, k.owner, k.org, k.email],
      );
      return rows[0];
    },
    async keyByHash(hash: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [hash]);
      return rows[0] ?? null;
    },
    async keyById(id: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async keyBySubscription(subscriptionId: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE stripe_subscription_id = $1', [subscriptionId]);
      return rows[0] ?? null;
    },
    async setTier(id: string, tier: string, stripe: { customer?: string | null; subscription?: string | null }, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>(
        `UPDATE api_keys SET tier = $2,
           stripe_customer_id = COALESCE($3, stripe_customer_id),
           stripe_subscription_id = COALESCE($4, stripe_subscription_id),
           updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, tier, stripe.customer ?? null, stripe.subscription ?? null],
      );
      return rows[0] ?? null;
    },
    async insertCheckout(c: { id: string; keyId: string; tier: string; provider: string; wallet: string | null; successUrl: string | null; cancelUrl: string | null }) {
      await db.query(
        `INSERT INTO checkout_sessions (id, api_key_id, tier, provider, wallet_address, success_url, cancel_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [c.id, c.keyId, c.tier, c.provider, c.wallet, c.successUrl, c.cancelUrl],
      );
    },
    async checkout(id: string) {
      const rows = await db.query<CheckoutRow>('SELECT * FROM checkout_sessions WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async completeCheckout(id: string, q: Queryable = db) {
      await q.query("UPDATE checkout_sessions SET status = 'completed', completed_at = now() WHERE id = $1", [id]);
    },
    /** Records the event id; false when it was already handled (payment processors redeliver). */
    async claimEvent(e: { id: string; type: string; keyId: string | null; payload: unknown }, q: Queryable) {
      const rows = await q.query(
        `INSERT INTO payment_events (id, type, api_key_id, payload) VALUES ($1, $2, $3, $4)
         ON CONFLICT (id) DO NOTHING RETURNING id`,
        [e.id, e.type, e.keyId, JSON.stringify(e.payload)],
      );
      return rows.length === 1;
    },
  };
}

export type BillingRepo = ReturnType<typeof createBillingRepo>;
