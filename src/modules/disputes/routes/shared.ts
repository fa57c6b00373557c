// What the disputes route files share: their deps, the dispute and history bodies built from rows, the owner
// check of a dispute's routes, the optional JWT of a withdrawal, the paged lists and the repeated description texts.
import type { FastifyRequest } from 'fastify';
import type { JwtService, JwtUser } from '../../../platform/auth/jwt.js';
import { unauthorized } from '../../../platform/errors.js';
import { toChecksum } from '../../../platform/http/address.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../../platform/http/pagination.js';
import type { DisputeRow, HistoryRow } from '../repo.js';
import { OPEN_STATUSES, type DisputeStatus } from '../schemas.js';
import type { DisputesService } from '../service.js';

export interface DisputeRouteDeps {
  svc: DisputesService;
  jwt: JwtService;
}

export const TAGS = ['Disputes'];

export const LIFECYCLE =
  'Statuses on the wire: Pending, Under Review, Evidence Requested, Resolved, Rejected, Escalated, Withdrawn. New disputes are Pending; ' +
  'an admin moves them (PUT /dispute/{id}/status, any status); escalation is open from every state except Withdrawn and Escalated; ' +
  'withdrawal only from Pending, Under Review or Evidence Requested.';

export const OWNER_ONLY =
  " The disputed wallet may also call it with its session alone (Authorization: Bearer, no API key); another wallet's session gets 403.";

export function toDispute(d: DisputeRow) {
  const chain = d.escalation_chain_status === 'submitting' ? 'pending' : d.escalation_chain_status;
  return {
    id: d.id,
    walletAddress: toChecksum(d.wallet_address),
    category: d.category,
    reason: d.reason,
    status: d.status,
    description: d.description,
    evidence: d.evidence,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    resolutionNotes: d.resolution_notes,
    resolvedBy: d.resolved_by,
    revisedScore: d.revised_score,
    escalation:
      d.escalation_reason && d.escalated_at
        ? {
            reason: d.escalation_reason,
            escalatedAt: d.escalated_at,
            onChainStatus: chain ?? 'not_configured',
            txHash: d.escalation_tx_hash,
          }
        : null,
  };
}

const toHistory = (h: HistoryRow) => ({
  fromStatus: h.from_status,
  status: h.to_status,
  changedBy: h.actor,
  changedAt: h.created_at,
  note: h.note,
});

/** The dispute with every status change it went through. */
export const withHistory = async (svc: DisputesService, row: DisputeRow) => ({
  ...toDispute(row),
  history: (await svc.history(row.id)).map(toHistory),
});

/** The wallet a dispute is about: its owner reads and acts on it with a session alone. */
export const disputeWallet = (svc: DisputesService) => async (req: FastifyRequest) =>
  (await svc.get((req.params as { id: string }).id)).wallet_address;

/** A JWT is optional on withdrawal, but one that is sent must be valid. */
export async function optionalJwt(jwt: JwtService, req: FastifyRequest): Promise<JwtUser | undefined> {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  const user = m ? await jwt.verify(m[1]) : null;
  if (!user) throw unauthorized('The bearer token is invalid or expired; sign in again with POST /api/v1/auth/verify.');
  return user;
}

/** One page of a wallet's disputes, newest first, with their count. */
export async function walletDisputes(svc: DisputesService, address: string, q: { limit?: number; cursor?: string }) {
  const { limit = 50, cursor } = q;
  const before = cursor ? decodeCursor('disputes.wallet', cursor, [CREATED_KEY, UUID]) : null;
  const [rows, count] = await Promise.all([svc.byWallet(address, { limit: limit + 1, before }), svc.countByWallet(address)]);
  const page = cutPage(rows, limit, 'disputes.wallet', (r) => [r.created_key, r.id]);
  return {
    address: toChecksum(address),
    count,
    disputes: page.items.map(toDispute),
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  };
}

/** One page of the admin queue, newest first, filtered by status (`open`: every status still handled), category or wallet. */
export async function disputeQueue(
  svc: DisputesService,
  q: { limit?: number; cursor?: string; status?: string; category?: string; walletAddress?: string },
) {
  const { limit = 50, cursor, status, category, walletAddress } = q;
  const before = cursor ? decodeCursor('disputes.queue', cursor, [CREATED_KEY, UUID]) : null;
  const statuses: DisputeStatus[] | null = status === 'open' ? OPEN_STATUSES : status ? [status as DisputeStatus] : null;
  const filter = { statuses, category: category ?? null, wallet: walletAddress?.toLowerCase() ?? null };
  const [rows, count] = await svc.queue(filter, { limit: limit + 1, before });
  const page = cutPage(rows, limit, 'disputes.queue', (r) => [r.created_key, r.id]);
  return { count, disputes: page.items.map(toDispute), nextCursor: page.nextCursor, hasMore: page.hasMore };
}
