// SQL for debt claims. Transitions are conditional updates (WHERE status IN ...) so two concurrent
// transitions of one claim cannot both succeed. Rows are never deleted. Live and test claims never see each other:
// every request-side query filters by the request's environment (currentEnvironment()); the scoring
// model reads live claims only; the claims worker leases both and runs each job in its claim's environment.
import type { Queryable } from '../../platform/db/types.js';
import { currentEnvironment, type Environment } from '../../platform/auth/environment.js';
import type { ClaimStatus, InFavorOf } from './schemas.js';

export interface ClaimRow {
  id: string;
  creditor_address: string;
  debtor_address: string;
  claim_type: string;
  status: ClaimStatus;
  /** NUMERIC as text: exact */
  amount: string;
  currency: string;
  description: string;
  evidence_transaction_hash: string;
  chain_id: number;
  protocol_name: string;
  resolution_notes: string | null;
  in_favor_of: InFavorOf | null;
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
  creditor_signed_in: boolean;
  evidence_status: 'pending' | 'found' | 'not_found' | 'unverifiable';
  creditor_has_history: boolean | null;
  verified_at: Date | null;
  /** USD the evidence moved from the creditor to the debtor */
  evidence_value_usd: number | null;
  evidence_at: Date | null;
  evidence_problem: string | null;
  creditor_weight: number | null;
  /** the claim counts from then on; null until its first job run (claims filed before migration 0035) */
  notice_ends_at: Date | null;
  /** live, or test for a claim filed with test credentials */
  environment: Environment;
}

/** A claim leased for its background work (evidence check, debtor recompute). */
export interface JobRow extends ClaimRow {
  /** job_due_at as exact text: the job is finished only if no later change set it again */
  job_due_key: string;
  job_attempts: number;
}

export interface NewClaim {
  creditorAddress: string;
  debtorAddress: string;
  claimType: string;
  amount: string;
  currency: string;
  description: string;
  evidenceTransactionHash: string;
  chainId: number;
  protocolName: string;
  createdBy: string | null;
  createdIp: string;
  creditorSignedIn: boolean;
  /** the debtor's notice period */
  noticeHours: number;
}

export interface PageCursor {
  createdAt: string;
  id: string;
}

// amount::text keeps the exact digits on both drivers (pg and PGlite both return NUMERIC as text anyway).
const COLS = `id, creditor_address, debtor_address, claim_type, status, amount::text AS amount, currency, description,
  evidence_transaction_hash, chain_id, protocol_name, resolution_notes, in_favor_of, created_at, updated_at, resolved_at,
  creditor_signed_in, evidence_status, creditor_has_history, verified_at, evidence_value_usd::float8 AS evidence_value_usd, evidence_at,
  evidence_problem, creditor_weight, notice_ends_at, environment`;

