// POST /dispute: disputes a wallet's score in one category.
import type { App } from '../../../platform/http/types.js';
import { CreateDisputeBody, Dispute } from '../schemas.js';
import { LIFECYCLE, OWNER_ONLY, TAGS, toDispute, type DisputeRouteDeps } from './shared.js';

export function createDispute(s: App, { svc }: DisputeRouteDeps): void {
  s.post(
    '/dispute',
    {
      config: {
        auth: 'apiKey',
        sandbox: true,
        idempotent: true,
        owner: (req) => (req.body as { walletAddress: string }).walletAddress,
      },
      schema: {
        operationId: 'disputes.createDispute',
        tags: TAGS,
        summary: 'Dispute a score',
        description:
          "Files a dispute against the wallet's score in one category. The new dispute is Pending. `walletAddress` is the original submitter: " +
          'only that wallet may later withdraw the dispute. The API key that filed it is recorded too. `reason` must be one of the eight DisputeReason values ' +
          `(IncorrectData is not one: 400). ${LIFECYCLE}${OWNER_ONLY}`,
        body: CreateDisputeBody,
        response: { 201: Dispute },
      },
    },
    async (req, reply) => {
      const row = await svc.create(req.body, req.apiKey, req.user?.address);
      return reply
        .code(201)
        .header('Location', `/api/v1/dispute/${row.id}`)
        .send(toDispute(row) as never);
    },
  );
}
