// POST /compliance/age-verify: an age check against a jurisdiction's legal age (or a given minimum).
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { toChecksum } from '../../../platform/http/address.js';
import { snarkjsForm } from '../../proofs/contracts.js';
import { AgeVerifyBody, AgeVerifyResponse } from '../schemas.js';
import { AGE_PRIVACY, SANDBOX_AGE, checkAge, tags, type ComplianceRouteDeps } from './shared.js';

export function ageVerifyForJurisdiction(s: App, deps: ComplianceRouteDeps): void {
  s.post<{ Body: AgeVerifyBody }>(
    '/compliance/age-verify',
    {
      config: { auth: 'apiKey', cost: 1, sandbox: true },
      schema: {
        operationId: 'compliance.ageVerifyForJurisdiction',
        tags,
        summary: 'Age check against a jurisdiction',
        description:
          'Like verify-age; without `minimumAge` the legal age of `jurisdictionCode` (ISO 3166-2 country-region, e.g. US-CA) applies: ' +
          '21 in US states, 18 elsewhere, unless CREDENCE_LEGAL_AGES configures the region or country. Counts 1 query.' +
          AGE_PRIVACY +
          SANDBOX_AGE,
        body: AgeVerifyBody,
        response: { 200: AgeVerifyResponse, ...errorResponses(403, 503) },
      },
    },
    async (req) => {
      const jurisdictionCode = req.body.jurisdictionCode.toUpperCase();
      const minimumAge = req.body.minimumAge ?? deps.age.legalAge(jurisdictionCode);
      const r = await checkAge(deps, req, req.body.walletAddress, minimumAge, 'age-verify');
      return {
        walletAddress: toChecksum(req.body.walletAddress),
        jurisdictionCode,
        minimumAge,
        verified: r.verified,
        proof: r.proof,
        publicInputs: r.publicInputs,
        reason: r.reason,
        snarkjs: snarkjsForm(r.proof),
        environment: req.environment ?? 'live',
      };
    },
  );
}
