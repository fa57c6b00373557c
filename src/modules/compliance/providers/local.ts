// The built-in provider used when no real provider is configured: the session URL is a verification page served
// by Credence itself (see local-page.ts), and its result reaches the same signed callback route a real provider
// would use, signed with HMAC-SHA256 (`X-Credence-Kyc-Signature: sha256=<hex>` over the raw body).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../../platform/errors.js';
import { parseBirthDate, type KycProvider, type KycProviderName, type KycResult } from './types.js';

export const LOCAL_SIGNATURE_HEADER = 'x-credence-kyc-signature';

export interface LocalCallbackBody {
  eventId: string;
  sessionId: string;
  status: 'approved' | 'rejected';
  level?: 'basic' | 'full';
  /** yyyy-mm-dd */
  birthDate?: string;
  reason?: string;
}

export function signLocal(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

export interface LocalProvider extends KycProvider {
  /** Signs a callback body exactly as it will be sent. */
  sign(rawBody: string): string;
}

export function createLocalProvider(name: KycProviderName, secret: string, publicUrl: () => string): LocalProvider {
  return {
    name,
    kind: 'local',
    async createSession({ sessionId }) {
      return { providerSessionId: sessionId, url: `${publicUrl().replace(/\/+$/, '')}/api/v1/compliance/kyc/local/${sessionId}` };
    },
    sign: (rawBody) => signLocal(secret, rawBody),
    verifySignature(rawBody, headers) {
      const got = headers[LOCAL_SIGNATURE_HEADER];
      if (typeof got !== 'string') return false;
      const want = Buffer.from(signLocal(secret, rawBody));
      const have = Buffer.from(got.trim());
      return have.length === want.length && timingSafeEqual(have, want);
    },
    parseResult(body): KycResult {
      const b = (body ?? {}) as Partial<Record<keyof LocalCallbackBody, unknown>>;
      const fields: { field: string; message: string }[] = [];
      if (typeof b.eventId !== 'string' || b.eventId.length < 1 || b.eventId.length > 200)
        fields.push({ field: 'eventId', message: 'is required (1-200 characters)' });
      if (typeof b.sessionId !== 'string' || b.sessionId.length < 1 || b.sessionId.length > 200)
        fields.push({ field: 'sessionId', message: 'is required (1-200 characters)' });
      if (b.status !== 'approved' && b.status !== 'rejected')
        fields.push({ field: 'status', message: 'must be one of: approved, rejected' });
      if (b.level !== undefined && b.level !== 'basic' && b.level !== 'full')
        fields.push({ field: 'level', message: 'must be one of: basic, full' });
      const birthDate = b.birthDate === undefined || b.birthDate === null ? null : parseBirthDate(b.birthDate);
      if (b.birthDate !== undefined && b.birthDate !== null && birthDate === null)
        fields.push({ field: 'birthDate', message: 'must be a date yyyy-mm-dd between 1900-01-01 and today' });
      if (fields.length) throw badRequest(`Invalid callback: ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}.`, fields);
      return {
        eventId: b.eventId as string,
        providerSessionId: b.sessionId as string,
        outcome: b.status as 'approved' | 'rejected',
        level: (b.level as 'basic' | 'full' | undefined) ?? 'basic',
        birthDate,
        reason: typeof b.reason === 'string' ? b.reason.slice(0, 500) : null,
      };
    },
  };
}
