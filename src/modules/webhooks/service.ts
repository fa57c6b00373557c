// Webhook subscriptions of an API key: tier limits, target checks (SSRF rule), secret generation (stored
// encrypted, shown once), and the delivery history.
import { fieldError, forbidden, notFound } from '../../platform/errors.js';
import type { Cipher } from '../../platform/secrets.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import { ForbiddenTargetError, checkTarget } from './ssrf.js';
import { generateSecret } from './signing.js';
import type { AttemptRow, DeliveryRow, SubscriptionRepo, SubscriptionRow } from './repo.js';

/** Max webhooks per key by tier (spec, Limits); tiers not listed get none. */
export const WEBHOOK_LIMITS: Record<string, number> = { Free: 0, Starter: 3, Growth: 10, Enterprise: 50 };
/**
 * Test webhooks per test key of any tier: the sandbox is where integrations are built, so every test key
 * gets what docs/events.md promises (test webhooks, listen, trigger); a paid tier's own allowance applies when larger.
 */
export const SANDBOX_WEBHOOKS = 3;

/** How many webhooks a key may register: its tier's, or for a test key at least the sandbox allowance. */
export const webhookLimitOf = (tier: string, environment: 'live' | 'test'): number =>
  environment === 'test' ? Math.max(WEBHOOK_LIMITS[tier] ?? 0, SANDBOX_WEBHOOKS) : (WEBHOOK_LIMITS[tier] ?? 0);

export interface Caller {
  keyId: string;
  tier: string;
}

export interface DeliveryView {
  row: DeliveryRow;
  attempts: AttemptRow[];
}

export function createWebhookService(deps: {
  repo: SubscriptionRepo;
  cipher: Cipher;
  allowPrivate: boolean;
  /** hints the delivery workers (every instance) that rows are due now */
  wake: () => void;
}) {
  const { repo, cipher } = deps;

  async function validateTarget(raw: string): Promise<string> {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw fieldError('url', 'must be an absolute http or https URL');
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw fieldError('url', 'must use http or https');
    if (!u.hostname) throw fieldError('url', 'must name a host');
    if (!deps.allowPrivate) {
      try {
        await checkTarget(u);
      } catch (e) {
        // on a developer machine the receiver is local: say the two ways to reach it
        if (e instanceof ForbiddenTargetError) {
          throw fieldError(
            'url',
            `is not allowed: ${e.message}. To receive deliveries on this machine, run \`credence webhooks listen --forward-to ${raw}\` (no public URL needed), ` +
              'or, on a development server, set CREDENCE_WEBHOOK_ALLOW_PRIVATE=true to allow private and loopback targets',
          );
        }
        throw e;
      }
    }
    return raw;
  }

  async function owned(caller: Caller, id: string): Promise<SubscriptionRow> {
    const row = await repo.getForKey(id, caller.keyId);
    if (!row) throw notFound(`No webhook ${id} for this API key.`);
    return row;
  }

  return {
    async create(caller: Caller, input: { url: string; walletAddress?: string; walletAddressFilter?: string }) {
      const environment = currentEnvironment();
      const max = webhookLimitOf(caller.tier, environment);
      if (max === 0)
        throw forbidden(
          `Webhooks are not available on the ${caller.tier} tier; upgrade to Starter or above (POST /api/v1/billing/checkout).`,
        );
      const a = input.walletAddress?.toLowerCase();
      const b = input.walletAddressFilter?.toLowerCase();
      if (a && b && a !== b) throw fieldError('walletAddressFilter', 'must equal walletAddress when both are given');
      const filter = a ?? b ?? null;
      const url = await validateTarget(input.url);
      const secret = generateSecret();
      const row = await repo.tx(async (q) => {
        await repo.lockKey(q, caller.keyId);
        const n = await repo.countForKey(caller.keyId, q);
        if (n >= max) {
          throw forbidden(
            environment === 'test'
              ? `A test key may register at most ${max} test webhooks and this key has ${n}; delete one.`
              : `The ${caller.tier} tier allows at most ${max} webhooks per API key and this key has ${n}; delete one or upgrade.`,
          );
        }
        return repo.insert({ apiKeyId: caller.keyId, url, filter, secretEncrypted: cipher.encrypt(secret) }, q);
      });
      return { row, secret };
    },

    list: (caller: Caller, page: { limit: number; after: string[] | null } | null = null) => repo.listForKey(caller.keyId, page),

    get: owned,

    async remove(caller: Caller, id: string) {
      if (!(await repo.deleteForKey(id, caller.keyId))) throw notFound(`No webhook ${id} for this API key.`);
    },

    /** Re-activates an inactive webhook; its kept deliveries go out at once (in order, probing first if it fails again). */
    async enable(caller: Caller, id: string): Promise<SubscriptionRow> {
      const row = await repo.enable(id, caller.keyId);
      if (!row) throw notFound(`No webhook ${id} for this API key.`);
      deps.wake();
      return row;
    },

    async replay(caller: Caller, id: string, since: Date): Promise<{ requeued: number; since: Date }> {
      const sub = await owned(caller, id);
      if (since.getTime() > Date.now()) throw fieldError('since', 'must not be in the future');
      const requeued = await repo.replay(sub.id, since);
      if (requeued > 0) deps.wake();
      return { requeued, since };
    },

    /** Queues a signed `webhook.test` event to the webhook (also to an inactive one: it is sent once it is enabled). */
    async test(caller: Caller, id: string): Promise<DeliveryRow> {
      const sub = await owned(caller, id);
      const body = JSON.stringify({
        event: 'webhook.test',
        timestamp: new Date().toISOString(),
        data: { webhookId: sub.id, url: sub.url },
      });
      const row = await repo.enqueueTest(sub.id, body);
      deps.wake();
      return row;
    },

    async deliveries(
      caller: Caller,
      id: string,
      limit: number,
      before: string[] | null = null,
    ): Promise<(DeliveryView & { row: { created_key: string } })[]> {
      const sub = await owned(caller, id);
      const rows = await repo.recentDeliveries(sub.id, limit, before);
      const attempts = await repo.attemptsOf(rows.map((r) => r.id));
      return rows.map((row) => ({ row, attempts: attempts.filter((a) => a.delivery_id === row.id) }));
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
