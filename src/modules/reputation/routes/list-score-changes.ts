// GET /reputation/changes: the feed of score changes, oldest first, for pollers.
import { errorResponses } from '../../../platform/openapi.js';
import { forbidden } from '../../../platform/errors.js';
import { encodeCursor } from '../../../platform/http/pagination.js';
import type { ChangeRow } from '../../scoring/contracts.js';
import { FeedQuery, FeedResponse } from '../feed-schemas.js';
import { KIND, change, changesOwner, position, tags, type FeedRouteDeps, type FeedScope } from './feed-shared.js';

export function listScoreChanges(s: FeedScope, { log }: FeedRouteDeps): void {
  s.get(
    '/reputation/changes',
    {
      config: { auth: 'apiKey', cost: 1, owner: changesOwner },
      schema: {
        operationId: 'reputation.listScoreChanges',
        tags,
        summary: 'Feed of score changes, for polling',
        description:
          'Score changes oldest first after `cursor` (the `nextCursor` of your previous call; omit it to start from the beginning; `after` is its older name). ' +
          'Poll with the last `nextCursor`: no change is skipped, even one whose transaction commits late (changes are numbered in commit order). ' +
          '`hasMore: true` means call again at once. Filter by `category` and/or `address`. Without `address` the feed covers every wallet, ' +
          'like an unfiltered webhook, and needs a Starter or higher key (403 for Free keys). Counts 1 query per call. ' +
          'A signed-in wallet follows its own changes with its session alone (Authorization: Bearer, `address` = its wallet, no API key, no quota); ' +
          "another wallet's address, or no address, gets 403 with a session.",
        querystring: FeedQuery,
        response: { 200: FeedResponse, ...errorResponses(403) },
      },
    },
    async (req) => {
      const q = req.query as { cursor?: string; after?: string; limit: number; category?: ChangeRow['category']; address?: string };
      const after = position(q, 'after');
      if (!q.address && req.apiKey?.tier === 'Free') {
        throw forbidden(
          'The feed of every wallet needs a Starter or higher key (as webhooks do); Free keys can follow one wallet with `address`.',
        );
      }
      const page = await log().feed({ after, limit: q.limit, category: q.category, address: q.address });
      const changes = page.changes.map(change);
      // a poller resumes from here even when nothing is new
      const nextCursor = changes.at(-1)?.cursor ?? (after !== null ? encodeCursor(KIND, [after]) : null);
      return { count: changes.length, changes, nextCursor, hasMore: page.more };
    },
  );
}
