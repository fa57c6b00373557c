// API keys: creation (tier rule from decisions.md), resolution for the auth hook, usage.
import type { AppContext } from '../../platform/context.js';
import { forbidden } from '../../platform/errors.js';
import { generateApiKey, hashApiKey, type ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import type { JwtUser } from '../../platform/auth/jwt.js';
import { toChecksum } from '../../platform/http/address.js';
import { monthOf } from '../../platform/rate-limit/quota.js';
import { writeAudit } from '../../platform/audit.js';
import { limitsOf, type Tier } from './tiers.js';
import type { ApiKeyRow, BillingRepo } from './repo.js';

export function principalOf(row: ApiKeyRow): ApiKeyPrincipal {
  const l = limitsOf(row.tier);
  return { keyId: row.id, ownerAddress: row.owner_address, tier: row.tier, rateLimit: l.rateLimit, monthlyLimit: l.monthlyQueryLimit };
}

export function createKeyService(ctx: Pick<AppContext, 'db' | 'quota'>, repo: BillingRepo) {
  return {
    async create(user: JwtUser, input: { organizationName: string; contactEmail: string; tier?: Tier }) {
      const tier = input.tier ?? 'Free';
      const admin = user.roles.includes('admin');
      if (tier !== 'Free' && !admin) {
        throw forbidden(`Only administrators can create ${tier} keys. Create a Free key, then upgrade it with POST /api/v1/billing/checkout.`);
      }
      const apiKey = generateApiKey();
      const row = await ctx.db.tx(async (q) => {
        const r = await repo.insertKey(
          { hash: hashApiKey(apiKey), prefix: apiKey.slice(0, 14), tier, owner: user.address, org: input.organizationName, email: input.contactEmail },
          q,
        );
        if (admin && tier !== 'Free') {
          await writeAudit(q, { actor: user.sub, action: 'api_key.create', target: `api_key:${r.id}`, details: { tier } });
        }
        return r;
      });
      const l = limitsOf(tier);
      return {
        id: row.id,
        apiKey,
        keyPrefix: row.key_prefix,
        tier,
        rateLimit: l.rateLimit,
        monthlyQueryLimit: l.monthlyQueryLimit,
        ownerAddress: toChecksum(row.owner_address),
        organizationName: row.organization_name,
        createdAt: row.created_at,
        note: 'Store this API key now: it is shown only once. Credence keeps only a hash of it. Send it in the X-API-Key header.',
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
        periodStart: new Date(`${monthOf(now)}T00:00:00Z`),
        resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
      };
    },
  };
}
