// POST /compliance/verify-age: a proof that a wallet's holder is at least minimumAge.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { VerifyAgeBody, VerifyAgeResponse } from '../schemas.js';
import { AGE_PRIVACY, SANDBOX_AGE, checkAge, tags, type ComplianceRouteDeps } from './shared.js';

export function verifyAge(s: App, deps: ComplianceRouteDeps): void {
  s.post<{ Body: VerifyAgeBody }>(
    '/compliance/verify-age',
    {
      config: { auth: 'apiKey', cost: 1, sandbox: true },
      schema: {
        operationId: 'compliance.verifyAge',
        tags,
        summary: 'Prove a wallet holder is at least minimumAge',
        description:
          'A Groth16 proof over the salted commitment of the KYC-approved birth date. Without an approved KYC, or when the person is ' +
          'younger than minimumAge, the answer is 200 with `verified: false` and `proof: null` (`reason` says which) rather than 422, ' +
          'so a compliance check reads one shape. 503 when the proof service is not ready. Counts 1 query.' +
          AGE_PRIVACY +
          SANDBOX_AGE,
        body: VerifyAgeBody,
        response: { 200: VerifyAgeResponse, ...errorResponses(403, 503) },
      },
    },
    async (req) => {
      const r = await checkAge(deps, req, req.body.walletAddress, req.body.minimumAge, 'verify-age');
      return {
        proof: r.proof,
        minimumAge: req.body.minimumAge,
        verified: r.verified,
        publicInputs: r.publicInputs,
        reason: r.reason,
        environment: req.environment ?? 'live',
      };
    },
  );
}
