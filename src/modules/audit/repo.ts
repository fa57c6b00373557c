// SQL for reading the audit log (platform/audit.ts writes it): newest first by id, filtered.
import type { Queryable } from '../../platform/db/types.js';

export interface AuditRow {
  id: string;
  actor: string;
  action: string;
  target: string;
  details: Record<string, unknown>;
  created_at: Date;
}

export interface AuditFilter {
  action: string | null;
  actor: string | null;
  target: string | null;
  since: Date | null;
  until: Date | null;
}

export function createAuditRepo(db: Queryable) {
  return {
    /** One page, newest first; `beforeId` is the id of the previous page's last entry. */
    async page(f: AuditFilter, limit: number, beforeId: string | null, q: Queryable = db): Promise<AuditRow[]> {
      return q.query<AuditRow>(
        `SELECT id::text AS id, actor, action, target, details, created_at FROM audit_log
          WHERE ($1::text IS NULL OR action = $1) AND ($2::text IS NULL OR lower(actor) = lower($2)) AND ($3::text IS NULL OR target = $3)
            AND ($4::timestamptz IS NULL OR created_at >= $4) AND ($5::timestamptz IS NULL OR created_at < $5)
            AND ($6::bigint IS NULL OR id < $6::bigint)
          ORDER BY id DESC LIMIT $7`,
        [f.action, f.actor, f.target, f.since, f.until, beforeId, limit],
      );
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
