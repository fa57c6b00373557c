// POST /dispute/{id}/withdraw: the original submitter withdraws a dispute still being handled.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { IdParams, WithdrawBody } from '../schemas.js';
import { OWNER_ONLY, TAGS, disputeWallet, optionalJwt, type DisputeRouteDeps } from './shared.js';

export function withdrawDispute(s: App, { svc, jwt }: DisputeRouteDeps): void {
  s.post(
    '/dispute/:id/withdraw',
    {
      config: { auth: 'apiKey', sandbox: true, owner: disputeWallet(svc) },
      schema: {
        operationId: 'disputes.withdrawDispute',
        tags: TAGS,
        summary: 'Withdraw a dispute',
        description:
          "Only the original submitter: `walletAddress` must be the dispute's walletAddress (else 403). The caller proves it is that wallet with a JWT " +
          'of the wallet (Authorization: Bearer, subject must match, else 403), or without a JWT by using the API key that filed the dispute or a key ' +
          'owned by the wallet (else 403). CREDENCE_STRICT_OWNERSHIP=true makes the JWT mandatory (401 without). Only from Pending, Under Review or ' +
          `Evidence Requested (else 409). The status becomes Withdrawn; 204 No Content.${OWNER_ONLY}`,
        params: IdParams,
        body: WithdrawBody,
        response: { 204: { type: 'null', description: 'Withdrawn' }, ...errorResponses(403, 409) },
      },
    },
    async (req, reply) => {
      const user = await optionalJwt(jwt, req);
      await svc.withdraw(req.params.id, req.body.walletAddress, { key: req.apiKey, user });
      return reply.code(204).send();
    },
  );
}
