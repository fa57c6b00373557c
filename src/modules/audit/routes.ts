// The audit log for administrators: who did what to which record, and when, filtered and paged.
import type { App } from '../../platform/http/types.js';
import { apiRoutes } from '../../platform/http/types.js';
import { BIGINT_ID, cutPage, decodeCursor } from '../../platform/http/pagination.js';
import { fieldError } from '../../platform/errors.js';
import type { AuditRepo, AuditRow } from './repo.js';
import { AuditLog, AuditLogQuery } from './schemas.js';

const toEntry = (r: AuditRow) => ({
  id: r.id,
  actor: r.actor,
  action: r.action,
  target: r.target,
  details: r.details ?? {},
  createdAt: r.created_at,
});

const date = (field: string, v: string | Date | undefined): Date | null => {
  if (v === undefined) return null;
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) throw fieldError(field, 'must be an ISO 8601 date-time');
  return d;
};

export function registerAuditRoutes(app: App, repo: AuditRepo) {
  apiRoutes(app, (s) => {
    s.get(
      '/audit-log',
      {
        config: { auth: 'admin' },
        schema: {
          operationId: 'audit.listAuditLog',
          tags: ['Audit'],
          summary: 'Admin: the audit log',
          description:
            'Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin or a test sign-in). Administrative and security-relevant actions ' +
            '(dispute status changes, revised scores, API key creation, rotation and revocation, plan changes, debt claim decisions), newest first, ' +
            'filtered by exact `action`, `actor` (any letter case) or `target` and a `since`/`until` time range; paged with `limit` and `cursor` (see Pagination).',
          querystring: AuditLogQuery,
          response: { 200: AuditLog },
        },
      },
      async (req) => {
        const { limit = 50, cursor, action, actor, target, since, until } = req.query;
        const before = cursor ? decodeCursor('audit.log', cursor, [BIGINT_ID])[0] : null;
        const filter = {
          action: action ?? null,
          actor: actor ?? null,
          target: target ?? null,
          since: date('since', since),
          until: date('until', until),
        };
        const rows = await repo.page(filter, limit + 1, before);
        const page = cutPage(rows, limit, 'audit.log', (r) => [r.id]);
        return { entries: page.items.map(toEntry), nextCursor: page.nextCursor, hasMore: page.hasMore } as never;
      },
    );
  });
}
