// POST /debt-claims/{id}/dispute: the debtor disputes a Pending claim.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import type { DebtClaimsService } from '../service.js';
import { DisputeClaimBody, DisputeClaimResponse, IdParams } from '../schemas.js';
import { OWNERSHIP, TAGS } from './shared.js';

export function disputeClaim(s: App, svc: DebtClaimsService): void {
  s.post(
    '/debt-claims/:id/dispute',
    {
      config: { auth: 'optionalJwt', sandbox: true },
      schema: {
        operationId: 'debtClaims.disputeClaim',
        tags: TAGS,
        summary: 'Debtor disputes a claim',
        description:
          "Pending -> Disputed, by the debtor only: `debtorAddress` must be the claim's debtor (else 403). Any other state: 409. " +
          `The reason is stored as resolutionNotes; updatedAt is set. While Disputed the claim's score impact is paused; disputed within the notice period ` +
          `(verification.noticeEndsAt) the claim never counts unless an admin resolves it for the creditor. ${OWNERSHIP}`,
        params: IdParams,
        body: DisputeClaimBody,
        response: { 200: DisputeClaimResponse, ...errorResponses(403, 409) },
      },
    },
    async (req) => {
      const r = await svc.dispute(req.params.id, req.body, { ip: req.ip, user: req.user });
      return { id: r.id, status: 'Disputed', resolutionNotes: r.resolution_notes, updatedAt: r.updated_at } as never;
    },
  );
}
