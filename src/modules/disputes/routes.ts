// HTTP routes of the disputes module: each route is its schema, its auth and one service call.
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import type { JwtService, JwtUser } from '../../platform/auth/jwt.js';
import { errorResponses } from '../../platform/openapi.js';
import { unauthorized } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import type { DisputeRow, HistoryRow } from './repo.js';
import type { DisputeStatus } from './schemas.js';
import type { DisputesService } from './service.js';
import {
  AddressParams,
  CreateDisputeBody,
  DisputeQueue,
  DisputeQueueQuery,
  OPEN_STATUSES,
  DisputeWithHistory,
  EscalateBody,
  IdParams,
  UpdateStatusBody,
  WalletDisputes,
  WalletDisputesQuery,
  WithdrawBody,
  Dispute,
} from './schemas.js';
import { CREATED_KEY, UUID, cutPage, decodeCursor } from '../../platform/http/pagination.js';

const TAGS = ['Disputes'];

const LIFECYCLE =
  'Statuses on the wire: Pending, Under Review, Evidence Requested, Resolved, Rejected, Escalated, Withdrawn. New disputes are Pending; ' +
  'an admin moves them (PUT /dispute/{id}/status, any status); escalation is open from every state except Withdrawn and Escalated; ' +
  'withdrawal only from Pending, Under Review or Evidence Requested.';

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

/** A JWT is optional on withdrawal, but one that is sent must be valid. */
async function optionalJwt(jwt: JwtService, req: FastifyRequest): Promise<JwtUser | undefined> {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  const user = m ? await jwt.verify(m[1]) : null;
  if (!user) throw unauthorized('The bearer token is invalid or expired; sign in again with POST /api/v1/auth/verify.');
  return user;
}

const OWNER_ONLY =
  " The disputed wallet may also call it with its session alone (Authorization: Bearer, no API key); another wallet's session gets 403.";

