// Disputes against scores: filing, the admin's status updates (a revised score goes through the scoring
// module), escalation to on-chain governance through the oracle, and withdrawal by the original submitter.
import type { Db } from '../../platform/db/types.js';
import type { JwtUser } from '../../platform/auth/jwt.js';
import type { ApiKeyPrincipal } from '../../platform/auth/api-key.js';
import { forbidden, invalidState, notFound, unauthorized } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import type { ModuleServices } from '../../platform/context.js';
import { categoryId, type Category } from '../scoring/contracts.js';
import type { DisputeRow, DisputesRepo, QueueFilter } from './repo.js';
import {
  NOT_ESCALATABLE,
  STATUS_ALIASES,
  WITHDRAWABLE,
  type CreateDisputeBody,
  type DisputeStatus,
  type UpdateStatusBody,
} from './schemas.js';

export interface DisputesDeps {
  db: Pick<Db, 'tx'>;
  repo: DisputesRepo;
  strictOwnership: boolean;
  /** Revised scores go to scoring; escalations to the oracle (null: none configured, they stay off-chain). */
  services: Pick<ModuleServices, 'scoring' | 'oracle'>;
  log: { error(obj: unknown, msg: string): void; warn(obj: unknown, msg: string): void };
}

/** How many times an escalation's on-chain submission is tried, and how long a claimed attempt may take. */
export const CHAIN_MAX_ATTEMPTS = 5;
export const CHAIN_RETRY_AFTER_SECONDS = 120;

export const normalizeStatus = (s: string): DisputeStatus => STATUS_ALIASES[s] ?? (s as DisputeStatus);

