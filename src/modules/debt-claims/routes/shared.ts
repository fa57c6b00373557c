// What the debt-claims route files share: the exact-decimal JSON of their scope, the response bodies built from
// claim rows, the create body's extra checks and the texts several descriptions repeat.
import type { FastifyRequest } from 'fastify';
import type { App } from '../../../platform/http/types.js';
import { badRequest, type FieldError } from '../../../platform/errors.js';
import { toChecksum } from '../../../platform/http/address.js';
import { ExactDecimal, parseJsonKeepingDecimals, stringifyExact } from '../decimal.js';
import type { ClaimRow } from '../repo.js';
import { createBodyProblems, verificationOf, type DebtClaimsService } from '../service.js';

export const TAGS = ['Debt claims'];

export const STATE_RULES =
  'States: Pending -> Disputed (debtor) | Withdrawn (creditor) | Resolved (admin); Disputed -> Resolved (admin). ' +
  'Resolved and Withdrawn are final. A transition from any other state gets 409; two concurrent transitions of one claim never both succeed.';

export const SANDBOX =
  ' Test mode: a request with test credentials (a cred_test_ key in X-API-Key, or a JWT signed in with `environment: "test"`) works on ' +
  'test claims only: it files test claims, lists and acts on test claims, and a live claim is 404 to it (and a test claim to live callers). ' +
  'Test claims never count in any score and their `debt_claim.filed` notice goes only to test webhooks and test hub connections.';

export const OWNERSHIP =
  'No credentials are needed, but when the request carries a JWT its subject must be the acting wallet, else 403; ' +
  'with CREDENCE_STRICT_OWNERSHIP=true the JWT is mandatory (401 without).' +
  SANDBOX;

/** JSON in this scope keeps `amount` exact when parsed and writes exact decimals as JSON numbers. */
export function exactDecimalJson(s: App): void {
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
}

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

type Listing = Awaited<ReturnType<DebtClaimsService['list']>>;

/** A debtor's page of claims with its outstanding totals (exact, per currency and, when one currency, in all). */
export function debtorListing(r: Listing) {
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
  };
}

export function creditorListing(r: Listing) {
  return {
    creditorAddress: toChecksum(r.address),
    claimCount: r.count,
    claims: r.rows.map((row) => ({ ...summary(row), debtorAddress: toChecksum(row.debtor_address) })),
    nextCursor: r.nextCursor,
    hasMore: r.nextCursor !== null,
  };
}

/** Adds the checks a schema cannot make to Ajv's, so one 400 lists every offending field. */
export function validateCreate(req: FastifyRequest) {
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
