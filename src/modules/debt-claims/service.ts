// Debt claims between wallets: filing, the debtor's dispute, the admin's resolution, the creditor's withdrawal,
// and the signals the scoring model reads. Filing answers once the claim is stored: its evidence check and the
// debtor's recompute run after commit as the claim's job (jobs.ts). Status changes recompute before answering, and
// leave the same job behind in case the process dies first.
import type { Db } from '../../platform/db/types.js';
import type { JwtUser } from '../../platform/auth/jwt.js';
import type { RateLimiter } from '../../platform/rate-limit/index.js';
import type { FieldError } from '../../platform/errors.js';
import { AppError, forbidden, invalidState, notFound, unauthorized } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import type { ModuleServices } from '../../platform/context.js';
import type { DebtClaimSignal, DebtClaimsSignals } from '../scoring/contracts.js';
import { CREDITOR_MIN_WEIGHT, UNVERIFIED_WEIGHT } from '../scoring/contracts.js';
import { filedEvent } from './events.js';
import type { ClaimJobs } from './jobs.js';
import { amountProblem, plainDecimal } from './decimal.js';
import { CREATED_KEY, UUID, decodeCursor as decodeShared, encodeCursor as encodeShared } from '../../platform/http/pagination.js';
import type { ClaimRow, ClaimsRepo, PageCursor } from './repo.js';
import type { ClaimStatus, CreateClaimBody, InFavorOf } from './schemas.js';

export interface Caller {
  ip: string;
  /** the JWT, when the request carried one */
  user?: JwtUser;
}

export interface DebtClaimsDeps {
  db: Pick<Db, 'tx'>;
  repo: ClaimsRepo;
  limiter: RateLimiter;
  limits: { perIpPerMinute: number; perCreditorPerMinute: number };
  strictOwnership: boolean;
  /** the debtor's recompute after a status change; the webhooks outbox, for `debt_claim.filed` */
  services: Pick<ModuleServices, 'scoring' | 'webhooks'>;
  jobs: Pick<ClaimJobs, 'kick'>;
  log: { error(obj: unknown, msg: string): void };
  /** hours the debtor has to dispute before a new claim counts */
  noticeHours: number;
  /** best-effort push of a filed claim to hub clients */
  announce: (e: ReturnType<typeof filedEvent>) => void;
}

/** An evidence hash of one repeated digit (0x000...0, 0xfff...f) names no transaction: refused outright. */
export const BOGUS_HASH = /^0x([0-9a-f])\1{63}$/i;

type VerificationCols =
  | 'creditor_signed_in'
  | 'evidence_status'
  | 'creditor_has_history'
  | 'verified_at'
  | 'evidence_value_usd'
  | 'evidence_at'
  | 'evidence_problem'
  | 'creditor_weight'
  | 'notice_ends_at'
  | 'status';

/** What is verified about a claim, and the weight that gives its Pending impact (1 = the spec's full weight). */
export function verificationOf(r: Pick<ClaimRow, VerificationCols>, now = new Date()) {
  const verified = r.creditor_signed_in && r.evidence_status === 'found' && r.creditor_has_history === true;
  return {
    creditorSignedIn: r.creditor_signed_in,
    evidenceStatus: r.evidence_status,
    evidenceFound: r.evidence_status === 'pending' || r.evidence_status === 'unverifiable' ? null : r.evidence_status === 'found',
    evidenceProblem: r.evidence_problem,
    evidenceValueUsd: r.evidence_value_usd === null ? null : Math.round(r.evidence_value_usd * 100) / 100,
    evidenceAt: r.evidence_at,
    creditorHasHistory: r.creditor_has_history,
    creditorWeight: r.creditor_weight,
    verified,
    weight: verified ? (r.creditor_weight ?? CREDITOR_MIN_WEIGHT) : UNVERIFIED_WEIGHT,
    noticeEndsAt: r.notice_ends_at,
    inNotice: r.status === 'Pending' && (r.notice_ends_at === null || r.notice_ends_at > now),
    checkedAt: r.verified_at,
  };
}

/** Field problems a JSON schema cannot express: the exact amount, and two different parties. */
export function createBodyProblems(body: Partial<Record<keyof CreateClaimBody, unknown>>): FieldError[] {
  const out: FieldError[] = [];
  if (body.amount !== undefined) {
    const p = amountProblem(body.amount);
    if (p) out.push({ field: 'amount', message: p });
  }
  if (typeof body.evidenceTransactionHash === 'string' && BOGUS_HASH.test(body.evidenceTransactionHash)) {
    out.push({ field: 'evidenceTransactionHash', message: 'must name a real transaction, not a placeholder such as 0x000...0' });
  }
  const { creditorAddress: c, debtorAddress: d } = body;
  if (typeof c === 'string' && typeof d === 'string' && c.toLowerCase() === d.toLowerCase()) {
    out.push({ field: 'debtorAddress', message: 'must differ from creditorAddress' });
  }
  return out;
}

