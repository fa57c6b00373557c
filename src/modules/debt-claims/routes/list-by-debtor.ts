// GET /debt-claims/debtor/{address}: the claims against a wallet and what it owes.
import type { App } from '../../../platform/http/types.js';
import type { DebtClaimsService } from '../service.js';
import { AddressParams, DebtorListing, ListQuery } from '../schemas.js';
import { SANDBOX, TAGS, debtorListing } from './shared.js';

export function listByDebtor(s: App, svc: DebtClaimsService): void {
  s.get(
    '/debt-claims/debtor/:address',
    {
      config: { auth: 'public', sandbox: true },
      schema: {
        operationId: 'debtClaims.listByDebtor',
        tags: TAGS,
        summary: 'Claims against a debtor',
        description:
          "Claims against the wallet, newest first, paged with `limit` (1-100, default 50) and `cursor` (the previous page's `nextCursor`). " +
          '`totalOutstandingDebt` is the exact sum of Pending and Disputed amounts over all claims (not just this page) when they share one currency, 0 when none are outstanding, ' +
          'and null when they span several currencies; `outstandingByCurrency` always gives the sum per currency. `claimCount` counts every claim in every status. An address with no claims gives an empty listing, not 404.' +
          SANDBOX,
        params: AddressParams,
        querystring: ListQuery,
        response: { 200: DebtorListing },
      },
    },
    async (req) => debtorListing(await svc.list('debtor', req.params.address, req.query.limit ?? 50, req.query.cursor)) as never,
  );
}
