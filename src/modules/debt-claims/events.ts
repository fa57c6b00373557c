// The debtor is told of a claim against it: a `debt_claim.filed` webhook event, written to the outbox in
// the transaction that stores the claim (durable, at-least-once like `score.updated`), and a best-effort push to
// hub clients subscribed to the debtor (`DebtClaimFiled`). The claim counts only after the notice period it names.
import { toChecksum } from '../../platform/http/address.js';
import type { WalletEvent } from '../scoring/contracts.js';
import type { ClaimRow } from './repo.js';

export const DEBT_CLAIM_FILED = 'debt_claim.filed';

/** What the debtor needs to act before the claim counts: who claims what, and until when it can dispute. */
export function filedEventData(r: ClaimRow) {
  return {
    claimId: r.id,
    debtorAddress: toChecksum(r.debtor_address),
    creditorAddress: toChecksum(r.creditor_address),
    claimType: r.claim_type,
    amount: r.amount,
    currency: r.currency,
    chainId: r.chain_id,
    evidenceTransactionHash: r.evidence_transaction_hash,
    protocolName: r.protocol_name,
    createdAt: r.created_at,
    noticeEndsAt: r.notice_ends_at,
    disputeUrl: `/api/v1/debt-claims/${r.id}/dispute`,
  };
}

export function filedEvent(r: ClaimRow): WalletEvent {
  return { event: DEBT_CLAIM_FILED, address: r.debtor_address, category: 'DEFI_LENDING', timestamp: r.created_at, data: filedEventData(r) };
}