/** Cursors name their side: a creditor listing's cursor is refused by the debtor listing (400). */
export function encodeCursor(c: PageCursor, side: 'debtor' | 'creditor' = 'debtor'): string {
  return encodeShared(`debt_claims.${side}`, [c.createdAt, c.id]);
}

export function decodeCursor(s: string, side: 'debtor' | 'creditor' = 'debtor'): PageCursor {
  const [createdAt, id] = decodeShared(`debt_claims.${side}`, s, [CREATED_KEY, UUID]);
  return { createdAt, id };
}

export function createDebtClaimsService(deps: DebtClaimsDeps) {
  const { repo } = deps;

  /** decisions.md: no credentials needed, but a JWT that is sent must be the acting party's. */
  function checkActor(user: JwtUser | undefined, address: string, role: 'creditor' | 'debtor') {
    if (!user) {
      if (deps.strictOwnership)
        throw unauthorized(`This server requires the ${role}'s JWT (CREDENCE_STRICT_OWNERSHIP): sign in with the ${role} wallet.`);
      return;
    }
    if (user.address !== address) throw forbidden(`The signed-in wallet is not the ${role} of this claim.`);
  }

  const actorOf = (c: Caller) => (c.user ? `wallet:${c.user.address}` : `anonymous:${c.ip}`);

  /** After a committed status change: recompute now; the claim's job is then done (else the worker retries it). */
  async function afterChange(row: ClaimRow & { job_due_key: string }) {
    const scoring = deps.services.scoring;
    // a test claim changes no score: sandbox scores are not stored, and the model reads live claims only
    if (row.environment === 'test') return void (await repo.finishJob(row.id, row.job_due_key));
    try {
      await scoring.recompute(row.debtor_address, 'debt_claim');
      await repo.finishJob(row.id, row.job_due_key);
    } catch (err) {
      // The claim change is committed and its job is still due: the claims worker recomputes later.
      deps.log.error({ err, debtor: row.debtor_address }, 'score recompute after a debt claim change failed');
    }
  }

  async function limit(id: string, max: number, what: string) {
    const r = await deps.limiter.hit(id, max, 60_000);
    if (!r.allowed) {
      throw new AppError('rate_limited', `At most ${max} debt claims per minute ${what}; retry in ${r.retryAfter} s.`, {
        headers: { 'Retry-After': r.retryAfter, 'X-RateLimit-Retry-After': r.retryAfter },
      });
    }
  }

  async function load(id: string): Promise<ClaimRow> {
    const row = await repo.get(id);
    if (!row) throw notFound(`No debt claim ${id}.`);
    return row;
  }

  /** Runs a conditional transition; 409 when another request (or the state) got there first. */
  async function transition(
    claim: ClaimRow,
    from: ClaimStatus[],
    to: ClaimStatus,
    set: Parameters<ClaimsRepo['transition']>[3],
    actor: string,
    note: string | null,
    audit?: string,
  ): Promise<ClaimRow> {
    const row = await deps.db.tx(async (q) => {
      const r = await repo.transition(claim.id, from, to, set, q);
      if (!r) return null;
      await repo.recordEvent({ claimId: r.id, from: claim.status, to, actor, note }, q);
      if (audit) await writeAudit(q, { actor, action: audit, target: `debt_claim:${r.id}`, details: { from: claim.status, to, ...set } });
      return r;
    });
    if (!row) {
      const now = (await repo.get(claim.id))?.status ?? claim.status;
      throw invalidState(`The claim is ${now}; this action needs it to be ${from.join(' or ')}.`);
    }
    await afterChange(row);
    return row;
  }

  return {
    async create(body: CreateClaimBody, caller: Caller): Promise<ClaimRow> {
      const creditor = body.creditorAddress.toLowerCase();
      const debtor = body.debtorAddress.toLowerCase();
      checkActor(caller.user, creditor, 'creditor');
      // Per IP whether signed in or not: a fresh wallet per request costs nothing, so a JWT earns no extra claims.
      await limit(`claims:ip:${caller.ip}`, deps.limits.perIpPerMinute, 'from one client address');
      // test claims count apart, so sandbox filings never hold back a live creditor's claims
      await limit(
        `claims:${currentEnvironment() === 'test' ? 'test:' : ''}creditor:${creditor}`,
        deps.limits.perCreditorPerMinute,
        'per creditor',
      );
      const row = await deps.db.tx(async (q) => {
        const r = await repo.insert(
          {
            creditorAddress: creditor,
            debtorAddress: debtor,
            claimType: body.claimType,
            amount: plainDecimal(body.amount)!,
            currency: body.currency,
            description: body.description,
            evidenceTransactionHash: body.evidenceTransactionHash.toLowerCase(),
            chainId: body.chainId,
            protocolName: body.protocolName,
            createdBy: caller.user?.address ?? null,
            createdIp: caller.ip,
            creditorSignedIn: caller.user?.address === creditor,
            noticeHours: deps.noticeHours,
          },
          q,
        );
        await repo.recordEvent({ claimId: r.id, from: null, to: 'Pending', actor: actorOf(caller) }, q);
        // the debtor is told in the claim's own transaction: no claim is stored without its notice
        await deps.services.webhooks.enqueueEvent(q, filedEvent(r));
        return r;
      });
      deps.announce(filedEvent(row));
      deps.jobs.kick(row.id);
      return row;
    },

    get: load,

    async list(side: 'debtor' | 'creditor', address: string, limitN: number, cursor: string | undefined) {
      const addr = address.toLowerCase();
      const after = cursor ? decodeCursor(cursor, side) : null;
      const [rows, count, outstanding] = await Promise.all([
        repo.page(side, addr, limitN + 1, after),
        repo.count(side, addr),
        side === 'debtor' ? repo.outstanding(addr) : Promise.resolve([]),
      ]);
      const page = rows.slice(0, limitN);
      const last = page[page.length - 1];
      const nextCursor = rows.length > limitN && last ? encodeCursor({ createdAt: last.created_key, id: last.id }, side) : null;
      return { address: addr, rows: page, count, outstanding, nextCursor };
    },

    async dispute(id: string, body: { debtorAddress: string; reason: string }, caller: Caller) {
      if (deps.strictOwnership && !caller.user) checkActor(undefined, '', 'debtor');
      const claim = await load(id);
      if (body.debtorAddress.toLowerCase() !== claim.debtor_address) throw forbidden('Only the debtor of this claim may dispute it.');
      checkActor(caller.user, claim.debtor_address, 'debtor');
      return transition(
        claim,
        ['Pending'],
        'Disputed',
        { resolutionNotes: body.reason, disputeReason: body.reason },
        `debtor:${claim.debtor_address}`,
        body.reason,
      );
    },

    async resolve(id: string, body: { resolutionNotes: string; inFavorOf?: InFavorOf }, admin: JwtUser) {
      const claim = await load(id);
      const inFavorOf = body.inFavorOf ?? 'creditor';
      return transition(
        claim,
        ['Pending', 'Disputed'],
        'Resolved',
        { resolutionNotes: body.resolutionNotes, inFavorOf, resolved: true },
        `admin:${admin.address}`,
        body.resolutionNotes,
        'debt_claim.resolve',
      );
    },

    async withdraw(id: string, body: { creditorAddress: string }, caller: Caller) {
      if (deps.strictOwnership && !caller.user) checkActor(undefined, '', 'creditor');
      const claim = await load(id);
      if (body.creditorAddress.toLowerCase() !== claim.creditor_address)
        throw forbidden('Only the creditor of this claim may withdraw it.');
      checkActor(caller.user, claim.creditor_address, 'creditor');
      return transition(claim, ['Pending'], 'Withdrawn', { resolved: true }, `creditor:${claim.creditor_address}`, null);
    },

    /** Every claim against the debtor, withdrawn and resolved ones included, so history cannot be reset. */
    signals: {
      async signalsFor(debtorAddress: string): Promise<DebtClaimSignal[]> {
        return (await repo.allForDebtor(debtorAddress.toLowerCase())).map(claimSignal);
      },
      async signalsForMany(debtorAddresses: string[]): Promise<DebtClaimSignal[][]> {
        const wanted = debtorAddresses.map((a) => a.toLowerCase());
        const by = new Map<string, DebtClaimSignal[]>(wanted.map((a) => [a, []]));
        for (const r of await repo.allForDebtors([...by.keys()])) by.get(r.debtor_address)?.push(claimSignal(r));
        return wanted.map((a) => by.get(a)!);
      },
    } satisfies DebtClaimsSignals,
  };
}

/** What scoring reads of a claim: every claim counts, withdrawn and resolved ones included. */
function claimSignal(r: ClaimRow & { in_notice: boolean }): DebtClaimSignal {
  return {
    id: r.id,
    creditorAddress: r.creditor_address,
    status: r.status,
    inFavorOf: r.status === 'Resolved' ? r.in_favor_of : null,
    amount: r.amount,
    currency: r.currency,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    resolvedAt: r.resolved_at,
    verified: verificationOf(r).verified,
    creditorWeight: r.creditor_weight ?? CREDITOR_MIN_WEIGHT,
    inNotice: r.status === 'Pending' && r.in_notice,
  };
}

export type DebtClaimsService = ReturnType<typeof createDebtClaimsService>;
