// GET /reputation/{address}/{category}/history: a wallet's score changes in one category, newest first.
import { toChecksum } from '../../../platform/http/address.js';
import { ensNameOf } from '../../../platform/ens.js';
import type { ChangeRow } from '../../scoring/contracts.js';
import { HistoryQuery, HistoryResponse } from '../feed-schemas.js';
import { CategoryParams } from '../schemas.js';
import { OWNER_READS, ownWallet } from '../routes.js';
import { change, position, tags, type FeedRouteDeps, type FeedScope } from './feed-shared.js';

export function getScoreHistory(s: FeedScope, { log }: FeedRouteDeps): void {
  s.get(
    '/reputation/:address/:category/history',
    {
      config: { auth: 'apiKey', cost: 1, owner: ownWallet },
      schema: {
        operationId: 'reputation.getScoreHistory',
        tags,
        summary: "A wallet's score changes in one category, with their causes",
        description:
          'Every stored change of the category score, newest first, with what caused it (ingestion, debt_claim, dispute_revision, kyc, sanctions, ...). ' +
          `Paged with \`limit\` and \`cursor\` (see Pagination; \`before\` is the older name of \`cursor\` here). Counts 1 query.${OWNER_READS}`,
        params: CategoryParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse },
      },
    },
    async (req) => {
      const { address, category } = req.params as { address: string; category: ChangeRow['category'] };
      const q = req.query as { limit: number; cursor?: string; before?: string };
      const page = await log().history(address, category, { limit: q.limit, before: position(q, 'before') });
      const changes = page.changes.map(change);
      const ensName = ensNameOf(req, 'address');
      const nextCursor = page.more ? (changes.at(-1)?.cursor ?? null) : null;
      return {
        address: toChecksum(address),
        ...(ensName ? { ensName } : {}),
        category,
        count: changes.length,
        changes,
        nextCursor,
        hasMore: nextCursor !== null,
      };
    },
  );
}
