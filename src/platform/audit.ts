// Audit trail of administrative and security-relevant actions: who did what to which record, and when.
import type { Queryable } from './db/types.js';

export interface AuditEntry {
  actor: string;
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

export async function writeAudit(q: Queryable, e: AuditEntry): Promise<void> {
  await q.query('INSERT INTO audit_log (actor, action, target, details) VALUES ($1, $2, $3, $4)', [
    e.actor,
    e.action,
    e.target,
    JSON.stringify(e.details ?? {}),
  ]);
}
