// A hosted identity-verification provider over HTTP, speaking the widespread session + decision-webhook protocol
// (Veriff's public API has exactly this shape): the service creates a session and sends the person to its URL;
// the provider posts its decision, signed with HMAC-SHA256 of the raw body under a shared secret.
//   create:   POST {apiUrl}/v1/sessions  X-AUTH-CLIENT: <apiKey>
//             {verification: {callback, vendorData: <Credence session id>, timestamp}}
//          -> {status: "success", verification: {id, url}}
//   decision: POST /api/v1/compliance/kyc/callback/{provider}  X-HMAC-SIGNATURE: <hex>
//             {status: "success", verification: {id, attemptId?, status, reason?, vendorData, person: {dateOfBirth}}}
import { createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest, upstream } from '../../../platform/errors.js';
import type { KycProviderSettings } from '../../../platform/config.js';
import { parseBirthDate, type KycProvider, type KycProviderName, type KycResult } from './types.js';

export const HOSTED_SIGNATURE_HEADER = 'x-hmac-signature';

/** Decision statuses and what they mean for the session; anything else is acknowledged and changes nothing. */
const OUTCOMES: Record<string, 'approved' | 'rejected'> = {
  approved: 'approved',
  declined: 'rejected',
  expired: 'rejected',
  abandoned: 'rejected',
};

export function createHostedProvider(name: KycProviderName, s: KycProviderSettings, timeoutMs = 10_000): KycProvider {
  const base = s.apiUrl.replace(/\/+$/, '');
  return {
    name,
    kind: 'hosted',
    async createSession(req) {
      let res: Response;
      try {
        res = await fetch(`${base}/v1/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-auth-client': s.apiKey },
          body: JSON.stringify({
            verification: { callback: req.callbackUrl, vendorData: req.sessionId, timestamp: new Date().toISOString() },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (e) {
        throw upstream(`The KYC provider ${name} could not be reached (${(e as Error).message}).`);
      }
      const body = (await res.json().catch(() => null)) as { verification?: { id?: unknown; url?: unknown } } | null;
      const v = body?.verification;
      if (!res.ok || typeof v?.id !== 'string' || typeof v.url !== 'string') {
        throw upstream(`The KYC provider ${name} did not create a session (status ${res.status}).`);
      }
      return { providerSessionId: v.id, url: v.url };
    },
    verifySignature(rawBody, headers) {
      const got = headers[HOSTED_SIGNATURE_HEADER];
      if (typeof got !== 'string' || !/^[0-9a-fA-F]{64}$/.test(got.trim())) return false;
      const want = createHmac('sha256', s.webhookSecret).update(rawBody).digest();
      return timingSafeEqual(Buffer.from(got.trim(), 'hex'), want);
    },
    parseResult(body): KycResult {
      const v = (body as { verification?: Record<string, unknown> } | null)?.verification;
      if (!v || typeof v.id !== 'string' || typeof v.status !== 'string') {
        throw badRequest('Invalid decision: verification.id and verification.status are required.', [
          { field: 'verification', message: 'must carry id and status' },
        ]);
      }
      const person = (v.person ?? {}) as { dateOfBirth?: unknown };
      const outcome = OUTCOMES[v.status] ?? 'pending';
      const birthDate = outcome === 'approved' && person.dateOfBirth != null ? parseBirthDate(person.dateOfBirth) : null;
      if (outcome === 'approved' && person.dateOfBirth != null && birthDate === null) {
        throw badRequest('Invalid decision: person.dateOfBirth must be yyyy-mm-dd.', [
          { field: 'verification.person.dateOfBirth', message: 'must be a date yyyy-mm-dd' },
        ]);
      }
      return {
        eventId: `${v.id}:${typeof v.attemptId === 'string' ? v.attemptId : ''}:${v.status}`,
        providerSessionId: v.id,
        outcome,
        // A hosted provider checks a document and the person's face: the full level.
        level: 'full',
        birthDate,
        reason: outcome === 'rejected' ? (typeof v.reason === 'string' ? v.reason.slice(0, 500) : v.status) : null,
      };
    },
  };
}
