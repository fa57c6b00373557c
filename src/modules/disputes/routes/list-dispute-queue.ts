// GET /disputes: the admin's queue of every wallet's disputes.
import type { App } from '../../../platform/http/types.js';
import { DisputeQueue, DisputeQueueQuery } from '../schemas.js';
import { TAGS, disputeQueue, type DisputeRouteDeps } from './shared.js';

export function listDisputeQueue(s: App, { svc }: DisputeRouteDeps): void {
  s.get(
    '/disputes',
    {
      config: { auth: 'admin', sandbox: true },
      schema: {
        operationId: 'disputes.listDisputeQueue',
        tags: TAGS,
        summary: 'Admin: the disputes queue',
        description:
          "Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin). Every wallet's disputes, newest first, optionally only one `status` " +
          '(`open`: every status still being handled), one `category` or one `walletAddress`; paged with `limit` and `cursor` (see Pagination), `count` ' +
          'is how many match on every page. A test sign-in sees test disputes only. Act on one with PUT /dispute/{id}/status.',
        querystring: DisputeQueueQuery,
        response: { 200: DisputeQueue },
      },
    },
    async (req) => (await disputeQueue(svc, req.query)) as never,
  );
}
