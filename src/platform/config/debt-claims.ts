// Debt claims: abuse limits on filing, and when a claim counts (docs/debt-claims.md says why these defaults).
import { int, type Env } from './env.js';

export interface DebtClaimSettings {
  /** Debt claims filed per minute, per client IP and per creditor address (abuse limits). */
  claimsPerIpPerMinute: number;
  claimsPerCreditorPerMinute: number;
  /** Hours a debtor has to dispute a new claim before it counts; the least age (hours) and USD value of the
   *  evidence transaction's principal. */
  claimNoticeHours: number;
  claimMinEvidenceAgeHours: number;
  claimMinPrincipalUsd: number;
}

export function debtClaimSettings(env: Env): DebtClaimSettings {
  return {
    claimsPerIpPerMinute: int(env, 'CREDENCE_CLAIMS_PER_IP_PER_MINUTE', 30, 1, 1_000_000),
    claimsPerCreditorPerMinute: int(env, 'CREDENCE_CLAIMS_PER_CREDITOR_PER_MINUTE', 10, 1, 1_000_000),
    claimNoticeHours: int(env, 'CREDENCE_CLAIM_NOTICE_HOURS', 336, 0, 8_760),
    claimMinEvidenceAgeHours: int(env, 'CREDENCE_CLAIM_MIN_EVIDENCE_AGE_HOURS', 168, 0, 87_600),
    claimMinPrincipalUsd: int(env, 'CREDENCE_CLAIM_MIN_PRINCIPAL_USD', 100, 0, 1_000_000_000),
  };
}
