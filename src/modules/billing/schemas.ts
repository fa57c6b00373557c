import { Type } from '@sinclair/typebox';
import { EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { TIERS } from './tiers.js';
import { pageFields, pageQuery } from '../../platform/http/pagination.js';

export const TierSchema = Type.Union(
  TIERS.map((t) => Type.Literal(t)),
  { description: 'API key tier' },
);

export const CreateKeyBody = Type.Object({
  organizationName: Type.String({ minLength: 2, maxLength: 200, examples: ['Acme Lending'] }),
  contactEmail: Type.String({ format: 'email', maxLength: 320, examples: ['ops@acme.example'] }),
  tier: Type.Optional(
    Type.Union(
      TIERS.map((t) => Type.Literal(t)),
      { default: 'Free', description: 'Free unless the caller is an admin' },
    ),
  ),
  environment: Type.Optional(
    Type.Union([Type.Literal('live'), Type.Literal('test')], {
      default: 'live',
      description: 'live (cred_live_...) or test (cred_test_...: deterministic sandbox scores, counts against no quota)',
    }),
  ),
  expiresAt: Type.Optional(
    Timestamp({
      description: 'optional expiry (ISO 8601, in the future); the key stops working then',
      examples: ['2030-01-01T00:00:00.000Z'],
    }),
  ),
});

const Environment = Type.Union([Type.Literal('live'), Type.Literal('test')]);

export const CreateKeyResponse = Type.Object({
  id: Uuid(),
  apiKey: Type.String({ description: 'the key itself (cred_live_...): shown only in this response' }),
  keyPrefix: Type.String({ description: 'first characters of the key, to recognise it later' }),
  tier: TierSchema,
  rateLimit: Type.Integer({ description: 'requests per second' }),
  monthlyQueryLimit: Nullable(Type.Integer({ description: 'queries per calendar month (UTC); null = unlimited' })),
  ownerAddress: Type.String({ description: 'wallet that created the key (checksummed)' }),
  organizationName: Type.String(),
  environment: Environment,
  createdAt: Timestamp(),
  expiresAt: Nullable(Timestamp()),
  note: Type.String(),
});

export const SubscriptionInfo = Nullable(
  Type.Object(
    {
      id: Type.String({ description: 'payment processor subscription id' }),
      status: Nullable(Type.String({ description: 'as the payment processor reports it (active, past_due, ...)' })),
      cancelAtPeriodEnd: Type.Boolean(),
    },
    { description: "the key's one subscription; null for keys without a paid plan" },
  ),
);

export const ApiKeyInfo = Type.Object(
  {
    id: Uuid(),
    keyPrefix: Type.String({ description: 'first characters of the current key' }),
    environment: Environment,
    tier: TierSchema,
    rateLimit: Type.Integer({ description: 'requests per second' }),
    monthlyQueryLimit: Nullable(Type.Integer({ description: 'null = unlimited (Enterprise, test keys)' })),
    organizationName: Type.String(),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('expired')]),
    createdAt: Timestamp(),
    lastUsedAt: Nullable(Timestamp({ description: 'last authenticated request (recorded within a few seconds)' })),
    expiresAt: Nullable(Timestamp()),
    revokedAt: Nullable(Timestamp()),
    rotatedAt: Nullable(Timestamp()),
    previousKeyExpiresAt: Nullable(Timestamp({ description: 'after a rotation: until when the previous key still works' })),
    subscription: SubscriptionInfo,
  },
  { title: 'ApiKey', description: 'An API key as its owner sees it: never the key itself' },
);

export const ApiKeyList = Type.Object({
  count: Type.Integer({ description: 'keys in this page' }),
  keys: Type.Array(ApiKeyInfo),
  ...pageFields(),
});
export const ApiKeyListQuery = Type.Object(pageQuery(100, 100));

export const KeyIdParams = Type.Object({ id: Uuid({ description: 'API key id' }) });

export const RotateKeyBody = Type.Object({
  gracePeriodSeconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 604_800,
      default: 86_400,
      description: 'how long the previous key keeps working (0 to 7 days; default 24 h)',
    }),
  ),
});

