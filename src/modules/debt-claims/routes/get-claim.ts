// GET /debt-claims/{id}: one claim in full.
import type { App } from '../../../platform/http/types.js';
import type { DebtClaimsService } from '../service.js';
import { Claim, IdParams } from '../schemas.js';
import { SANDBOX, STATE_RULES, TAGS, toClaim } from './shared.js';

export function getClaim(s: App, svc: DebtClaimsService): void {
  s.get(
    '/debt-claims/:id',
    {
      config: { auth: 'public', sandbox: true },
      schema: {
        operationId: 'debtClaims.getClaim',
        tags: TAGS,
        summary: 'Get a debt claim',
        description: `The full claim. Unknown id: 404; an id that is not a GUID: 400. ${STATE_RULES}${SANDBOX}`,
        params: IdParams,
        response: { 200: Claim },
      },
    },
    async (req) => toClaim(await svc.get(req.params.id)) as never,
  );
}
