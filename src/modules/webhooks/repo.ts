// SQL for webhook subscriptions and their delivery history. Every method takes an optional transaction.
import type { Queryable } from '../../platform/db/types.js';
import { createdKeySql } from '../../platform/http/pagination.js';
import { currentEnvironment } from '../../platform/auth/environment.js';

export interface SubscriptionRow {
  id: string;
  api_key_id: string;
  url: string;
  wallet_address_filter: string | null;
  secret_encrypted: string;
  is_active: boolean;
  consecutive_failures: number;
  last_delivery_at: Date | null;
  created_at: Date;
}

export interface DeliveryRow {
  id: string;
  event_type: string;
  /** null for test events */
  wallet_address: string | null;
  category: string | null;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  succeeded: boolean;
  created_at: Date;
}

const COLS = 'id, api_key_id, url, wallet_address_filter, secret_encrypted, is_active, consecutive_failures, last_delivery_at, created_at';

export function createSubscriptionRepo(db: Queryable & { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> }) {
  return {
    tx: <T>(fn: (q: Queryable) => Promise<T>) => db.tx(fn),

    /** Serializes creations for one key so two concurrent requests cannot both pass the tier limit. */
    async lockKey(q: Queryable, apiKeyId: string) {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhooks:${apiKeyId}`]);
    },

    async countForKey(apiKeyId: string, q: Queryable = db): Promise<number> {
      // the temporary webhooks of `credence webhooks listen` (relay.ts) have their own limit
      const [r] = await q.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM webhook_subscriptions WHERE api_key_id = $1 AND url NOT LIKE 'credence-listen:%'",
        [apiKeyId],
      );
      return r.n;
    },

    async insert(
      s: { apiKeyId: string; url: string; filter: string | null; secretEncrypted: string },
      q: Queryable = db,
    ): Promise<SubscriptionRow> {
      const [row] = await q.query<SubscriptionRow>(
        // a test key's webhooks are test webhooks: score events (live) never reach them
        `INSERT INTO webhook_subscriptions (api_key_id, url, wallet_address_filter, secret_encrypted, environment)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLS}`,
        [s.apiKeyId, s.url, s.filter, s.secretEncrypted, currentEnvironment()],
      );
      return row;
    },

    /** Oldest first; `page.after` is the [created key, id] of the last webhook of the previous page. */
    async listForKey(
      apiKeyId: string,
      page: { limit: number; after: string[] | null } | null = null,
      q: Queryable = db,
    ): Promise<(SubscriptionRow & { created_key: string })[]> {
      return q.query<SubscriptionRow & { created_key: string }>(
        `SELECT ${COLS}, ${createdKeySql()} AS created_key FROM webhook_subscriptions
          WHERE api_key_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) > ($2::timestamptz, $3::uuid))
          ORDER BY created_at, id LIMIT $4`,
        [apiKeyId, page?.after?.[0] ?? null, page?.after?.[1] ?? null, page?.limit ?? null],
      );
    },

    async getForKey(id: string, apiKeyId: string, q: Queryable = db): Promise<SubscriptionRow | null> {
      const rows = await q.query<SubscriptionRow>(`SELECT ${COLS} FROM webhook_subscriptions WHERE id = $1 AND api_key_id = $2`, [
        id,
        apiKeyId,
      ]);
      return rows[0] ?? null;
    },

    /**
     * Deletes the subscription with its undelivered deliveries and history (a deleted endpoint has no one to
     * deliver to); false when it is not the key's. An inactive webhook keeps its queue: enable it instead.
     */
    async deleteForKey(id: string, apiKeyId: string, q: Queryable = db): Promise<boolean> {
      const rows = await q.query('DELETE FROM webhook_subscriptions WHERE id = $1 AND api_key_id = $2 RETURNING id', [id, apiKeyId]);
      return rows.length === 1;
    },

    /** Active again with a clean slate; its kept pending deliveries become due at once. Null when not the key's. */
    async enable(id: string, apiKeyId: string): Promise<SubscriptionRow | null> {
      return db.tx(async (q) => {
        const [row] = await q.query<SubscriptionRow>(
          `UPDATE webhook_subscriptions SET is_active = true, consecutive_failures = 0, probe_at = NULL, deactivated_at = NULL
           WHERE id = $1 AND api_key_id = $2 RETURNING ${COLS}`,
          [id, apiKeyId],
        );
        if (row)
          await q.query(
            `UPDATE webhook_deliveries SET next_attempt_at = now() WHERE subscription_id = $1 AND status = 'pending' AND claim_token IS NULL`,
            [id],
          );
        return row ?? null;
      });
    },

    /**
     * Sends again every delivery created since `since` that did not get through: failed ones start a fresh
     * retry schedule, pending ones become due now. Delivered ones are not repeated. Returns how many.
     */
    async replay(subscriptionId: string, since: Date, q: Queryable = db): Promise<number> {
      const rows = await q.query(
        `UPDATE webhook_deliveries
         SET status = 'pending', attempts = CASE WHEN status = 'failed' THEN 0 ELSE attempts END, next_attempt_at = now()
         WHERE subscription_id = $1 AND created_at >= $2 AND (status = 'failed' OR (status = 'pending' AND claim_token IS NULL))
         RETURNING id`,
        [subscriptionId, since],
      );
      return rows.length;
    },

    /** A `webhook.test` delivery, queued like any other (signed, retried, listed). */
    async enqueueTest(subscriptionId: string, body: string, q: Queryable = db): Promise<DeliveryRow> {
      const [row] = await q.query<DeliveryRow>(
        `INSERT INTO webhook_deliveries (subscription_id, event_type, body) VALUES ($1, 'webhook.test', $2)
         RETURNING id, event_type, wallet_address, category, status, attempts, next_attempt_at, last_status_code, last_error, created_at, delivered_at`,
        [subscriptionId, body],
      );
      return row;
    },

    /** Newest first; `before` is the [created key, id] of the last delivery of the previous page. */
    async recentDeliveries(
      subscriptionId: string,
      limit: number,
      before: string[] | null = null,
      q: Queryable = db,
    ): Promise<(DeliveryRow & { created_key: string })[]> {
      return q.query<DeliveryRow & { created_key: string }>(
        `SELECT id, event_type, wallet_address, category, status, attempts, next_attempt_at, last_status_code, last_error, created_at, delivered_at,
                ${createdKeySql()} AS created_key
         FROM webhook_deliveries WHERE subscription_id = $1 AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
         ORDER BY created_at DESC, id DESC LIMIT $2`,
        [subscriptionId, limit, before?.[0] ?? null, before?.[1] ?? null],
      );
    },

    async attemptsOf(deliveryIds: string[], q: Queryable = db): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return q.query<AttemptRow>(
        `SELECT delivery_id, attempt, status_code, duration_ms, error, succeeded, created_at
         FROM webhook_attempts WHERE delivery_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))
         ORDER BY delivery_id, attempt, id`,
        [JSON.stringify(deliveryIds)],
      );
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
