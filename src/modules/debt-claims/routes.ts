// HTTP routes of the debt-claims module. The plugin parses JSON keeping `amount` exact and serializes
// exact decimals as JSON numbers; each route is its schema, its auth and one service call.
import type { FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { badRequest, type FieldError } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import { ExactDecimal, parseJsonKeepingDecimals, stringifyExact } from './decimal.js';
import type { ClaimRow } from './repo.js';
import { createBodyProblems, verificationOf, type DebtClaimsService } from './service.js';
import { PENDING_CAP, PENDING_PER_CREDITOR, UNVERIFIED_CAP, UNVERIFIED_PER_CREDITOR } from '../scoring/contracts.js';
import {
  AddressParams,
  Claim,
  CreateClaimBody,
  CreditorListing,
  DebtorListing,
  DisputeClaimBody,
  DisputeClaimResponse,
  IdParams,
  ListQuery,
  ResolveClaimBody,
  ResolveClaimResponse,
  WithdrawClaimBody,
  WithdrawClaimResponse,
} from './schemas.js';

const TAGS = ['Debt claims'];

export function toClaim(r: ClaimRow) {
  return {
    id: r.id,
    creditorAddress: toChecksum(r.creditor_address),
    debtorAddress: toChecksum(r.debtor_address),
    claimType: r.claim_type,
    status: r.status,
    amount: new ExactDecimal(r.amount),
    amountExact: r.amount,
    currency: r.currency,
    description: r.description,
    evidenceTransactionHash: r.evidence_transaction_hash,
    chainId: r.chain_id,
    protocolName: r.protocol_name,
    resolutionNotes: r.resolution_notes,
    inFavorOf: r.status === 'Resolved' ? r.in_favor_of : null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    resolvedAt: r.resolved_at,
    verification: verificationOf(r),
    environment: r.environment,
  };
}

const summary = (r: ClaimRow) => ({
  id: r.id,
  claimType: r.claim_type,
  status: r.status,
  amount: new ExactDecimal(r.amount),
  amountExact: r.amount,
  currency: r.currency,
  protocolName: r.protocol_name,
  verified: verificationOf(r).verified,
  createdAt: r.created_at,
});

/** Adds the checks a schema cannot make to Ajv's, so one 400 lists every offending field. */
function validateCreate(req: FastifyRequest) {
  const ajvError = req.validationError as (Error & { validation?: { instancePath: string }[] }) | undefined;
  const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
  let extra: FieldError[] = createBodyProblems(body);
  if (ajvError?.validation) {
    const flagged = new Set(ajvError.validation.map((e) => e.instancePath));
    extra = extra.filter((f) => !flagged.has(`/${f.field}`));
    for (const f of extra)
      ajvError.validation.push({ instancePath: `/${f.field}`, keyword: 'custom', message: f.message, params: {} } as never);
    throw ajvError;
  }
  if (ajvError) throw ajvError;
  if (extra.length) throw badRequest(`Invalid request: ${extra.map((f) => `${f.field} ${f.message}`).join('; ')}.`, extra);
}

const STATE_RULES =
  'States: Pending -> Disputed (debtor) | Withdrawn (creditor) | Resolved (admin); Disputed -> Resolved (admin). ' +
  'Resolved and Withdrawn are final. A transition from any other state gets 409; two concurrent transitions of one claim never both succeed.';

const SANDBOX =
  ' Test mode: a request with test credentials (a cred_test_ key in X-API-Key, or a JWT signed in with `environment: "test"`) works on ' +
  'test claims only: it files test claims, lists and acts on test claims, and a live claim is 404 to it (and a test claim to live callers). ' +
  'Test claims never count in any score and their `debt_claim.filed` notice goes only to test webhooks and test hub connections.';

const OWNERSHIP =
  'No credentials are needed, but when the request carries a JWT its subject must be the acting wallet, else 403; ' +
  'with CREDENCE_STRICT_OWNERSHIP=true the JWT is mandatory (401 without).' +
  SANDBOX;

export function registerClaimRoutes(app: App, svc: DebtClaimsService) {
  app.register(
    async (plugin) => {
      const s = plugin.withTypeProvider<TypeBoxTypeProvider>();
      s.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
        const text = body as string;
        if (text === '') {
          const err = new Error('Body cannot be empty when content-type is set to application/json') as Error & {
            code: string;
            statusCode: number;
          };
          err.code = 'FST_ERR_CTP_EMPTY_JSON_BODY';
          err.statusCode = 400;
          return done(err, undefined);
        }
        try {
          done(null, parseJsonKeepingDecimals(text, ['amount']));
        } catch (e) {
          done(e as Error, undefined);
        }
      });
      s.setSerializerCompiler(() => (data) => stringifyExact(data));

      s.post(
        '/debt-claims',
        {
          attachValidation: true,
          config: { auth: 'optionalJwt', sandbox: true, idempotent: true, fieldChecks: createBodyProblems },
          schema: {
            operationId: 'debtClaims.createClaim',
            tags: TAGS,
            summary: 'File a debt claim',
            description:
              'Files a claim that `debtorAddress` owes `creditorAddress`. Every field is required. The new claim is Pending, a minor negative signal ' +
              "on the debtor's DEFI_LENDING score (and through it OVERALL) whose weight follows what is verified (docs/debt-claims.md):\n" +
              '- **Verified** = the creditor signed in (a JWT whose subject is creditorAddress) AND `evidenceTransactionHash` is the loan: a successful ' +
              'transaction on `chainId` sent by the creditor, moving priced value to the debtor (native value, or ERC-20 Transfer logs of registry assets), ' +
              'worth at least CREDENCE_CLAIM_MIN_PRINCIPAL_USD (100) at its block and mined at least CREDENCE_CLAIM_MIN_EVIDENCE_AGE_HOURS (168) before the claim, ' +
              'checked over CREDENCE_RPC_URL_<chainId> (`verification.evidenceProblem` says why not) AND the creditor sent transactions before that evidence. ' +
              'A verified creditor weighs by its own costly history (`verification.creditorWeight`, 0.25-1, from its best DEFI_LENDING, DEFI_TRADING, GOVERNANCE, NFT or DEVELOPER score). ' +
              `Verified Pending claims follow the spec's table over the creditors' summed weight: ${PENDING_PER_CREDITOR} points for one full-weight creditor, compounding (40, 120, 240, ...), at most ${PENDING_CAP}.\n` +
              '- **Notice**: the debtor is told at once (webhook `debt_claim.filed`, hub `DebtClaimFiled`) and a Pending claim has no impact before `verification.noticeEndsAt` ' +
              '(CREDENCE_CLAIM_NOTICE_HOURS, default 336); a dispute before then keeps it from counting. No claim ever raises confidence.\n' +
              `- **Unverified** (anything less, or no RPC configured for the chain: "unverifiable"): ${UNVERIFIED_PER_CREDITOR} points per distinct creditor, ` +
              `non-compounding, and at most ${UNVERIFIED_CAP} points for all unverified claims together, however many are filed.\n` +
              "- An admin's dispute `revisedScore` is never erased by a claim: the revision stays, shifted only by the claim's own points, and withdrawing the claim restores it exactly.\n" +
              'An evidence hash of one repeated digit (0x000...0) is refused with 400. The answer comes once the claim is stored: `verification.evidenceStatus` is ' +
              "`pending` until the check, which runs after commit together with the debtor's score recompute (a durable job on the claim row: a crash loses neither). " +
              `${OWNERSHIP} Here the acting wallet is the creditor. ` +
              'Abuse limits, signed in or not: at most CREDENCE_CLAIMS_PER_IP_PER_MINUTE (default 30) claims per minute per client IP, and at most ' +
              'CREDENCE_CLAIMS_PER_CREDITOR_PER_MINUTE (default 10) per minute per creditor address; over either limit gives 429 with Retry-After. ' +
              '`amount` is answered as a JSON number and, exactly, as the string `amountExact`.',
            body: CreateClaimBody,
            response: { 201: Claim, ...errorResponses(403, 429) },
          },
        },
        async (req, reply) => {
          validateCreate(req);
          const row = await svc.create(req.body, { ip: req.ip, user: req.user });
          return reply
            .code(201)
            .header('Location', `/api/v1/debt-claims/${row.id}`)
            .send(toClaim(row) as never);
        },
      );

      s.get(
        '/debt-claims/:id',
        {
          config: { auth: 'public', sandbox: true },
          schema: {
            operationId: 'debtClaims.getClaim',
            tags: TAGS,
            summary: 'Get a debt claim',
            description: `The full claim. Unknown id: 404; an id that is not a GUID: 400. ${STATE_RULES}${SANDBOX}`,
            params: IdParams,
            response: { 200: Claim },
          },
        },
        async (req) => toClaim(await svc.get(req.params.id)) as never,
      );

      s.get(
        '/debt-claims/debtor/:address',
        {
          config: { auth: 'public', sandbox: true },
          schema: {
            operationId: 'debtClaims.listByDebtor',
            tags: TAGS,
            summary: 'Claims against a debtor',
            description:
              "Claims against the wallet, newest first, paged with `limit` (1-100, default 50) and `cursor` (the previous page's `nextCursor`). " +
              '`totalOutstandingDebt` is the exact sum of Pending and Disputed amounts over all claims (not just this page) when they share one currency, 0 when none are outstanding, ' +
              'and null when they span several currencies; `outstandingByCurrency` always gives the sum per currency. `claimCount` counts every claim in every status. An address with no claims gives an empty listing, not 404.' +
              SANDBOX,
            params: AddressParams,
            querystring: ListQuery,
            response: { 200: DebtorListing },
          },
        },
        async (req) => {
          const r = await svc.list('debtor', req.params.address, req.query.limit ?? 50, req.query.cursor);
          const byCurrency: Record<string, ExactDecimal> = {};
          const byCurrencyExact: Record<string, string> = {};
          for (const o of r.outstanding) {
            byCurrency[o.currency] = new ExactDecimal(o.total);
            byCurrencyExact[o.currency] = o.total;
          }
          const total = r.outstanding.length === 0 ? '0' : r.outstanding.length === 1 ? r.outstanding[0].total : null;
          return {
            debtorAddress: toChecksum(r.address),
            totalOutstandingDebt: total === null ? null : new ExactDecimal(total),
            totalOutstandingDebtExact: total,
            outstandingByCurrency: byCurrency,
            outstandingByCurrencyExact: byCurrencyExact,
            claimCount: r.count,
            claims: r.rows.map((row) => ({ ...summary(row), creditorAddress: toChecksum(row.creditor_address) })),
            nextCursor: r.nextCursor,
            hasMore: r.nextCursor !== null,
          } as never;
        },
      );

      s.get(
        '/debt-claims/creditor/:address',
        {
          config: { auth: 'public', sandbox: true },
          schema: {
            operationId: 'debtClaims.listByCreditor',
            tags: TAGS,
            summary: 'Claims filed by a creditor',
            description:
              'Claims the wallet filed, newest first, paged with `limit` (1-100, default 50) and `cursor`. `claimCount` counts every claim in every status.' +
              SANDBOX,
            params: AddressParams,
            querystring: ListQuery,
            response: { 200: CreditorListing },
          },
        },
        async (req) => {
          const r = await svc.list('creditor', req.params.address, req.query.limit ?? 50, req.query.cursor);
          return {
            creditorAddress: toChecksum(r.address),
            claimCount: r.count,
            claims: r.rows.map((row) => ({ ...summary(row), debtorAddress: toChecksum(row.debtor_address) })),
            nextCursor: r.nextCursor,
            hasMore: r.nextCursor !== null,
          } as never;
        },
      );

      s.post(
        '/debt-claims/:id/dispute',
        {
          config: { auth: 'optionalJwt', sandbox: true },
          schema: {
            operationId: 'debtClaims.disputeClaim',
            tags: TAGS,
            summary: 'Debtor disputes a claim',
            description:
              "Pending -> Disputed, by the debtor only: `debtorAddress` must be the claim's debtor (else 403). Any other state: 409. " +
              `The reason is stored as resolutionNotes; updatedAt is set. While Disputed the claim's score impact is paused; disputed within the notice period ` +
              `(verification.noticeEndsAt) the claim never counts unless an admin resolves it for the creditor. ${OWNERSHIP}`,
            params: IdParams,
            body: DisputeClaimBody,
            response: { 200: DisputeClaimResponse, ...errorResponses(403, 409) },
          },
        },
        async (req) => {
          const r = await svc.dispute(req.params.id, req.body, { ip: req.ip, user: req.user });
          return { id: r.id, status: 'Disputed', resolutionNotes: r.resolution_notes, updatedAt: r.updated_at } as never;
        },
      );

      s.post(
        '/debt-claims/:id/resolve',
        {
          config: { auth: 'admin', sandbox: true },
          schema: {
            operationId: 'debtClaims.resolveClaim',
            tags: TAGS,
            summary: 'Admin resolves a claim',
            description:
              'Admin only (JWT with the admin role: 401 without a JWT, 403 for a non-admin). Disputed -> Resolved, and also Pending -> Resolved directly ' +
              '(an admin may settle an undisputed claim). Resolved or Withdrawn claims: 409. `inFavorOf` (default creditor) drives the score: ' +
              "creditor = the debt is confirmed, a significant negative impact on the debtor's DEFI_LENDING score; debtor = the claim's negative impact is removed. " +
              'resolvedAt and updatedAt are set; the action is written to the audit log.' +
              SANDBOX,
            params: IdParams,
            body: ResolveClaimBody,
            response: { 200: ResolveClaimResponse, ...errorResponses(409) },
          },
        },
        async (req) => {
          const r = await svc.resolve(req.params.id, req.body, req.user!);
          return {
            id: r.id,
            status: 'Resolved',
            resolutionNotes: r.resolution_notes,
            inFavorOf: r.in_favor_of,
            resolvedAt: r.resolved_at,
            updatedAt: r.updated_at,
          } as never;
        },
      );

      s.post(
        '/debt-claims/:id/withdraw',
        {
          config: { auth: 'optionalJwt', sandbox: true },
          schema: {
            operationId: 'debtClaims.withdrawClaim',
            tags: TAGS,
            summary: 'Creditor withdraws a claim',
            description:
              "Pending -> Withdrawn, by the creditor only: `creditorAddress` must be the claim's creditor (else 403). Any other state (Disputed, Resolved, Withdrawn): 409. " +
              "resolvedAt and updatedAt are set. A withdrawn claim has no score impact but stays on record: withdrawing and re-filing does not reset the debtor's history. " +
              OWNERSHIP,
            params: IdParams,
            body: WithdrawClaimBody,
            response: { 200: WithdrawClaimResponse, ...errorResponses(403, 409) },
          },
        },
        async (req) => {
          const r = await svc.withdraw(req.params.id, req.body, { ip: req.ip, user: req.user });
          return { id: r.id, status: 'Withdrawn', updatedAt: r.updated_at, resolvedAt: r.resolved_at } as never;
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
