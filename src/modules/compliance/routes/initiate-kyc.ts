// POST /compliance/kyc/initiate: starts a KYC session with a provider for the signed-in wallet's DID.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { KYC_PROVIDERS } from '../providers/types.js';
import { InitiateBody, KycSession } from '../schemas.js';
import { tags, type ComplianceRouteDeps } from './shared.js';

export function initiateKyc(s: App, { kyc }: ComplianceRouteDeps): void {
  s.post<{ Body: InitiateBody }>(
    '/compliance/kyc/initiate',
    {
      config: { auth: 'jwt', idempotent: true },
      schema: {
        operationId: 'compliance.initiateKyc',
        tags,
        summary: 'Start a KYC verification session',
        description:
          `The DID must exist (404) and belong to the signed-in wallet (403). \`provider\` is exactly \`${KYC_PROVIDERS[0]}\` (default) or ` +
          `\`${KYC_PROVIDERS[1]}\`; anything else is 400. Send the person to \`redirectUrl\` (also \`sessionUrl\`); the session expires after ` +
          "3600 s. The status becomes pending; the provider's signed callback moves it to approved or rejected. A new session replaces an " +
          'older pending one; a DID whose KYC is approved cannot start another (409).',
        body: InitiateBody,
        response: { 200: KycSession, ...errorResponses(403, 404, 409, 502, 503) },
      },
    },
    async (req) => kyc.initiate(req.body.did, req.body.provider, req.user!.address),
  );
}
