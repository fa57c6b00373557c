// POST /debt-claims/{id}/resolve: an admin settles a claim for the creditor or the debtor.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import type { DebtClaimsService } from '../service.js';
import { IdParams, ResolveClaimBody, ResolveClaimResponse } from '../schemas.js';
import { SANDBOX, TAGS } from './shared.js';

export function resolveClaim(s: App, svc: DebtClaimsService): void {
  s.post(
    '/debt-claims/:id/resolve',
    {
      config: { auth: 'admin', sandbox: true },
      schema: {
        operationId: 'debtClaims.resolveClaim',
        tags: TAGS,
        summary: 'Admin resolves a claim',
        description:
          'Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin). Disputed -> Resolved, and also Pending -> Resolved directly ' +
          '(an admin may settle an undisputed claim). Resolved or Withdrawn claims: 409. `inFavorOf` (default creditor) drives the score: ' +
          "creditor = the debt is confirmed, a significant negative impact on the debtor's DEFI_LENDING score; debtor = the claim's negative impact is removed. " +
          'resolvedAt and updatedAt are set; the action is written to the audit log.' +
          SANDBOX,
        params: IdParams,
        body: ResolveClaimBody,
        response: { 200: ResolveClaimResponse, ...errorResponses(409) },
      },
    },
    async (req) => {
      const r = await svc.resolve(req.params.id, req.body, req.user!);
      return {
        id: r.id,
        status: 'Resolved',
        resolutionNotes: r.resolution_notes,
        inFavorOf: r.in_favor_of,
        resolvedAt: r.resolved_at,
        updatedAt: r.updated_at,
      } as never;
    },
  );
}
