// POST /debt-claims/{id}/withdraw: the creditor withdraws a Pending claim.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import type { DebtClaimsService } from '../service.js';
import { IdParams, WithdrawClaimBody, WithdrawClaimResponse } from '../schemas.js';
import { OWNERSHIP, TAGS } from './shared.js';

export function withdrawClaim(s: App, svc: DebtClaimsService): void {
  s.post(
    '/debt-claims/:id/withdraw',
    {
      config: { auth: 'optionalJwt', sandbox: true },
      schema: {
        operationId: 'debtClaims.withdrawClaim',
        tags: TAGS,
        summary: 'Creditor withdraws a claim',
        description:
          "Pending -> Withdrawn, by the creditor only: `creditorAddress` must be the claim's creditor (else 403). Any other state (Disputed, Resolved, Withdrawn): 409. " +
          "resolvedAt and updatedAt are set. A withdrawn claim has no score impact but stays on record: withdrawing and re-filing does not reset the debtor's history. " +
          OWNERSHIP,
        params: IdParams,
        body: WithdrawClaimBody,
        response: { 200: WithdrawClaimResponse, ...errorResponses(403, 409) },
      },
    },
    async (req) => {
      const r = await svc.withdraw(req.params.id, req.body, { ip: req.ip, user: req.user });
      return { id: r.id, status: 'Withdrawn', updatedAt: r.updated_at, resolvedAt: r.resolved_at } as never;
    },
  );
}
