// API keys: creation (tier rule from decisions.md), listing, revocation, rotation with a grace period, optional
// expiry, last use (written behind), resolution for the auth hook, and usage.
import type { AppContext } from '../../platform/context.js';
import { badRequest, forbidden, invalidState, notFound } from '../../platform/errors.js';
import { generateApiKey, hashApiKey, type ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import type { JwtUser } from '../../platform/auth/jwt.js';
import { toChecksum } from '../../platform/http/address.js';
import { dayOf, monthOf } from '../../platform/rate-limit/quota.js';
import { writeAudit } from '../../platform/audit.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../platform/http/pagination.js';
import { limitsOf, tierOf, type Tier } from './tiers.js';
import type { ApiKeyRow, BillingRepo } from './repo.js';

const PREFIX_LENGTH = 14;
/** How long a rotated-out secret keeps working unless the caller asks for another grace period. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 3600;
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

/** The principal of a key row, as seen through one of its secrets (the previous one ends with its grace period). */
export function principalOf(row: ApiKeyRow, viaPreviousSecret = false): ApiKeyPrincipal {
  const l = limitsOf(row.tier);
  const test = row.environment === 'test';
  const ends = [row.expires_at?.getTime(), viaPreviousSecret ? row.previous_key_expires_at?.getTime() : undefined].filter(
    (t): t is number => t != null,
  );
  return {
    keyId: row.id,
    ownerAddress: row.owner_address,
    tier: tierOf(row.tier),
    rateLimit: l.rateLimit,
    monthlyLimit: test ? null : l.monthlyQueryLimit,
    environment: test ? 'test' : 'live',
    expiresAt: ends.length ? Math.min(...ends) : null,
  };
}

/** What GET /billing/api-keys shows of a key: never its hash, never the key itself. */
export function describeKey(row: ApiKeyRow) {
  const l = limitsOf(row.tier);
  const now = Date.now();
  const status = row.revoked_at ? 'revoked' : row.expires_at && row.expires_at.getTime() <= now ? 'expired' : 'active';
  return {
    id: row.id,
    keyPrefix: row.key_prefix,
    environment: row.environment,
    tier: tierOf(row.tier),
    rateLimit: l.rateLimit,
    monthlyQueryLimit: row.environment === 'test' ? null : l.monthlyQueryLimit,
    organizationName: row.organization_name,
    status: status as 'active' | 'revoked' | 'expired',
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    rotatedAt: row.rotated_at,
    previousKeyExpiresAt: row.previous_key_expires_at && row.previous_key_expires_at.getTime() > now ? row.previous_key_expires_at : null,
    subscription: row.stripe_subscription_id
      ? { id: row.stripe_subscription_id, status: row.subscription_status, cancelAtPeriodEnd: row.cancel_at_period_end }
      : null,
  };
}

export interface CreateKeyInput {
  organizationName: string;
  contactEmail: string;
  tier?: Tier;
  environment?: 'live' | 'test';
  expiresAt?: string | Date;
}

export function createKeyService(ctx: Pick<AppContext, 'db' | 'quota' | 'apiKeys'>, repo: BillingRepo) {
  /** A key the signed-in wallet may manage: its own, or any key for an admin. 404 rather than 403 for others' keys. */
  async function ownKey(user: JwtUser, id: string): Promise<ApiKeyRow> {
    const row = await repo.keyById(id);
    if (!row || (row.owner_address !== user.address.toLowerCase() && !user.roles.includes('admin')))
      throw notFound('No API key with this id belongs to the signed-in wallet.');
    return row;
  }

  function forget(row: ApiKeyRow) {
    ctx.apiKeys.invalidate(row.key_hash);
    if (row.previous_key_hash) ctx.apiKeys.invalidate(row.previous_key_hash);
  }

  return {
    async create(user: JwtUser, input: CreateKeyInput) {
      const tier = input.tier ?? 'Free';
      const environment = input.environment ?? 'live';
      const admin = user.roles.includes('admin');
      if (tier !== 'Free' && !admin) {
        throw forbidden(
          `Only administrators can create ${tier} keys. Create a Free key, then upgrade it with POST /api/v1/billing/checkout.`,
        );
      }
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now())
        throw badRequest('expiresAt must be in the future.', [{ field: 'expiresAt', message: 'must be in the future' }]);
      const apiKey = generateApiKey(40, environment);
      const row = await ctx.db.tx(async (q) => {
        const r = await repo.insertKey(
          {
            hash: hashApiKey(apiKey),
            prefix: apiKey.slice(0, PREFIX_LENGTH),
            tier,
            owner: user.address,
            org: input.organizationName,
            email: input.contactEmail,
            environment,
            expiresAt,
          },
          q,
        );
        if (admin && tier !== 'Free') {
          await writeAudit(q, { actor: user.sub, action: 'api_key.create', target: `api_key:${r.id}`, details: { tier, environment } });
        }
        return r;
      });
      const l = limitsOf(tier);
      return {
        id: row.id,
        apiKey,
        keyPrefix: row.key_prefix,
        environment,
        tier,
        rateLimit: l.rateLimit,
        monthlyQueryLimit: environment === 'test' ? null : l.monthlyQueryLimit,
        ownerAddress: toChecksum(row.owner_address),
        organizationName: row.organization_name,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        note:
          'Store this API key now: it is shown only once. Credence keeps only a hash of it. Send it in the X-API-Key header.' +
          (environment === 'test' ? ' This is a test key: it reads deterministic sandbox scores and counts against no quota.' : ''),
      };
    },

    async list(user: JwtUser, { limit = 100, cursor }: { limit?: number; cursor?: string } = {}) {
      const before = cursor ? decodeCursor('api_keys', cursor, [CREATED_KEY, UUID]) : null;
      const page = cutPage(await repo.keysPage(user.address.toLowerCase(), limit + 1, before), limit, 'api_keys', (r) => [
        r.created_key,
        r.id,
      ]);
      return { count: page.items.length, keys: page.items.map(describeKey), nextCursor: page.nextCursor, hasMore: page.hasMore };
    },

    /** Revoked at once on every instance: the key caches evict the hashes through the event bus. */
    async revoke(user: JwtUser, id: string) {
      const row = await ownKey(user, id);
      if (row.revoked_at) return;
      await ctx.db.tx(async (q) => {
        await repo.revoke(id, q);
        await writeAudit(q, { actor: user.sub, action: 'api_key.revoke', target: `api_key:${id}`, details: { owner: row.owner_address } });
      });
      forget(row);
    },

    async rotate(user: JwtUser, id: string, graceSeconds = DEFAULT_ROTATION_GRACE_SECONDS) {
      const row = await ownKey(user, id);
      if (row.revoked_at) throw invalidState('This API key is revoked; create a new one.');
      if (row.expires_at && row.expires_at.getTime() <= Date.now()) throw invalidState('This API key has expired; create a new one.');
      const apiKey = generateApiKey(40, row.environment);
      const graceUntil = new Date(Date.now() + graceSeconds * 1000);
      await ctx.db.tx(async (q) => {
        await repo.rotate(id, { hash: hashApiKey(apiKey), prefix: apiKey.slice(0, PREFIX_LENGTH), graceUntil }, q);
        await writeAudit(q, { actor: user.sub, action: 'api_key.rotate', target: `api_key:${id}`, details: { graceSeconds } });
      });
      // The old secret's cached principal has no end yet, and a secret rotated out before it now stops at once.
      forget(row);
      const updated = (await repo.keyById(id))!;
      return {
        ...describeKey(updated),
        apiKey,
        previousKeyExpiresAt: graceUntil,
        note: `Store the new API key now: it is shown only once. The previous key keeps working until ${graceUntil.toISOString()}.`,
      };
    },

    async usage(p: ApiKeyPrincipal) {
      const used = await ctx.quota.used(p.keyId);
      const now = new Date();
      return {
        queriesThisMonth: used,
        monthlyLimit: p.monthlyLimit,
        remaining: p.monthlyLimit === null ? null : Math.max(0, p.monthlyLimit - used),
        tier: p.tier as Tier,
        rateLimit: p.rateLimit,
        environment: p.environment ?? 'live',
        periodStart: new Date(`${monthOf(now)}T00:00:00Z`),
        resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
      };
    },

    /** Queries per UTC day over the last `days` days (today last), each with its month's running total. */
    async dailyUsage(p: ApiKeyPrincipal, days: number) {
      const now = new Date();
      const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      const dates = Array.from({ length: days }, (_, i) => dayOf(new Date(today - (days - 1 - i) * 86_400_000)));
      // This instance's counts written first: read beside a flush in flight, the stored rows and the in-memory
      // remainder could miss (or double) the batch being written. What arrives meanwhile is added as pending.
      await ctx.quota.flush();
      // from the 1st of the first day's month, so the first day's running total is whole
      const [rows, used, pending] = await Promise.all([
        repo.dailyUsage(p.keyId, `${dates[0].slice(0, 7)}-01`, dates[dates.length - 1]),
        ctx.quota.used(p.keyId),
        ctx.quota.pendingOf(p.keyId),
      ]);
      const counts = new Map(rows.map((r) => [r.day, Number(r.query_count)]));
      const todayKey = dates[dates.length - 1];
      // counted here and not written yet belong to today
      counts.set(todayKey, (counts.get(todayKey) ?? 0) + pending);
      let month = '';
      let running = 0;
      const out: { date: string; queries: number; monthToDate: number }[] = [];
      for (let t = Date.parse(`${dates[0].slice(0, 7)}-01T00:00:00Z`); t <= today; t += 86_400_000) {
        const d = dayOf(new Date(t));
        if (d.slice(0, 7) !== month) [month, running] = [d.slice(0, 7), 0];
        const n = Math.max(0, counts.get(d) ?? 0);
        running += n;
        if (d >= dates[0]) out.push({ date: d, queries: n, monthToDate: running });
      }
      return {
        days: out,
        monthlyLimit: p.monthlyLimit,
        queriesThisMonth: used,
        tier: p.tier as Tier,
        environment: p.environment ?? 'live',
      };
    },
  };
}

/** Last use per key, kept in memory on the hot path and written in one statement every few seconds and at close. */
export function createKeyUseRecorder(repo: BillingRepo, log: { warn(o: object, m: string): void }, everyMs = 5_000) {
  let used = new Map<string, number>();
  async function flush() {
    if (used.size === 0) return;
    const batch = used;
    used = new Map();
    try {
      await repo.touch(new Map([...batch].map(([k, t]) => [k, new Date(t)])));
    } catch (err) {
      log.warn({ err }, 'could not record API key use; will retry');
      for (const [k, t] of batch) if (!used.has(k)) used.set(k, t);
    }
  }
  const timer = setInterval(() => void flush(), everyMs);
  timer.unref();
  return {
    touch(keyId: string) {
      used.set(keyId, Date.now());
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
