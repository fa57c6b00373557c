// Temporary webhooks for `credence webhooks listen` (their deliveries go down a stream: relay.ts) and sandbox
// events for `credence trigger`: a test key makes a sandbox score change and its test webhooks and listeners
// receive a real, signed `score.updated` through the outbox. Test events go only to the calling test key's
// webhooks (environment 'test'), never to a live one.
import type { Db } from '../../platform/db/types.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import { forbidden, notFound } from '../../platform/errors.js';
import type { Cipher } from '../../platform/secrets.js';
import { SCORE_UPDATED, sandboxScores, tierFor, type Category } from '../scoring/index.js';
import { webhookBody } from './outbox.js';
import { generateSecret } from './signing.js';
import { WEBHOOK_LIMITS, type Caller } from './service.js';
import type { SubscriptionRepo, SubscriptionRow } from './repo.js';
import { RELAY_SCHEME, newRelayToken, relayToken, relayUrl, type Relay } from './relay.js';

/** Listeners one key may have open at once. */
export const MAX_LISTENERS = 5;

export function createListenService(deps: {
  db: Db;
  repo: SubscriptionRepo;
  cipher: Cipher;
  relay: Relay;
  wake: () => void;
  /** tells the hub's test connections of this key (SANDBOX_SCORE_UPDATED), never live ones */
  announce?: (e: { address: string; category: Category; oldScore: number; newScore: number; keyId: string }) => void;
}) {
  const { db, repo } = deps;
  return {
    /** A temporary webhook whose deliveries go to the listener's stream; delete it when the stream closes. */
    async open(caller: Caller, walletAddress: string | undefined): Promise<{ row: SubscriptionRow; secret: string; token: string }> {
      // Test keys of every tier may listen (the sandbox is where integrations are built); live keys need webhooks in their tier.
      if (currentEnvironment() === 'live' && !(WEBHOOK_LIMITS[caller.tier] ?? 0)) {
        throw forbidden(
          `Webhooks are not available on the ${caller.tier} tier; listen with a test key (cred_test_...) or upgrade to Starter or above.`,
        );
      }
      const token = newRelayToken();
      const secret = generateSecret();
      const row = await repo.tx(async (q) => {
        await repo.lockKey(q, caller.keyId);
        const [{ n }] = await q.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM webhook_subscriptions WHERE api_key_id = $1 AND url LIKE $2`,
          [caller.keyId, `${RELAY_SCHEME}%`],
        );
        if (n >= MAX_LISTENERS) throw forbidden(`This key has ${n} listeners open; at most ${MAX_LISTENERS} at once (close one).`);
        const inserted = await repo.insert(
          {
            apiKeyId: caller.keyId,
            url: relayUrl(token),
            filter: walletAddress?.toLowerCase() ?? null,
            secretEncrypted: deps.cipher.encrypt(secret),
          },
          q,
        );
        await q.query('UPDATE webhook_subscriptions SET listener_seen_at = now() WHERE id = $1', [inserted.id]);
        return inserted;
      });
      return { row, secret, token };
    },

    close: (caller: Caller, id: string) => repo.deleteForKey(id, caller.keyId),

    /** The listener's acknowledgement of a delivery: the local receiver's status is the attempt's outcome. */
    async ack(caller: Caller, id: string, a: { deliveryId: string; statusCode: number | null; error?: string }) {
      const sub = await repo.getForKey(id, caller.keyId);
      const token = sub && relayToken(sub.url);
      if (!token) throw notFound(`No listener ${id} for this API key.`);
      deps.relay.ack({ token, deliveryId: a.deliveryId, statusCode: a.statusCode, error: a.error ?? null });
    },

    /** A sandbox score change of `address`, announced to the calling test key's matching webhooks and listeners. */
    async triggerScoreUpdated(caller: Caller, address: string, category: Category) {
      if (currentEnvironment() !== 'test')
        throw forbidden('Triggering events is for test keys (cred_test_...) only: live events come from real score changes.');
      const entry = sandboxScores(address).find((e) => e.category === category)!;
      const oldScore = entry.score;
      // a visible change, within the scale
      const step = 10 + Math.floor(Math.random() * 50);
      const newScore = oldScore + step <= 1000 ? oldScore + step : oldScore - step;
      const body = webhookBody({
        address,
        category,
        oldScore,
        newScore,
        confidence: entry.confidence,
        tier: tierFor(newScore),
        calculatedAt: new Date(),
        modelVersion: entry.modelVersion,
        cause: 'sandbox_trigger',
      });
      const rows = await db.query<{ id: string }>(
        `INSERT INTO webhook_deliveries (subscription_id, wallet_address, category, body, event_type)
         SELECT s.id, $2, $3, $4, 'score.updated' FROM webhook_subscriptions s
          WHERE s.api_key_id = $1 AND s.environment = 'test' AND s.is_active
            AND (s.wallet_address_filter IS NULL OR s.wallet_address_filter = $2)
         RETURNING id`,
        [caller.keyId, address.toLowerCase(), category, body],
      );
      if (rows.length) deps.wake();
      deps.announce?.({ address: address.toLowerCase(), category, oldScore, newScore, keyId: caller.keyId });
      return { event: SCORE_UPDATED, address, category, oldScore, newScore, deliveryIds: rows.map((r) => r.id) };
    },
  };
}

export type ListenService = ReturnType<typeof createListenService>;

/** How often an instance says its listeners are alive, and when a listener nobody vouches for is removed. */
export const LISTENER_TOUCH_MS = 60_000;
export const LISTENER_STALE_SECONDS = 300;

/** The listeners whose streams this instance holds are still there. */
export async function touchListeners(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.query('UPDATE webhook_subscriptions SET listener_seen_at = now() WHERE id = ANY($1::uuid[])', [ids]);
}

/** Removes temporary webhooks whose stream no instance has vouched for lately (their instance died); their ids. */
export async function sweepListeners(db: Db, staleSeconds = LISTENER_STALE_SECONDS): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM webhook_subscriptions
      WHERE url LIKE $1 AND (listener_seen_at IS NULL OR listener_seen_at < now() - make_interval(secs => $2))
      RETURNING id`,
    [`${RELAY_SCHEME}%`, staleSeconds],
  );
  return rows.map((r) => r.id);
}