export function createDisputesService(deps: DisputesDeps) {
  const { repo } = deps;

  async function load(id: string): Promise<DisputeRow> {
    const row = await repo.get(id);
    if (!row) throw notFound(`No dispute ${id}.`);
    return row;
  }

  /** Submits an escalation to the oracle contract, after commit; failures are kept for the retry worker. */
  async function submitOnChain(d: DisputeRow): Promise<void> {
    const oracle = deps.services.oracle;
    if (!oracle || !d.escalation_reason) return;
    try {
      const { txHash } = await oracle.submitEscalation({
        disputeId: d.id,
        address: d.wallet_address,
        category: categoryId(d.category as Category),
        reason: d.escalation_reason,
      });
      await repo.setChainResult(d.id, { status: 'submitted', txHash });
    } catch (err) {
      deps.log.warn({ err, disputeId: d.id }, 'escalation submission to the oracle failed; it will be retried');
      await repo.setChainResult(d.id, { status: 'failed', error: err instanceof Error ? err.message.slice(0, 500) : String(err) });
    }
  }

  const actorOf = (key: ApiKeyPrincipal | undefined, wallet: string | undefined) =>
    key ? `api-key:${key.keyId}` : wallet ? `wallet:${wallet}` : 'anonymous';

  return {
    /** `wallet`: the signed-in wallet acting with its session alone (no key), recorded as the actor. */
    async create(body: CreateDisputeBody, key: ApiKeyPrincipal | undefined, wallet?: string): Promise<DisputeRow> {
      return deps.db.tx(async (q) => {
        const row = await repo.insert(
          {
            walletAddress: body.walletAddress.toLowerCase(),
            category: body.category,
            reason: body.reason,
            description: body.description,
            evidence: body.evidence ?? null,
            keyId: key?.keyId ?? null,
            keyOwner: key?.ownerAddress?.toLowerCase() ?? (key ? null : (wallet ?? null)),
          },
          q,
        );
        await repo.recordHistory({ disputeId: row.id, from: null, to: 'Pending', actor: actorOf(key, wallet) }, q);
        return row;
      });
    },

    get: load,
    history: (id: string) => repo.history(id),
    byWallet: (address: string, page: { limit: number; before: string[] | null } | null = null) =>
      repo.byWallet(address.toLowerCase(), page),
    countByWallet: (address: string) => repo.countByWallet(address.toLowerCase()),
    /** The admin queue (this environment's disputes of every wallet) and how many match its filter. */
    queue: (f: QueueFilter, page: { limit: number; before: string[] | null }) => Promise.all([repo.queue(f, page), repo.countQueue(f)]),

    /** Admin: any status. A revisedScore with status Resolved replaces the category's score (audited by scoring). */
    async updateStatus(id: string, body: UpdateStatusBody, admin: JwtUser): Promise<DisputeRow> {
      const status = normalizeStatus(body.status);
      // A test dispute's revised score is recorded on the dispute only: sandbox scores are not stored, live ones untouched.
      const applyScore = status === 'Resolved' && body.revisedScore !== undefined && currentEnvironment() === 'live';
      const scoring = deps.services.scoring;
      const actor = `admin:${admin.address}`;
      const row = await deps.db.tx(async (q) => {
        const before = await repo.get(id, q);
        if (!before) return null;
        const r = await repo.setStatus(
          id,
          { status, resolutionNotes: body.resolutionNotes, resolvedBy: body.resolvedBy, revisedScore: body.revisedScore },
          q,
        );
        await repo.recordHistory({ disputeId: id, from: before.status, to: status, actor, note: body.resolutionNotes ?? null }, q);
        await writeAudit(q, {
          actor,
          action: 'dispute.status',
          target: `dispute:${id}`,
          details: {
            from: before.status,
            to: status,
            resolutionNotes: body.resolutionNotes,
            resolvedBy: body.resolvedBy,
            revisedScore: body.revisedScore,
          },
        });
        return r;
      });
      if (!row) throw notFound(`No dispute ${id}.`);
      // After commit: the scoring module runs its own transaction (score, history, audit, outbox). Repeating the
      // same PUT re-applies it if this step failed.
      if (applyScore) await scoring.applyRevisedScore(row.wallet_address, row.category as Category, body.revisedScore!, actor, row.id);
      return row;
    },

    async escalate(id: string, reason: string, key: ApiKeyPrincipal | undefined, wallet?: string): Promise<DisputeRow> {
      // test disputes never reach the chain
      const oracle = currentEnvironment() === 'live' ? deps.services.oracle : null;
      const before = await load(id);
      const row = await deps.db.tx(async (q) => {
        const r = await repo.transition(
          id,
          { notFrom: NOT_ESCALATABLE },
          'Escalated',
          { reason, chainStatus: oracle ? 'pending' : 'not_configured' },
          q,
        );
        if (r)
          await repo.recordHistory({ disputeId: id, from: before.status, to: 'Escalated', actor: actorOf(key, wallet), note: reason }, q);
        return r;
      });
      if (!row) {
        const now = (await repo.get(id))?.status ?? before.status;
        throw invalidState(`The dispute is ${now}; escalation is possible from every state except Withdrawn and Escalated.`);
      }
      if (!oracle) return row;
      await repo.setChainResult(id, { status: 'submitting' });
      await submitOnChain(row);
      return load(id);
    },

    /**
     * Only the original submitter: the body's walletAddress must be the dispute's, and the caller must prove it
     * is that wallet's: by a JWT of the wallet, or (without a JWT) by the API key that filed the dispute or a key
     * the wallet owns. CREDENCE_STRICT_OWNERSHIP=true makes the JWT mandatory.
     */
    async withdraw(id: string, walletAddress: string, caller: { key?: ApiKeyPrincipal; user?: JwtUser }): Promise<void> {
      if (deps.strictOwnership && !caller.user) {
        throw unauthorized(
          "This server requires the submitter's JWT to withdraw a dispute (CREDENCE_STRICT_OWNERSHIP): send Authorization: Bearer <token>.",
        );
      }
      const d = await load(id);
      const wallet = walletAddress.toLowerCase();
      if (wallet !== d.wallet_address) throw forbidden("Only the original submitter (the dispute's walletAddress) may withdraw it.");
      if (caller.user) {
        if (caller.user.address !== wallet) throw forbidden('The signed-in wallet is not the submitter of this dispute.');
      } else {
        const key = caller.key;
        const ownKey = key && (key.keyId === d.submitted_by_key || key.ownerAddress?.toLowerCase() === wallet);
        if (!ownKey)
          throw forbidden('Withdraw with the API key that filed the dispute, or sign in as the disputed wallet and send its JWT.');
      }
      const actor = caller.user ? `wallet:${wallet}` : `api-key:${caller.key!.keyId}`;
      const row = await deps.db.tx(async (q) => {
        const r = await repo.transition(id, { from: WITHDRAWABLE }, 'Withdrawn', null, q);
        if (r) await repo.recordHistory({ disputeId: id, from: d.status, to: 'Withdrawn', actor }, q);
        return r;
      });
      if (!row) {
        const now = (await repo.get(id))?.status ?? d.status;
        throw invalidState(`The dispute is ${now}; it can be withdrawn only while Pending, Under Review or Evidence Requested.`);
      }
    },

    /** One retry pass of the worker: resubmits due escalations until none is left. */
    async retryEscalations(): Promise<number> {
      if (!deps.services.oracle) return 0;
      let n = 0;
      for (;;) {
        const d = await repo.claimRetry(CHAIN_MAX_ATTEMPTS, CHAIN_RETRY_AFTER_SECONDS);
        if (!d) return n;
        await submitOnChain(d);
        n++;
      }
    },
  };
}

export type DisputesService = ReturnType<typeof createDisputesService>;
