// SQL for API keys, checkout sessions and processed payment events.
import type { Queryable } from '../../platform/db/types.js';
import { createdKeySql } from '../../platform/http/pagination.js';

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
  stripe_subscription_item_id: string | null;
  subscription_status: string | null;
  cancel_at_period_end: boolean;
  /** creation time of the last Stripe event (or own call to Stripe) applied to the current subscription */
  subscription_event_at: Date | null;
  environment: 'live' | 'test';
  expires_at: Date | null;
  last_used_at: Date | null;
  previous_key_hash: string | null;
  previous_key_expires_at: Date | null;
  rotated_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export interface CheckoutRow {
  id: string;
  api_key_id: string;
  tier: string;
  provider: string;
  /** open, completed, superseded (a newer state won), expired (the key cancelled while it was open) */
  status: string;
  subscription_id: string | null;
  success_url: string | null;
  cancel_url: string | null;
  created_at: Date;
}

export function createBillingRepo(db: Queryable) {
  return {
    async insertKey(
      k: {
        hash: string;
        prefix: string;
        tier: string;
        owner: string;
        org: string;
        email: string;
        environment: 'live' | 'test';
        expiresAt: Date | null;
      },
      q: Queryable = db,
    ) {
      const rows = await q.query<ApiKeyRow>(
        `INSERT INTO api_keys (key_hash, key_prefix, tier, owner_address, organization_name, contact_email, environment, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [k.hash, k.prefix, k.tier, k.owner, k.org, k.email, k.environment, k.expiresAt],
      );
      return rows[0];
    },
    /** A usable key by the hash of its current secret, or of its previous one while the rotation grace lasts. */
    async keyByHash(hash: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>(
        `SELECT * FROM api_keys
          WHERE (key_hash = $1 OR (previous_key_hash = $1 AND previous_key_expires_at > now()))
            AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
        [hash],
      );
      return rows[0] ?? null;
    },
    /** One page of an owner's keys, newest first; `before` is the [created key, id] of the previous page's last key. */
    async keysPage(owner: string, limit: number, before: string[] | null, q: Queryable = db) {
      return q.query<ApiKeyRow & { created_key: string }>(
        `SELECT *, ${createdKeySql()} AS created_key FROM api_keys
          WHERE owner_address = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
          ORDER BY created_at DESC, id DESC LIMIT $4`,
        [owner, before?.[0] ?? null, before?.[1] ?? null, limit],
      );
    },
    async keysOf(owner: string, q: Queryable = db) {
      return q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE owner_address = $1 ORDER BY created_at DESC, id', [owner]);
    },
    async revoke(id: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>(
        'UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()), updated_at = now() WHERE id = $1 RETURNING *',
        [id],
      );
      return rows[0] ?? null;
    },
    /** Replaces the key's secret; the old one stays valid until graceUntil. Returns the row as it was before. */
    async rotate(id: string, next: { hash: string; prefix: string; graceUntil: Date }, q: Queryable) {
      const before = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1 FOR UPDATE', [id]);
      if (!before[0]) return null;
      await q.query(
        `UPDATE api_keys SET previous_key_hash = key_hash, previous_key_expires_at = $4, key_hash = $2, key_prefix = $3,
           rotated_at = now(), updated_at = now()
         WHERE id = $1`,
        [id, next.hash, next.prefix, next.graceUntil],
      );
      return before[0];
    },
    /** Write-behind of last use: one statement for every key used since the last flush. */
    async touch(used: Map<string, Date>, q: Queryable = db) {
      if (used.size === 0) return;
      await q.query(
        `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
        [[...used.keys()], [...used.values()]],
      );
    },
    async keyById(id: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async keyBySubscription(subscriptionId: string, q: Queryable = db) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE stripe_subscription_id = $1', [subscriptionId]);
      return rows[0] ?? null;
    },
    /** The key's row locked for this transaction: payment events for one key apply one at a time. */
    async keyForUpdate(id: string, q: Queryable) {
      const rows = await q.query<ApiKeyRow>('SELECT * FROM api_keys WHERE id = $1 FOR UPDATE', [id]);
      return rows[0] ?? null;
    },
    /** The key's one subscription: a new one replaces the previous (which the caller cancels), setting the tier. */
    async setSubscription(
      id: string,
      s: {
        tier: string;
        customer: string | null;
        subscription: string;
        item?: string | null;
        status?: string;
        cancelAtPeriodEnd?: boolean;
        eventAt: Date;
      },
      q: Queryable = db,
    ) {
      const rows = await q.query<ApiKeyRow>(
        `UPDATE api_keys SET tier = $2, stripe_customer_id = COALESCE($3, stripe_customer_id), stripe_subscription_id = $4,
           stripe_subscription_item_id = $5, subscription_status = $6, cancel_at_period_end = $7, subscription_event_at = $8, updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, s.tier, s.customer, s.subscription, s.item ?? null, s.status ?? 'active', s.cancelAtPeriodEnd ?? false, s.eventAt],
      );
      return rows[0] ?? null;
    },
    /** The subscription ended: back to Free, no subscription. */
    async clearSubscription(id: string, q: Queryable = db, eventAt: Date = new Date()) {
      const rows = await q.query<ApiKeyRow>(
        `UPDATE api_keys SET tier = 'Free', stripe_subscription_id = NULL, stripe_subscription_item_id = NULL,
           subscription_status = 'canceled', cancel_at_period_end = false, subscription_event_at = $2, updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, eventAt],
      );
      return rows[0] ?? null;
    },
    async setSubscriptionState(
      id: string,
      s: { tier?: string; status?: string | null; cancelAtPeriodEnd?: boolean; item?: string | null; eventAt?: Date },
      q: Queryable = db,
    ) {
      const rows = await q.query<ApiKeyRow>(
        `UPDATE api_keys SET tier = COALESCE($2, tier), subscription_status = COALESCE($3, subscription_status),
           cancel_at_period_end = COALESCE($4, cancel_at_period_end), stripe_subscription_item_id = COALESCE($5, stripe_subscription_item_id),
           subscription_event_at = COALESCE($6, subscription_event_at), updated_at = now()
         WHERE id = $1 RETURNING *`,
        [id, s.tier ?? null, s.status ?? null, s.cancelAtPeriodEnd ?? null, s.item ?? null, s.eventAt ?? null],
      );
      return rows[0] ?? null;
    },
    async insertCheckout(c: {
      id: string;
      keyId: string;
      tier: string;
      provider: string;
      wallet: string | null;
      successUrl: string | null;
      cancelUrl: string | null;
    }) {
      await db.query(
        `INSERT INTO checkout_sessions (id, api_key_id, tier, provider, wallet_address, success_url, cancel_url)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [c.id, c.keyId, c.tier, c.provider, c.wallet, c.successUrl, c.cancelUrl],
      );
    },
    async checkout(id: string, q: Queryable = db) {
      const rows = await q.query<CheckoutRow>('SELECT * FROM checkout_sessions WHERE id = $1', [id]);
      return rows[0] ?? null;
    },
    async checkoutForUpdate(id: string, q: Queryable) {
      const rows = await q.query<CheckoutRow>('SELECT * FROM checkout_sessions WHERE id = $1 FOR UPDATE', [id]);
      return rows[0] ?? null;
    },
    /** Closes an open session: completed (with the subscription it made), superseded or expired. */
    async closeCheckout(id: string, status: 'completed' | 'superseded' | 'expired', subscription: string | null, q: Queryable = db) {
      await q.query(
        "UPDATE checkout_sessions SET status = $2, subscription_id = COALESCE($3, subscription_id), completed_at = now() WHERE id = $1 AND status = 'open'",
        [id, status, subscription],
      );
    },
    /** A cancelled key has no pending checkout: sessions still open are no longer the key's to complete. */
    async expireOpenCheckouts(keyId: string, q: Queryable = db) {
      await q.query("UPDATE checkout_sessions SET status = 'expired', completed_at = now() WHERE api_key_id = $1 AND status = 'open'", [
        keyId,
      ]);
    },
    /** Queries per UTC day of a key from `from` to `to` (inclusive, YYYY-MM-DD); days without queries are absent. */
    async dailyUsage(keyId: string, from: string, to: string, q: Queryable = db) {
      return q.query<{ day: string; query_count: string | number }>(
        `SELECT to_char(day, 'YYYY-MM-DD') AS day, query_count FROM api_key_usage_daily
          WHERE api_key_id = $1 AND day BETWEEN $2::date AND $3::date ORDER BY day`,
        [keyId, from, to],
      );
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
