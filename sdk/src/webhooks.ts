// Checks a webhook delivery from Credence. Every delivery carries two signatures over the same raw body:
// `X-Credence-Signature: sha256=<hex HMAC-SHA256(body, secret)>` and Standard Webhooks (`webhook-id`,
// `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256("id.timestamp.body", base64-decoded secret)>`).
// Verify the raw body exactly as received (before any JSON parsing).
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface WebhookCheck {
  valid: boolean;
  /** which scheme(s) verified */
  schemes: ('credence' | 'standard-webhooks')[];
  reason?: string;
}

const SECRET_PREFIX = 'whsec_';

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * @param body the raw request body (string or bytes)
 * @param headers the request headers (any case)
 * @param secret the webhook secret returned when the webhook was created (whsec_...)
 * @param toleranceSeconds Standard Webhooks timestamps older or newer than this are refused (replays)
 */
export function verifyWebhook(
  body: string | Uint8Array,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  { toleranceSeconds = 300, now = Date.now() } = {},
): WebhookCheck {
  const h = (name: string) => {
    const v = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
    return Array.isArray(v) ? v[0] : v;
  };
  const raw = typeof body === 'string' ? Buffer.from(body) : Buffer.from(body);
  const schemes: WebhookCheck['schemes'] = [];
  const reasons: string[] = [];

  const credence = h('x-credence-signature');
  if (credence) {
    const expected = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
    if (equal(credence, expected)) schemes.push('credence');
    else reasons.push('X-Credence-Signature does not match');
  }

  const id = h('webhook-id');
  const ts = h('webhook-timestamp');
  const sig = h('webhook-signature');
  if (id && ts && sig) {
    const t = Number(ts);
    if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > toleranceSeconds) reasons.push('webhook-timestamp outside the tolerance');
    else {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${t}.`).update(raw).digest('base64');
      // the header may list several space-separated signatures (key rotation)
      if (sig.split(' ').some((s) => s.startsWith('v1,') && equal(s.slice(3), expected))) schemes.push('standard-webhooks');
      else reasons.push('webhook-signature does not match');
    }
  }
  if (!credence && !sig) reasons.push('no signature header');
  // Any signature present must verify: one good and one bad signature is a tampered or misrouted delivery.
  const valid = schemes.length > 0 && reasons.length === 0;
  return valid ? { valid, schemes } : { valid, schemes, reason: reasons.join('; ') || 'no valid signature' };
}