export const RotateKeyResponse = Type.Intersect([
  ApiKeyInfo,
  Type.Object({ apiKey: Type.String({ description: 'the new key: shown only in this response' }), note: Type.String() }),
]);

export const PlanBody = Type.Object({
  planId: Type.Union([Type.Literal('starter'), Type.Literal('growth')], { description: 'the plan to move this key to' }),
});

export const CancelBody = Type.Object({
  atPeriodEnd: Type.Optional(
    Type.Boolean({
      default: true,
      description: 'true: the plan runs to the end of the paid period (Stripe); false: ends now and the key becomes Free',
    }),
  ),
});

export const PlanResponse = Type.Object({
  id: Uuid({ description: 'API key id' }),
  changed: Type.Optional(Type.Boolean({ description: 'false when the key was already on that plan' })),
  tier: TierSchema,
  rateLimit: Type.Integer(),
  monthlyQueryLimit: Nullable(Type.Integer()),
  subscription: SubscriptionInfo,
  provider: Type.Union([Type.Literal('stripe'), Type.Literal('local')]),
});

export const UsageResponse = Type.Object(
  {
    queriesThisMonth: Type.Integer(),
    monthlyLimit: Nullable(Type.Integer({ description: 'null for Enterprise (unlimited)' })),
    remaining: Nullable(Type.Integer({ description: 'null for Enterprise (unlimited)' })),
    tier: TierSchema,
    rateLimit: Type.Integer({ description: 'requests per second' }),
    environment: Environment,
    periodStart: Timestamp({ description: 'start of the current quota month (00:00 UTC on the 1st)' }),
    resetsAt: Timestamp({ description: 'when the quota resets (00:00 UTC on the 1st of next month)' }),
  },
  { title: 'Usage', description: "This API key's usage in the current UTC calendar month." },
);

export const DailyUsageQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'how many UTC days, ending today (1-90, default 30)' }),
  ),
});

export const UsageDay = Type.Object(
  {
    date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'the UTC day (YYYY-MM-DD)', examples: ['2026-11-27'] }),
    queries: Type.Integer({ minimum: 0, description: 'queries counted that day' }),
    monthToDate: Type.Integer({
      minimum: 0,
      description: "queries counted from the 1st of that day's month to the end of that day (what the monthly quota compares)",
    }),
  },
  { title: 'UsageDay' },
);

export const DailyUsageResponse = Type.Object(
  {
    days: Type.Array(UsageDay, { description: 'one entry per UTC day, oldest first, today last; days without queries are 0' }),
    monthlyLimit: Nullable(Type.Integer({ description: "the plan's monthly quota; null for Enterprise (unlimited)" })),
    queriesThisMonth: Type.Integer(),
    tier: TierSchema,
    environment: Environment,
  },
  { title: 'DailyUsage', description: "This API key's queries per UTC day, against its plan's monthly quota." },
);

export const CheckoutBody = Type.Object({
  planId: Type.Union([Type.Literal('starter'), Type.Literal('growth')], { description: 'starter (Starter tier) or growth (Growth tier)' }),
  walletAddress: Type.Optional(EthAddress({ description: 'optional wallet to associate with the purchase' })),
  successUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' })),
  cancelUrl: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' })),
});

export const CheckoutResponse = Type.Object({
  sessionId: Type.String(),
  url: Type.String({ description: 'send the user here to pay' }),
  provider: Type.Union([Type.Literal('stripe'), Type.Literal('local')]),
});

export const WebhookAck = Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() });

export const LocalSessionParams = Type.Object({ sessionId: Type.String({ maxLength: 100 }) });

/** The local checkout's confirm token (issued to the session's creator in the checkout url). */
export const ConfirmQuery = Type.Object({
  token: Type.Optional(Type.String({ maxLength: 200, description: 'confirm token from the checkout url' })),
});

export const ConfirmLocalResponse = Type.Object({ completed: Type.Boolean(), redirectTo: Type.String() });

export const CheckoutDoneQuery = Type.Object({
  session_id: Type.Optional(Type.String({ maxLength: 200 })),
  cancelled: Type.Optional(Type.String({ maxLength: 10 })),
});

export const StripeSignatureHeaders = Type.Object({ 'stripe-signature': Type.Optional(Type.String()) });
