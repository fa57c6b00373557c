// POST /dispute/{id}/escalate: escalates a dispute to on-chain governance.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { Dispute, EscalateBody, IdParams } from '../schemas.js';
import { LIFECYCLE, OWNER_ONLY, TAGS, disputeWallet, toDispute, type DisputeRouteDeps } from './shared.js';

export function escalateDispute(s: App, { svc }: DisputeRouteDeps): void {
  s.post(
    '/dispute/:id/escalate',
    {
      config: { auth: 'apiKey', sandbox: true, owner: disputeWallet(svc) },
      schema: {
        operationId: 'disputes.escalateDispute',
        tags: TAGS,
        summary: 'Escalate a dispute to on-chain governance',
        description:
          'When the off-chain resolution is unsatisfactory: moves the dispute to Escalated from every state except Withdrawn and Escalated (those give 409) ' +
          'and records the reason. When the oracle contract is configured (CREDENCE_ORACLE_ADDRESS and a signer), the escalation is submitted to it ' +
          'for governance-role holders to review, and `escalation.txHash` holds the transaction; a failed submission is retried in the background ' +
          `(escalation.onChainStatus failed/pending). Without an oracle, onChainStatus is not_configured. Returns the updated dispute. ${LIFECYCLE}${OWNER_ONLY}`,
        params: IdParams,
        body: EscalateBody,
        response: { 200: Dispute, ...errorResponses(409) },
      },
    },
    async (req) => toDispute(await svc.escalate(req.params.id, req.body.reason, req.apiKey, req.user?.address)) as never,
  );
}
