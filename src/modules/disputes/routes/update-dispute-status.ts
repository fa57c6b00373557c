// PUT /dispute/{id}/status: an admin moves a dispute to any status (a Resolved revisedScore replaces the score).
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { DisputeWithHistory, IdParams, UpdateStatusBody } from '../schemas.js';
import { TAGS, withHistory, type DisputeRouteDeps } from './shared.js';

export function updateDisputeStatus(s: App, { svc }: DisputeRouteDeps): void {
  s.put(
    '/dispute/:id/status',
    {
      config: { auth: 'admin', sandbox: true },
      schema: {
        operationId: 'disputes.updateDisputeStatus',
        tags: TAGS,
        summary: 'Admin sets a dispute status',
        description:
          'Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin; no API key needed). Moves the dispute to any status, from any status. ' +
          "`resolutionNotes`, `resolvedBy` and `revisedScore` are stored when given. A `revisedScore` sent with status Resolved replaces the wallet's score " +
          'in the disputed category through the scoring service (OVERALL follows), with an audit record of who changed what, and emits a score change ' +
          "(webhooks, hub); 503 when the scoring service is unavailable (nothing is changed then). Each change is added to the dispute's history. " +
          'Returns the updated dispute with its history.',
        params: IdParams,
        body: UpdateStatusBody,
        response: { 200: DisputeWithHistory, ...errorResponses(503) },
      },
    },
    async (req) => (await withHistory(svc, await svc.updateStatus(req.params.id, req.body, req.user!))) as never,
  );
}
