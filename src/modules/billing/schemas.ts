import { Type } from '@sinclair/typebox';
import { EthAddress, Nullable, Timestamp, Uuid } from '../../platform/http/schemas.js';
import { TIERS } from './tiers.js';

export const TierSchema = Type.Union(TIERS.map((t) => Type.Literal(t)), { description: 'API key tier' });

export const CreateKeyBody = Type.Object({
  organizationName: Type.String({ minLength: 2, maxLength: 200 }),
  contactEmail: Type.String({ format: 'email', maxLength: 320 }),
  tier: Type.Optional(Type.Union(TIERS.map((t) => Type.Literal(t)), { default: 'Free', description: 'Free unless the caller is an admin' })),
});

export const CreateKeyResponse = Type.Object({
  id: Uuid(),
  apiKey: Type.String({ description: 'the key itself (cred_live_...): shown only in this response' }),
  keyPrefix: Type.String({ description: 'first characters of the key, to recognise it later' }),
  tier: TierSchema,
  rateLimit: Type.Integer({ description: 'requests per second' }),
  monthlyQueryLimit: Nullable(Type.Integer({ description: 'queries per calendar month (UTC); null = unlimited' })),
  ownerAddress: Type.String({ description: 'wallet that created the key (checksummed)' }),
  organizationName: Type.String(),
  createdAt: Timestamp(),
  note: Type.String(),
});

export const UsageResponse = Type.Object({
  queriesThisMonth: Type.Integer(),
  monthlyLimit: Nullable(Type.Integer({ description: 'null for Enterprise (unlimited)' })),
  remaining: Nullable(Type.Integer({ description: 'null for Enterprise (unlimited)' })),
  tier: TierSchema,
  rateLimit: Type.Integer({ description: 'requests per second' }),
  periodStart: Timestamp({ description: 'start of the current quota month (00:00 UTC on the 1st)' }),
  resetsAt: Timestamp({ description: 'when the quota resets (00:00 UTC on the 1st of next month)' }),
});

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
