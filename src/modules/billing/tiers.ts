// The tier table (service-spec "Limits"): per-second rate, monthly queries (null = unlimited), webhooks, price.
export const TIERS = ['Free', 'Starter', 'Growth', 'Enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export interface TierLimits {
  rateLimit: number;
  monthlyQueryLimit: number | null;
  maxWebhooks: number;
  /** USD per month; null = contact sales */
  priceUsd: number | null;
}

export const TIER_LIMITS: Record<Tier, TierLimits> = {
  Free: { rateLimit: 10, monthlyQueryLimit: 100, maxWebhooks: 0, priceUsd: 0 },
  Starter: { rateLimit: 100, monthlyQueryLimit: 10_000, maxWebhooks: 3, priceUsd: 49 },
  Growth: { rateLimit: 500, monthlyQueryLimit: 100_000, maxWebhooks: 10, priceUsd: 199 },
  Enterprise: { rateLimit: 2_000, monthlyQueryLimit: null, maxWebhooks: 50, priceUsd: null },
};

/** Plans sold through checkout (planId on the wire -> tier). */
export const PLANS = { starter: 'Starter', growth: 'Growth' } as const satisfies Record<string, Tier>;
export type PlanId = keyof typeof PLANS;

export const limitsOf = (tier: string): TierLimits => TIER_LIMITS[tier as Tier] ?? TIER_LIMITS.Free;

/** A stored tier as one of the four; anything else (a retired tier name, never written now) reads as Free rather than failing. */
export const tierOf = (tier: string): Tier => ((TIERS as readonly string[]).includes(tier) ? (tier as Tier) : 'Free');
