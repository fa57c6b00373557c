// POST /compliance/kyc/callback/{provider}: a KYC provider's signed result.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { CallbackParams, CallbackResponse } from '../schemas.js';
import { tags, type ComplianceRouteDeps } from './shared.js';

export function kycCallback(s: App, { kyc }: ComplianceRouteDeps): void {
  // The callback is verified over the exact bytes received, so this scope keeps the raw body.
  s.register(async (cb) => {
    cb.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      req.rawBody = body as string;
      try {
        done(null, JSON.parse(body as string));
      } catch (e) {
        done(e as Error, undefined);
      }
    });
    cb.post<{ Params: { provider: string } }>(
      '/compliance/kyc/callback/:provider',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'compliance.kycCallback',
          tags,
          summary: 'Result notification from a KYC provider',
          description:
            'Called by the provider (the built-in one signs with `X-Credence-Kyc-Signature: sha256=<HMAC-SHA256 of the raw body>`). ' +
            'A missing or bad signature gets 401 and changes nothing. Replaying a result already recorded is answered 200 with ' +
            '`duplicate: true`; a different result for a finished session, or any result for an expired or superseded session, is 409.',
          params: CallbackParams,
          response: { 200: CallbackResponse, ...errorResponses(401, 409) },
        },
      },
      async (req) => kyc.callback(req.params.provider, req.rawBody ?? '', req.body, req.headers),
    );
  });
}
