// POST /compliance/kyc/{did}/revoke: an administrator revokes a wallet's approved KYC and what was made from it.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { DidParams, RevokedKyc, RevokeKycBody } from '../schemas.js';
import { tags, type ComplianceRouteDeps } from './shared.js';

export function revokeKyc(s: App, { kyc }: ComplianceRouteDeps): void {
  s.post<{ Params: { did: string }; Body: RevokeKycBody }>(
    '/compliance/kyc/:did/revoke',
    {
      config: { auth: 'jwt' },
      schema: {
        operationId: 'compliance.revokeKyc',
        tags,
        summary: "Revoke a wallet's KYC",
        description:
          'Administrators only (403 otherwise). Every approved KYC session of the wallet becomes revoked (its status reads ' +
          '`rejected` with a `revoked by an administrator` reason, and scores treat it as a rejected KYC), the birth date and its commitment are deleted at once (age proofs made from it stop ' +
          'verifying, verify-age and age-verify answer `no_approved_kyc`, no new age or KYCVerified proof can be made), and the KYCVerified ' +
          'and AgeOver credentials the service signed for the wallet are revoked through the status list. 409 when there is no approved KYC. ' +
          'A new KYC session may be started afterwards.',
        params: DidParams,
        body: RevokeKycBody,
        response: { 200: RevokedKyc, ...errorResponses(403, 404, 409) },
      },
    },
    async (req) => kyc.revoke(req.params.did, req.user!, req.body?.reason),
  );
}
