// SQL for disputes and their status history. Status changes are conditional updates so concurrent
// requests cannot both move one dispute.
import type { Queryable } from '../../platform/db/types.js';
import { createdKeySql } from '../../platform/http/pagination.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import type { DisputeStatus } from './schemas.js';

export interface DisputeRow {
  id: string;
  wallet_address: string;
  category: string;
  reason: string;
  status: DisputeStatus;
  description: string;
  evidence: string | null;
  resolution_notes: string | null;
  resolved_by: string | null;
  revised_score: number | null;
  submitted_by_key: string | null;
  submitted_by_owner: string | null;
  escalation_reason: string | null;
  escalated_at: Date | null;
  escalation_chain_status: 'not_configured' | 'pending' | 'submitting' | 'submitted' | 'failed' | null;
  escalation_tx_hash: string | null;
  escalation_attempts: number;
  created_at: Date;
  updated_at: Date;
}

export interface HistoryRow {
  from_status: DisputeStatus | null;
  to_status: DisputeStatus;
  actor: string;
  note: string | null;
  created_at: Date;
}

export interface QueueFilter {
  statuses: DisputeStatus[] | null;
  category: string | null;
  wallet: string | null;
}

const QUEUE_WHERE =
  'environment = $1 AND ($2::text[] IS NULL OR status = ANY($2::text[])) AND ($3::text IS NULL OR category = $3) AND ($4::text IS NULL OR wallet_address = $4)';
const queueParams = (f: QueueFilter) => [currentEnvironment(), f.statuses, f.category, f.wallet];

