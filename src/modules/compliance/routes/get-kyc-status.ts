// GET /compliance/kyc/{did}/status: the DID's KYC status, from its newest session.
import type { App } from '../../../platform/http/types.js';
import { DidParams, KycStatus } from '../schemas.js';
import { didWallet, tags, type ComplianceRouteDeps } from './shared.js';

export function getKycStatus(s: App, { kyc }: ComplianceRouteDeps): void {
  s.get<{ Params: { did: string } }>(
    '/compliance/kyc/:did/status',
    {
      config: { auth: 'apiKey', cost: 1, owner: didWallet },
      schema: {
        operationId: 'compliance.getKycStatus',
        tags,
        summary: "A DID's KYC status",
        description:
          'From the newest session: `pending` (awaiting the person), `approved` (with `kycLevel` basic or full) or `rejected` ' +
          '(`reason` says why; a session that expired unfinished is reported rejected with reason `expired`). 404 when the DID is ' +
          'unknown or never started a session. Counts 1 query. ' +
          "The DID's wallet may also read it with its session alone (Authorization: Bearer, no API key, no quota); another wallet's session gets 403.",
        params: DidParams,
        response: { 200: KycStatus },
      },
    },
    async (req) => kyc.status(req.params.did),
  );
}