export function registerDisputeRoutes(app: App, svc: DisputesService, jwt: JwtService) {
  /** The wallet a dispute is about: its owner reads and acts on it with a session alone. */
  const disputeWallet = async (req: FastifyRequest) => (await svc.get((req.params as { id: string }).id)).wallet_address;
  const full = async (row: DisputeRow) => ({ ...toDispute(row), history: (await svc.history(row.id)).map(toHistory) });

  app.register(
    async (plugin) => {
      const s = plugin.withTypeProvider<TypeBoxTypeProvider>();
      s.post(
        '/dispute',
        {
          config: {
            auth: 'apiKey',
            sandbox: true,
            idempotent: true,
            owner: (req) => (req.body as { walletAddress: string }).walletAddress,
          },
          schema: {
            operationId: 'disputes.createDispute',
            tags: TAGS,
            summary: 'Dispute a score',
            description:
              "Files a dispute against the wallet's score in one category. The new dispute is Pending. `walletAddress` is the original submitter: " +
              'only that wallet may later withdraw the dispute. The API key that filed it is recorded too. `reason` must be one of the eight DisputeReason values ' +
              `(IncorrectData is not one: 400). ${LIFECYCLE}${OWNER_ONLY}`,
            body: CreateDisputeBody,
            response: { 201: Dispute },
          },
        },
        async (req, reply) => {
          const row = await svc.create(req.body, req.apiKey, req.user?.address);
          return reply
            .code(201)
            .header('Location', `/api/v1/dispute/${row.id}`)
            .send(toDispute(row) as never);
        },
      );

      s.get(
        '/dispute/:id',
        {
          config: { auth: 'apiKey', sandbox: true, owner: disputeWallet },
          schema: {
            operationId: 'disputes.getDispute',
            tags: TAGS,
            summary: 'Get a dispute',
            description: `The full dispute with \`history\`: every status change, who made it and when. Unknown id: 404; an id that is not a GUID: 400. ${LIFECYCLE}${OWNER_ONLY}`,
            params: IdParams,
            response: { 200: DisputeWithHistory },
          },
        },
        async (req) => (await full(await svc.get(req.params.id))) as never,
      );

      s.get(
        '/dispute/wallet/:address',
        {
          config: { auth: 'apiKey', sandbox: true, owner: (req) => (req.params as { address: string }).address },
          schema: {
            operationId: 'disputes.listWalletDisputes',
            tags: TAGS,
            summary: "A wallet's disputes",
            description:
              'Every dispute filed for the wallet, newest first, paged with `limit` and `cursor` (see Pagination); `count` is their number on every page. ' +
              `A wallet without disputes gets count 0, not 404.${OWNER_ONLY}`,
            params: AddressParams,
            querystring: WalletDisputesQuery,
            response: { 200: WalletDisputes },
          },
        },
        async (req) => {
          const { limit = 50, cursor } = req.query as { limit?: number; cursor?: string };
          const before = cursor ? decodeCursor('disputes.wallet', cursor, [CREATED_KEY, UUID]) : null;
          const [rows, count] = await Promise.all([
            svc.byWallet(req.params.address, { limit: limit + 1, before }),
            svc.countByWallet(req.params.address),
          ]);
          const page = cutPage(rows, limit, 'disputes.wallet', (r) => [r.created_key, r.id]);
          return {
            address: toChecksum(req.params.address),
            count,
            disputes: page.items.map(toDispute),
            nextCursor: page.nextCursor,
            hasMore: page.hasMore,
          } as never;
        },
      );

      s.get(
        '/disputes',
        {
          config: { auth: 'admin', sandbox: true },
          schema: {
            operationId: 'disputes.listDisputeQueue',
            tags: TAGS,
            summary: 'Admin: the disputes queue',
            description:
              "Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin). Every wallet's disputes, newest first, optionally only one `status` " +
              '(`open`: every status still being handled), one `category` or one `walletAddress`; paged with `limit` and `cursor` (see Pagination), `count` ' +
              'is how many match on every page. A test sign-in sees test disputes only. Act on one with PUT /dispute/{id}/status.',
            querystring: DisputeQueueQuery,
            response: { 200: DisputeQueue },
          },
        },
        async (req) => {
          const { limit = 50, cursor, status, category, walletAddress } = req.query;
          const before = cursor ? decodeCursor('disputes.queue', cursor, [CREATED_KEY, UUID]) : null;
          const statuses: DisputeStatus[] | null = status === 'open' ? OPEN_STATUSES : status ? [status as DisputeStatus] : null;
          const filter = { statuses, category: category ?? null, wallet: walletAddress?.toLowerCase() ?? null };
          const [rows, count] = await svc.queue(filter, { limit: limit + 1, before });
          const page = cutPage(rows, limit, 'disputes.queue', (r) => [r.created_key, r.id]);
          return { count, disputes: page.items.map(toDispute), nextCursor: page.nextCursor, hasMore: page.hasMore } as never;
        },
      );

      s.put(
        '/dispute/:id/status',
        {
          config: { auth: 'admin', sandbox: true },
          schema: {
            operationId: 'disputes.updateDisputeStatus',
            tags: TAGS,
            summary: 'Admin sets a dispute status',
            description:
              'Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin; no API key needed). Moves the dispute to any status, from any status. ' +
              "`resolutionNotes`, `resolvedBy` and `revisedScore` are stored when given. A `revisedScore` sent with status Resolved replaces the wallet's score " +
              'in the disputed category through the scoring service (OVERALL follows), with an audit record of who changed what, and emits a score change ' +
              "(webhooks, hub); 503 when the scoring service is unavailable (nothing is changed then). Each change is added to the dispute's history. " +
              'Returns the updated dispute with its history.',
            params: IdParams,
            body: UpdateStatusBody,
            response: { 200: DisputeWithHistory, ...errorResponses(503) },
          },
        },
        async (req) => (await full(await svc.updateStatus(req.params.id, req.body, req.user!))) as never,
      );

      s.post(
        '/dispute/:id/escalate',
        {
          config: { auth: 'apiKey', sandbox: true, owner: disputeWallet },
          schema: {
            operationId: 'disputes.escalateDispute',
            tags: TAGS,
            summary: 'Escalate a dispute to on-chain governance',
            description:
              'When the off-chain resolution is unsatisfactory: moves the dispute to Escalated from every state except Withdrawn and Escalated (those give 409) ' +
              'and records the reason. When the oracle contract is configured (CREDENCE_ORACLE_ADDRESS and a signer), the escalation is submitted to it ' +
              'for governance-role holders to review, and `escalation.txHash` holds the transaction; a failed submission is retried in the background ' +
              `(escalation.onChainStatus failed/pending). Without an oracle, onChainStatus is not_configured. Returns the updated dispute. ${LIFECYCLE}${OWNER_ONLY}`,
            params: IdParams,
            body: EscalateBody,
            response: { 200: Dispute, ...errorResponses(409) },
          },
        },
        async (req) => toDispute(await svc.escalate(req.params.id, req.body.reason, req.apiKey, req.user?.address)) as never,
      );

      s.post(
        '/dispute/:id/withdraw',
        {
          config: { auth: 'apiKey', sandbox: true, owner: disputeWallet },
          schema: {
            operationId: 'disputes.withdrawDispute',
            tags: TAGS,
            summary: 'Withdraw a dispute',
            description:
              "Only the original submitter: `walletAddress` must be the dispute's walletAddress (else 403). The caller proves it is that wallet with a JWT " +
              'of the wallet (Authorization: Bearer, subject must match, else 403), or without a JWT by using the API key that filed the dispute or a key ' +
              'owned by the wallet (else 403). CREDENCE_STRICT_OWNERSHIP=true makes the JWT mandatory (401 without). Only from Pending, Under Review or ' +
              `Evidence Requested (else 409). The status becomes Withdrawn; 204 No Content.${OWNER_ONLY}`,
            params: IdParams,
            body: WithdrawBody,
            response: { 204: { type: 'null', description: 'Withdrawn' }, ...errorResponses(403, 409) },
          },
        },
        async (req, reply) => {
          const user = await optionalJwt(jwt, req);
          await svc.withdraw(req.params.id, req.body.walletAddress, { key: req.apiKey, user });
          return reply.code(204).send();
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