export function createClaimsRepo(db: Queryable) {
  return {
    async insert(c: NewClaim, q: Queryable = db): Promise<ClaimRow> {
      const [row] = await q.query<ClaimRow>(
        `INSERT INTO debt_claims (creditor_address, debtor_address, claim_type, amount, currency, description,
           evidence_transaction_hash, chain_id, protocol_name, created_by, created_ip, creditor_signed_in, job_due_at, notice_ends_at, environment)
         VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8, $9, $10, $11, $12, clock_timestamp(), clock_timestamp() + $13 * interval '1 hour', $14) RETURNING ${COLS}`,
        [
          c.creditorAddress,
          c.debtorAddress,
          c.claimType,
          c.amount,
          c.currency,
          c.description,
          c.evidenceTransactionHash,
          c.chainId,
          c.protocolName,
          c.createdBy,
          c.createdIp,
          c.creditorSignedIn,
          c.noticeHours,
          currentEnvironment(),
        ],
      );
      return row;
    },

    async get(id: string, q: Queryable = db): Promise<ClaimRow | null> {
      // a claim of the other environment does not exist here
      const rows = await q.query<ClaimRow>(`SELECT ${COLS} FROM debt_claims WHERE id = $1 AND environment = $2`, [
        id,
        currentEnvironment(),
      ]);
      return rows[0] ?? null;
    },

    /** Moves a claim from one of `from` to `to`; null when its status was not one of `from` (lost the race). */
    async transition(
      id: string,
      from: ClaimStatus[],
      to: ClaimStatus,
      set: { resolutionNotes?: string; disputeReason?: string; inFavorOf?: InFavorOf; resolved?: boolean },
      q: Queryable = db,
    ): Promise<(ClaimRow & { job_due_key: string }) | null> {
      const rows = await q.query<ClaimRow & { job_due_key: string }>(
        `UPDATE debt_claims SET status = $3,
           resolution_notes = COALESCE($4, resolution_notes),
           dispute_reason = COALESCE($5, dispute_reason),
           in_favor_of = COALESCE($6, in_favor_of),
           resolved_at = CASE WHEN $7 THEN clock_timestamp() ELSE resolved_at END,
           updated_at = clock_timestamp(), job_due_at = clock_timestamp()
         WHERE id = $1 AND status = ANY($2::text[]) AND environment = $8 RETURNING ${COLS}, job_due_at::text AS job_due_key`,
        [
          id,
          from,
          to,
          set.resolutionNotes ?? null,
          set.disputeReason ?? null,
          set.inFavorOf ?? null,
          set.resolved ?? false,
          currentEnvironment(),
        ],
      );
      return rows[0] ?? null;
    },

    async recordEvent(
      e: { claimId: string; from: ClaimStatus | null; to: ClaimStatus; actor: string; note?: string | null },
      q: Queryable = db,
    ) {
      await q.query('INSERT INTO debt_claim_events (claim_id, from_status, to_status, actor, note) VALUES ($1, $2, $3, $4, $5)', [
        e.claimId,
        e.from,
        e.to,
        e.actor,
        e.note ?? null,
      ]);
    },

    /** One page, newest first, for one side of the claims (debtor or creditor). */
    async page(
      side: 'debtor' | 'creditor',
      address: string,
      limit: number,
      after: PageCursor | null,
      q: Queryable = db,
    ): Promise<(ClaimRow & { created_key: string })[]> {
      const col = side === 'debtor' ? 'debtor_address' : 'creditor_address';
      const params: unknown[] = [address, limit, currentEnvironment()];
      let where = `${col} = $1 AND environment = $3`;
      if (after) {
        params.push(after.createdAt, after.id);
        where += ' AND (created_at, id) < ($4::timestamptz, $5::uuid)';
      }
      // created_key keeps the microseconds a JS Date would drop, so the cursor is exact.
      return q.query<ClaimRow & { created_key: string }>(
        `SELECT ${COLS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key
         FROM debt_claims WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
        params,
      );
    },

    async count(side: 'debtor' | 'creditor', address: string, q: Queryable = db): Promise<number> {
      const col = side === 'debtor' ? 'debtor_address' : 'creditor_address';
      const [r] = await q.query<{ n: number | string }>(
        `SELECT count(*)::int AS n FROM debt_claims WHERE ${col} = $1 AND environment = $2`,
        [address, currentEnvironment()],
      );
      return Number(r.n);
    },

    /** Pending + Disputed amounts per currency, exact (NUMERIC sums as text). */
    async outstanding(debtor: string, q: Queryable = db): Promise<{ currency: string; total: string }[]> {
      return q.query<{ currency: string; total: string }>(
        `SELECT currency, sum(amount)::text AS total FROM debt_claims
         WHERE debtor_address = $1 AND environment = $2 AND status IN ('Pending', 'Disputed') GROUP BY currency ORDER BY currency`,
        [debtor, currentEnvironment()],
      );
    },

    /**
     * Leases due jobs (one claim when `id` is given): a lease lapses after leaseMs, so a worker that died mid-job
     * leaves it to the next. `graceMs` keeps sweeps off jobs the request's own instance is about to run.
     */
    async leaseJobs(opts: { id?: string; limit: number; leaseMs: number; graceMs: number }, q: Queryable = db): Promise<JobRow[]> {
      const params: unknown[] = [opts.limit, opts.leaseMs, opts.graceMs];
      let where = `job_due_at <= clock_timestamp() - $3 * interval '1 millisecond' AND (job_lease_until IS NULL OR job_lease_until < clock_timestamp())`;
      if (opts.id) {
        params.push(opts.id);
        where += ' AND id = $4';
      }
      return q.query<JobRow>(
        `UPDATE debt_claims SET job_lease_until = clock_timestamp() + $2 * interval '1 millisecond', job_attempts = job_attempts + 1
         WHERE id IN (SELECT id FROM debt_claims WHERE ${where} ORDER BY job_due_at LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING ${COLS}, job_due_at::text AS job_due_key, job_attempts`,
        params,
      );
    },

    /**
     * The evidence check's outcome. A claim without a notice period yet (filed before migration 0035, whose debtor
     * was never told) gets a full one from now; `firstNotice` says so, so the caller tells the debtor.
     */
    async saveVerification(
      id: string,
      v: {
        evidenceStatus: ClaimRow['evidence_status'];
        creditorHasHistory: boolean | null;
        valueUsd: number | null;
        evidenceAt: Date | null;
        problem: string | null;
        creditorWeight: number | null;
      },
      noticeHours: number,
      q: Queryable = db,
    ): Promise<{ firstNotice: boolean }> {
      const [r] = await q.query<{ first_notice: boolean }>(
        `UPDATE debt_claims d SET evidence_status = $2, creditor_has_history = $3, verified_at = clock_timestamp(), evidence_value_usd = $4,
           evidence_at = $5, evidence_problem = $6, creditor_weight = $7,
           notice_ends_at = COALESCE(d.notice_ends_at, clock_timestamp() + $8 * interval '1 hour')
         FROM (SELECT id, notice_ends_at IS NULL AS first_notice FROM debt_claims WHERE id = $1) o
         WHERE d.id = o.id RETURNING o.first_notice`,
        [
          id,
          v.evidenceStatus,
          v.creditorHasHistory,
          v.valueUsd,
          v.evidenceAt ? v.evidenceAt.toISOString() : null,
          v.problem,
          v.creditorWeight,
          noticeHours,
        ],
      );
      return { firstNotice: r?.first_notice === true };
    },

    /**
     * Done: cleared unless a later change made the claim due again meanwhile (then only the lease is released). A
     * Pending claim still in its notice period is due again when the notice ends: the recompute then makes it count.
     */
    async finishJob(id: string, dueKey: string, q: Queryable = db) {
      await q.query(
        `UPDATE debt_claims SET job_lease_until = NULL,
           job_due_at = CASE WHEN job_due_at = $2::timestamptz AND evidence_status <> 'pending'
             THEN CASE WHEN status = 'Pending' AND notice_ends_at > clock_timestamp() THEN notice_ends_at END
             ELSE job_due_at END,
           job_attempts = CASE WHEN job_due_at = $2::timestamptz AND evidence_status <> 'pending' THEN 0 ELSE job_attempts END
         WHERE id = $1`,
        [id, dueKey],
      );
    },

    async retryJob(id: string, delayMs: number, q: Queryable = db) {
      await q.query(
        `UPDATE debt_claims SET job_lease_until = NULL, job_due_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE id = $1`,
        [id, delayMs],
      );
    },

    /** Every live claim against a debtor, all statuses, oldest first (the scoring model's input: test claims never count). */
    async allForDebtor(debtor: string, q: Queryable = db): Promise<(ClaimRow & { in_notice: boolean })[]> {
      return q.query<ClaimRow & { in_notice: boolean }>(
        `SELECT ${COLS}, (notice_ends_at IS NULL OR notice_ends_at > clock_timestamp()) AS in_notice
         FROM debt_claims WHERE debtor_address = $1 AND environment = 'live' ORDER BY created_at, id`,
        [debtor],
      );
    },
    /** allForDebtor of many debtors in one statement (bulk scoring). */
    async allForDebtors(debtors: string[], q: Queryable = db): Promise<(ClaimRow & { in_notice: boolean })[]> {
      return q.query<ClaimRow & { in_notice: boolean }>(
        `SELECT ${COLS}, (notice_ends_at IS NULL OR notice_ends_at > clock_timestamp()) AS in_notice
         FROM debt_claims WHERE debtor_address = ANY($1::text[]) AND environment = 'live' ORDER BY created_at, id`,
        [debtors],
      );
    },
  };
}

export type ClaimsRepo = ReturnType<typeof createClaimsRepo>;
