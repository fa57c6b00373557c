// GET /debt-claims/creditor/{address}: the claims a wallet filed.
import type { App } from '../../../platform/http/types.js';
import type { DebtClaimsService } from '../service.js';
import { AddressParams, CreditorListing, ListQuery } from '../schemas.js';
import { SANDBOX, TAGS, creditorListing } from './shared.js';

export function listByCreditor(s: App, svc: DebtClaimsService): void {
  s.get(
    '/debt-claims/creditor/:address',
    {
      config: { auth: 'public', sandbox: true },
      schema: {
        operationId: 'debtClaims.listByCreditor',
        tags: TAGS,
        summary: 'Claims filed by a creditor',
        description:
          'Claims the wallet filed, newest first, paged with `limit` (1-100, default 50) and `cursor`. `claimCount` counts every claim in every status.' +
          SANDBOX,
        params: AddressParams,
        querystring: ListQuery,
        response: { 200: CreditorListing },
      },
    },
    async (req) => creditorListing(await svc.list('creditor', req.params.address, req.query.limit ?? 50, req.query.cursor)) as never,
  );
}
