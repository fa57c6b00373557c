// POST /debt-claims: a creditor files a claim against a debtor.
import type { App } from '../../../platform/http/types.js';
import { errorResponses } from '../../../platform/openapi.js';
import { PENDING_CAP, PENDING_PER_CREDITOR, UNVERIFIED_CAP, UNVERIFIED_PER_CREDITOR } from '../../scoring/contracts.js';
import { createBodyProblems, type DebtClaimsService } from '../service.js';
import { Claim, CreateClaimBody } from '../schemas.js';
import { OWNERSHIP, TAGS, toClaim, validateCreate } from './shared.js';

export function createClaim(s: App, svc: DebtClaimsService): void {
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
}
