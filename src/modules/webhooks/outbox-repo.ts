// SQL of the delivery outbox. A due row is claimed with FOR UPDATE SKIP LOCKED, so any number of workers on
// any number of instances share it; the claim moves next_attempt_at to the lease expiry and stamps a claim
// token, so a worker that dies mid-delivery leaves a row that becomes due again when its lease runs out, and
// only the holder of the current token may record the outcome.
import type { Db, Queryable } from '../../platform/db/types.js';

export interface OutboxMessage {
  address: string;
  category: string;
  body: string;
  /** default `score.updated` */
  eventType?: string;
  /** the subscriptions it goes to: live (default) or test ones (each environment gets only its own events) */
  environment?: 'live' | 'test';
}

export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  body: string;
  attempts: number;
  claim_token: string;
  url: string;
  secret_encrypted: string;
  /** the single probe of a failing endpoint (its outcome decides whether the endpoint's other rows go) */
  probe: boolean;
}

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export function createOutboxRepo(db: Db) {
  return {
    /** One pending row per (message, matching active subscription), in the caller's transaction. */
    async enqueue(q: Queryable, messages: OutboxMessage[]): Promise<number> {
      if (messages.length === 0) return 0;
      const rows = await q.query(
        `INSERT INTO webhook_deliveries (subscription_id, wallet_address, category, body, event_type)
         SELECT s.id, m.address, m.category, m.body, COALESCE(m."eventType", 'score.updated')
         FROM jsonb_to_recordset($1::jsonb) AS m(address text, category text, body text, "eventType" text, environment text)
         JOIN webhook_subscriptions s
           ON s.is_active AND s.environment = COALESCE(m.environment, 'live') AND (s.wallet_address_filter IS NULL OR s.wallet_address_filter = m.address)
         RETURNING id`,
        [JSON.stringify(messages)],
      );
      return rows.length;
    },

    /**
     * Claims due rows. A healthy endpoint's rows go in parallel; a failing endpoint (probe_at set) gets one
     * probe at a time, when its retry time has come: the subscription row is locked, its oldest due delivery
     * claimed, and probe_at moved to the lease expiry so no other worker probes it meanwhile.
     */
    async claim(limit: number, leaseSeconds: number): Promise<ClaimedDelivery[]> {
      const probes = await db.tx(async (q) => {
        const subs = await q.query<{ id: string }>(
          `SELECT s.id FROM webhook_subscriptions s
           WHERE s.is_active AND s.probe_at <= now()
             AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.subscription_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= now())
           ORDER BY s.probe_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
          [limit],
        );
        if (subs.length === 0) return [];
        const rows = await q.query<ClaimedDelivery>(
          `WITH pick AS (
             SELECT DISTINCT ON (d.subscription_id) d.id FROM webhook_deliveries d
             WHERE d.subscription_id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))
               AND d.status = 'pending' AND d.next_attempt_at <= now()
             ORDER BY d.subscription_id, d.created_at, d.id
           )
           UPDATE webhook_deliveries d
           SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => $2), claim_token = gen_random_uuid()
           FROM pick, webhook_subscriptions s
           WHERE d.id = pick.id AND s.id = d.subscription_id
           RETURNING d.id, d.subscription_id, d.body, d.attempts, d.claim_token, s.url, s.secret_encrypted, true AS probe`,
          [JSON.stringify(subs.map((x) => x.id)), leaseSeconds],
        );
        await q.query(
          `UPDATE webhook_subscriptions SET probe_at = now() + make_interval(secs => $2)
           WHERE id IN (SELECT value::uuid FROM jsonb_array_elements_text($1::jsonb))`,
          [JSON.stringify(rows.map((r) => r.subscription_id)), leaseSeconds],
        );
        return rows;
      });
      if (probes.length >= limit) return probes;
      const healthy = await db.query<ClaimedDelivery>(
        `WITH due AS (
           SELECT d.id FROM webhook_deliveries d
           JOIN webhook_subscriptions s ON s.id = d.subscription_id
           WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND s.is_active AND s.probe_at IS NULL
           ORDER BY d.next_attempt_at
           LIMIT $1
           FOR UPDATE OF d SKIP LOCKED
         )
         UPDATE webhook_deliveries d
         SET attempts = d.attempts + 1,
             next_attempt_at = now() + make_interval(secs => $2),
             claim_token = gen_random_uuid()
         FROM due, webhook_subscriptions s
         WHERE d.id = due.id AND s.id = d.subscription_id
         RETURNING d.id, d.subscription_id, d.body, d.attempts, d.claim_token, s.url, s.secret_encrypted, false AS probe`,
        [limit - probes.length, leaseSeconds],
      );
      return [...probes, ...healthy];
    },

    /**
     * Records successful attempts, many in one statement (one round trip however many finished together).
     * Returns the ids whose claim was still held (a lost claim had its lease expire and be re-claimed).
     */
    async recordSuccesses(items: { d: ClaimedDelivery; o: AttemptOutcome }[]): Promise<Set<string>> {
      if (items.length === 0) return new Set();
      const rows = await db.query<{ id: string }>(
        `WITH m AS (
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS m(id uuid, token uuid, attempt int, status_code int, duration_ms int)
         ), d AS (
           UPDATE webhook_deliveries w
           SET status = 'delivered', delivered_at = now(), claim_token = NULL, last_status_code = m.status_code, last_error = NULL
           FROM m WHERE w.id = m.id AND w.claim_token = m.token
           RETURNING w.id, w.subscription_id
         ), s AS (
           UPDATE webhook_subscriptions x SET consecutive_failures = 0, probe_at = NULL, last_delivery_at = now()
           WHERE x.id IN (SELECT subscription_id FROM d) RETURNING x.id
         ), a AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, succeeded)
           SELECT m.id, m.attempt, m.status_code, m.duration_ms, NULL, true FROM m
           WHERE EXISTS (SELECT 1 FROM webhook_deliveries w WHERE w.id = m.id)
             -- recorded already: this is the same outcome written again after a cut that hid its commit
             AND NOT EXISTS (SELECT 1 FROM webhook_attempts x WHERE x.delivery_id = m.id AND x.attempt = m.attempt)
           RETURNING id
         )
         SELECT id FROM d`,
        [
          JSON.stringify(
            items.map(({ d, o }) => ({
              id: d.id,
              token: d.claim_token,
              attempt: d.attempts,
              status_code: o.statusCode,
              duration_ms: o.durationMs,
            })),
          ),
        ],
      );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Records a failed attempt: the row is due again after `retryInSeconds`, or `failed` when its schedule is
     * exhausted (null). The endpoint's failures are counted in order: the first failure of a healthy endpoint
     * and each failed probe count one and set the next probe time (`probeDelay(failures)`); failures of
     * deliveries that were already in flight when the endpoint started failing are the same outage seen in
     * parallel and count nothing. At `maxFailures` the subscription turns inactive and keeps its pending rows.
     */
    async recordFailure(
      d: ClaimedDelivery,
      o: AttemptOutcome,
      retryInSeconds: number | null,
      maxFailures: number,
      probeDelay: (failures: number) => number,
    ) {
      return db.tx(async (q) => {
        await insertAttempt(q, d, o, false);
        const won = await q.query(
          `UPDATE webhook_deliveries
           SET status = CASE WHEN $3::float8 IS NULL THEN 'failed' ELSE 'pending' END,
               next_attempt_at = CASE WHEN $3::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $3::float8) END,
               claim_token = NULL, last_status_code = $4, last_error = $5
           WHERE id = $1 AND claim_token = $2 RETURNING id`,
          [d.id, d.claim_token, retryInSeconds, o.statusCode, o.error],
        );
        if (won.length === 0) return null;
        const [cur] = await q.query<{ is_active: boolean; consecutive_failures: number; failing: boolean }>(
          'SELECT is_active, consecutive_failures, probe_at IS NOT NULL AS failing FROM webhook_subscriptions WHERE id = $1 FOR UPDATE',
          [d.subscription_id],
        );
        if (!cur) return null;
        if (cur.failing && !d.probe) return { ...cur, counted: false };
        const failures = cur.consecutive_failures + 1;
        const [sub] = await q.query<{ is_active: boolean; consecutive_failures: number }>(
          `UPDATE webhook_subscriptions
           SET consecutive_failures = $2::int,
               probe_at = now() + make_interval(secs => $4::float8),
               is_active = is_active AND $2::int < $3::int,
               deactivated_at = CASE WHEN is_active AND $2::int >= $3::int THEN now() ELSE deactivated_at END
           WHERE id = $1 RETURNING is_active, consecutive_failures`,
          [d.subscription_id, failures, maxFailures, probeDelay(failures)],
        );
        return sub ? { ...sub, counted: true } : null;
      });
    },

    /** Gives a claimed row back untouched (shutdown mid-delivery): due at once, attempt not counted. */
    async release(d: ClaimedDelivery): Promise<void> {
      const rows = await db.query(
        `UPDATE webhook_deliveries SET claim_token = NULL, attempts = greatest(attempts - 1, 0), next_attempt_at = now()
         WHERE id = $1 AND claim_token = $2 RETURNING id`,
        [d.id, d.claim_token],
      );
      // A probe handed back: the endpoint may be probed again at once (by the next instance).
      if (d.probe && rows.length > 0)
        await db.query('UPDATE webhook_subscriptions SET probe_at = now() WHERE id = $1 AND probe_at IS NOT NULL', [d.subscription_id]);
    },

    /** Seconds until the next pending row of an active subscription is due (null: none). */
    async secondsUntilNextDue(): Promise<number | null> {
      const [r] = await db.query<{ s: number | null }>(
        `SELECT extract(epoch FROM (min(greatest(d.next_attempt_at, coalesce(s.probe_at, d.next_attempt_at))) - now()))::float8 AS s
         FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
         WHERE d.status = 'pending' AND s.is_active`,
      );
      return r?.s ?? null;
    },

    /** Drops finished rows (and their attempts) older than the retention. */
    async purge(retentionDays: number): Promise<number> {
      const rows = await db.query(
        `DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND created_at < now() - make_interval(days => $1) RETURNING id`,
        [retentionDays],
      );
      return rows.length;
    },
  };
}

async function insertAttempt(q: Queryable, d: ClaimedDelivery, o: AttemptOutcome, succeeded: boolean) {
  // The row may be gone (subscription deleted mid-delivery): then there is nothing to record against. An attempt
  // already recorded is not recorded twice (the outcome written again after a cut connection hid its commit).
  await q.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, succeeded)
     SELECT $1, $2, $3, $4, $5, $6 WHERE EXISTS (SELECT 1 FROM webhook_deliveries WHERE id = $1)
       AND NOT EXISTS (SELECT 1 FROM webhook_attempts WHERE delivery_id = $1 AND attempt = $2)`,
    [d.id, d.attempts, o.statusCode, o.durationMs, o.error, succeeded],
  );
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