export function createDisputesRepo(db: Queryable) {
  return {
    async insert(
      d: {
        walletAddress: string;
        category: string;
        reason: string;
        description: string;
        evidence: string | null;
        keyId: string | null;
        keyOwner: string | null;
      },
      q: Queryable = db,
    ): Promise<DisputeRow> {
      const [row] = await q.query<DisputeRow>(
        `INSERT INTO disputes (wallet_address, category, reason, description, evidence, submitted_by_key, submitted_by_owner, environment)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`,
        [d.walletAddress, d.category, d.reason, d.description, d.evidence, d.keyId, d.keyOwner, currentEnvironment()],
      );
      return row;
    },

    async get(id: string, q: Queryable = db): Promise<DisputeRow | null> {
      // live and test disputes never see each other: a dispute of the other environment does not exist here
      return (
        (await q.query<DisputeRow>('SELECT * FROM disputes WHERE id = $1 AND environment = $2', [id, currentEnvironment()]))[0] ?? null
      );
    },

    /** Newest first; `page.before` is the [created key, id] of the last dispute of the previous page. */
    async byWallet(
      address: string,
      page: { limit: number; before: string[] | null } | null = null,
      q: Queryable = db,
    ): Promise<(DisputeRow & { created_key: string })[]> {
      return q.query<DisputeRow & { created_key: string }>(
        `SELECT *, ${createdKeySql()} AS created_key FROM disputes
          WHERE wallet_address = $1 AND environment = $5 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
          ORDER BY created_at DESC, id DESC LIMIT $4`,
        [address, page?.before?.[0] ?? null, page?.before?.[1] ?? null, page?.limit ?? null, currentEnvironment()],
      );
    },

    async countByWallet(address: string, q: Queryable = db): Promise<number> {
      const [r] = await q.query<{ n: number | string }>(
        'SELECT count(*)::int AS n FROM disputes WHERE wallet_address = $1 AND environment = $2',
        [address, currentEnvironment()],
      );
      return Number(r.n);
    },

    /**
     * The admin queue: every wallet's disputes of this environment, newest first, optionally of some statuses, one
     * category or one wallet; `page.before` is the [created key, id] of the previous page's last dispute.
     */
    async queue(
      f: QueueFilter,
      page: { limit: number; before: string[] | null },
      q: Queryable = db,
    ): Promise<(DisputeRow & { created_key: string })[]> {
      return q.query<DisputeRow & { created_key: string }>(
        `SELECT *, ${createdKeySql()} AS created_key FROM disputes
          WHERE ${QUEUE_WHERE} AND ($5::timestamptz IS NULL OR (created_at, id) < ($5::timestamptz, $6::uuid))
          ORDER BY created_at DESC, id DESC LIMIT $7`,
        [...queueParams(f), page.before?.[0] ?? null, page.before?.[1] ?? null, page.limit],
      );
    },

    async countQueue(f: QueueFilter, q: Queryable = db): Promise<number> {
      const [r] = await q.query<{ n: number | string }>(`SELECT count(*)::int AS n FROM disputes WHERE ${QUEUE_WHERE}`, queueParams(f));
      return Number(r.n);
    },

    async history(id: string, q: Queryable = db): Promise<HistoryRow[]> {
      return q.query<HistoryRow>(
        'SELECT from_status, to_status, actor, note, created_at FROM dispute_history WHERE dispute_id = $1 ORDER BY id',
        [id],
      );
    },

    async recordHistory(
      e: { disputeId: string; from: DisputeStatus | null; to: DisputeStatus; actor: string; note?: string | null },
      q: Queryable = db,
    ) {
      await q.query('INSERT INTO dispute_history (dispute_id, from_status, to_status, actor, note) VALUES ($1, $2, $3, $4, $5)', [
        e.disputeId,
        e.from,
        e.to,
        e.actor,
        e.note ?? null,
      ]);
    },

    /** The admin's update: any status; the optional fields overwrite only when given. */
    async setStatus(
      id: string,
      s: { status: DisputeStatus; resolutionNotes?: string; resolvedBy?: string; revisedScore?: number },
      q: Queryable = db,
    ) {
      return (
        (
          await q.query<DisputeRow>(
            `UPDATE disputes SET status = $2,
             resolution_notes = COALESCE($3, resolution_notes),
             resolved_by = COALESCE($4, resolved_by),
             revised_score = COALESCE($5, revised_score),
             updated_at = clock_timestamp()
           WHERE id = $1 AND environment = $6 RETURNING *`,
            [id, s.status, s.resolutionNotes ?? null, s.resolvedBy ?? null, s.revisedScore ?? null, currentEnvironment()],
          )
        )[0] ?? null
      );
    },

    /** Moves the dispute only when its status is one of `from` (or not one of `notFrom`); null otherwise. */
    async transition(
      id: string,
      cond: { from?: DisputeStatus[]; notFrom?: DisputeStatus[] },
      to: DisputeStatus,
      escalation: { reason: string; chainStatus: 'not_configured' | 'pending' } | null,
      q: Queryable = db,
    ): Promise<DisputeRow | null> {
      const where = cond.from ? 'status = ANY($3::text[])' : 'NOT (status = ANY($3::text[]))';
      const rows = await q.query<DisputeRow>(
        `UPDATE disputes SET status = $2, updated_at = clock_timestamp(),
           escalation_reason = COALESCE($4, escalation_reason),
           escalated_at = CASE WHEN $4::text IS NULL THEN escalated_at ELSE clock_timestamp() END,
           escalation_chain_status = COALESCE($5, escalation_chain_status)
         WHERE id = $1 AND environment = $6 AND ${where} RETURNING *`,
        [id, to, cond.from ?? cond.notFrom ?? [], escalation?.reason ?? null, escalation?.chainStatus ?? null, currentEnvironment()],
      );
      return rows[0] ?? null;
    },

    async setChainResult(
      id: string,
      r: { status: 'submitted' | 'failed' | 'submitting'; txHash?: string; error?: string },
      q: Queryable = db,
    ) {
      await q.query(
        `UPDATE disputes SET escalation_chain_status = $2, escalation_tx_hash = COALESCE($3, escalation_tx_hash), escalation_error = $4,
           escalation_attempts = escalation_attempts + CASE WHEN $2 = 'submitting' THEN 1 ELSE 0 END, updated_at = clock_timestamp()
         WHERE id = $1`,
        [id, r.status, r.txHash ?? null, r.error ?? null],
      );
    },

    /**
     * Claims one escalation whose on-chain submission is due for a retry (failed, or pending/submitting and
     * abandoned by a crashed process), so that several worker instances never submit the same one at once.
     */
    async claimRetry(maxAttempts: number, staleSeconds: number, q: Queryable = db): Promise<DisputeRow | null> {
      const rows = await q.query<DisputeRow>(
        `UPDATE disputes SET escalation_chain_status = 'submitting', escalation_attempts = escalation_attempts + 1, updated_at = clock_timestamp()
         WHERE id = (
           SELECT id FROM disputes
           WHERE escalation_chain_status IN ('pending', 'failed', 'submitting') AND escalation_attempts < $1 AND environment = 'live'
             AND updated_at < clock_timestamp() - make_interval(secs => $2)
           ORDER BY escalated_at LIMIT 1 FOR UPDATE SKIP LOCKED
         ) RETURNING *`,
        [maxAttempts, staleSeconds],
      );
      return rows[0] ?? null;
    },
  };
}

export type DisputesRepo = ReturnType<typeof createDisputesRepo>;
