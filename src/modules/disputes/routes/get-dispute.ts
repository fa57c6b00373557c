// GET /dispute/{id}: a dispute with its history.
import type { App } from '../../../platform/http/types.js';
import { DisputeWithHistory, IdParams } from '../schemas.js';
import { LIFECYCLE, OWNER_ONLY, TAGS, disputeWallet, withHistory, type DisputeRouteDeps } from './shared.js';

export function getDispute(s: App, { svc }: DisputeRouteDeps): void {
  s.get(
    '/dispute/:id',
    {
      config: { auth: 'apiKey', sandbox: true, owner: disputeWallet(svc) },
      schema: {
        operationId: 'disputes.getDispute',
        tags: TAGS,
        summary: 'Get a dispute',
        description: `The full dispute with \`history\`: every status change, who made it and when. Unknown id: 404; an id that is not a GUID: 400. ${LIFECYCLE}${OWNER_ONLY}`,
        params: IdParams,
        response: { 200: DisputeWithHistory },
      },
    },
    async (req) => (await withHistory(svc, await svc.get(req.params.id))) as never,
  );
}
