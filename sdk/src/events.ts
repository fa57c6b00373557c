// Typed events: the bodies Credence POSTs to webhooks, and the hub's ScoreUpdated message. openapi-typescript
// drops OpenAPI callbacks, so these are written here; test/sdk/sdk.test.ts holds them to the live document.
// `webhooks.constructEvent(rawBody, headers, secret)` verifies a delivery and returns the typed event.
import type { components } from './schema.js';
import { verifyWebhook } from './webhooks.js';
import { CredenceError } from './errors.js';
import type { Category } from './enums.js';

type Schemas = components['schemas'];
export type Coverage = Schemas extends { Coverage: infer C } ? C : Record<string, unknown>;

export interface ScoreUpdatedEvent {
  event: 'score.updated';
  /** when the new score was calculated (ISO 8601) */
  timestamp: string;
  data: {
    /** EIP-55 (same as `address`) */
    walletAddress: string;
    address: string;
    category: Category;
    /** null for the wallet's first score (same as `previousScore`) */
    oldScore: number | null;
    previousScore: number | null;
    newScore: number;
    confidence: number;
    tier: string;
    coverage?: Coverage;
  };
}

export interface DebtClaimFiledEvent {
  event: 'debt_claim.filed';
  timestamp: string;
  data: {
    claimId: string;
    debtorAddress: string;
    creditorAddress: string;
    claimType: string;
    amount: string;
    currency: string;
    chainId: number;
    evidenceTransactionHash: string;
    protocolName: string;
    createdAt: string;
    noticeEndsAt: string | null;
    disputeUrl: string;
  };
}

/** POST /webhooks/{id}/test sends this one. */
export interface WebhookTestEvent {
  event: 'webhook.test';
  timestamp: string;
  data: { webhookId: string; url: string };
}

export type CredenceEvent = ScoreUpdatedEvent | DebtClaimFiledEvent | WebhookTestEvent;
export type CredenceEventType = CredenceEvent['event'];
export const EVENT_TYPES: readonly CredenceEventType[] = ['score.updated', 'debt_claim.filed', 'webhook.test'];

/** The hub's (`/hubs/scores`, SignalR) ScoreUpdated message, for `connection.on('ScoreUpdated', (m: HubScoreUpdated) => ...)`. */
export interface HubScoreUpdated {
  address: string;
  category: Category;
  oldScore: number | null;
  newScore: number;
}

/** A delivery that did not verify: the signature, the timestamp or the body is wrong. */
export class WebhookSignatureError extends CredenceError {
  override name = 'WebhookSignatureError';
}

/**
 * Verifies a webhook delivery (both signature schemes, timestamps within `toleranceSeconds`) and returns its typed
 * event; throws WebhookSignatureError otherwise. Pass the raw body exactly as received.
 */
export function constructEvent(
  rawBody: string | Uint8Array,
  headers: Record<string, string | string[] | undefined> | Headers,
  secret: string,
  opts: { toleranceSeconds?: number; now?: number } = {},
): CredenceEvent {
  let h: Record<string, string | string[] | undefined>;
  if (headers instanceof Headers) {
    h = {};
    headers.forEach((v, k) => void (h[k] = v));
  } else h = headers;
  const check = verifyWebhook(rawBody, h, secret, opts);
  if (!check.valid)
    throw new WebhookSignatureError({ code: 'invalid_signature', details: check.reason ?? 'no valid signature', status: 0 });
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (e) {
    throw new WebhookSignatureError({ code: 'invalid_body', details: 'the signed body is not JSON', status: 0, cause: e });
  }
  const e = event as { event?: unknown; data?: unknown };
  if (typeof e.event !== 'string' || typeof e.data !== 'object' || e.data === null) {
    throw new WebhookSignatureError({ code: 'invalid_body', details: 'the signed body is not a Credence event', status: 0 });
  }
  return event as CredenceEvent;
}
