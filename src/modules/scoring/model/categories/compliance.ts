// COMPLIANCE: sanctions screening first, then KYC and an established history.
import type { WalletFeatures } from '../../contracts.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, sumPoints, toScore, type CategoryResult, type Term } from '../terms.js';
import { fingerprint, sat } from '../transforms.js';
import { plural, result, type ModelSignals } from './shared.js';

function latestEvidence(f: WalletFeatures): Date | null | undefined {
  if (!f.evidenceAt) return undefined;
  // the first of the latest, compared as numbers (a Date's > goes through valueOf on every comparison)
  let best: Date | null = null;
  let bestAt = 0;
  for (const d of Object.values(f.evidenceAt)) {
    if (!d) continue;
    const at = d.getTime();
    if (!best || at > bestAt) {
      best = d;
      bestAt = at;
    }
  }
  return best;
}

/**
 * Sanctions screening first: a listed wallet scores 0 whatever else is true. A wallet screened clean starts at
 * 500 (Medium: nothing against it, but nothing for it either); unscreened (no list loaded) starts at 300.
 * KYC and an established on-chain history raise it; a rejected KYC lowers it.
 */
export function compliance(f: WalletFeatures, s: ModelSignals, P: ModelParams): CategoryResult {
  const K = P.compliance;
  const c = s.compliance;
  const terms: Term[] = [];
  if (c.sanctioned === false) terms.push({ code: 'SANCTIONS_CLEAR', description: 'not on the OFAC SDN list', points: K.sanctionsClear });
  else if (c.sanctioned === null)
    terms.push({
      code: 'SANCTIONS_UNSCREENED',
      description: 'no sanctions list loaded: screening not possible yet',
      points: K.sanctionsUnscreened,
    });
  if (c.kycStatus === 'approved')
    terms.push({
      code: 'KYC_APPROVED',
      description: `KYC approved (level ${c.kycLevel === 'full' ? 'full' : 'basic'})`,
      points: c.kycLevel === 'full' ? K.kycFull : K.kycBasic,
    });
  else if (c.kycStatus === 'pending')
    terms.push({ code: 'KYC_PENDING', description: 'KYC session started, not yet decided', points: K.kycPending });
  else if (c.kycStatus === 'rejected') terms.push({ code: 'KYC_REJECTED', description: 'KYC rejected', points: K.kycRejected });
  if (f.activeMonths > 0)
    terms.push({
      code: 'ESTABLISHED_HISTORY',
      description: `on-chain history over ${plural(f.activeMonths, 'month')}`,
      points: K.history.points * sat(f.activeMonths, K.history.k),
    });
  const kycDecided = c.kycStatus === 'approved' || c.kycStatus === 'rejected';
  const screened = c.sanctioned !== null;
  let conf = confidenceOf(
    (screened ? 1 : 0) + (kycDecided ? 1 : 0) + (f.activeMonths > 0 ? 1 : 0),
    K.confidenceK,
    [screened, kycDecided, f.activeMonths > 0],
    f.chains.length,
  );
  const offchain = `${c.sanctioned},${c.kycStatus},${c.kycLevel}`;
  if (c.sanctioned === true) {
    // What the hit cost: the score this wallet would have if screened clean (the SANCTIONS_CLEAR baseline included)
    const wouldBe = toScore(sumPoints(terms) + K.sanctionsClear);
    // A match on the list is decisive evidence on its own.
    conf = 0.95;
    const factors = [
      { code: 'SANCTIONED', description: `address is on the OFAC SDN list (${wouldBe} points below the clean baseline)`, impact: -wouldBe },
    ];
    const at = latestEvidence(f);
    return {
      category: 'COMPLIANCE',
      score: 0,
      conduct: 0,
      backingUsd: null,
      confidence: conf,
      factors,
      ...(at !== undefined ? { evidenceAt: at } : {}),
      inputsKey: fingerprint(`${f.activeMonths}`) + fingerprint(offchain),
      offchainKey: fingerprint(offchain),
    };
  }
  return result(
    'COMPLIANCE',
    terms,
    conf,
    `${f.activeMonths}`,
    offchain,
    { code: 'NO_COMPLIANCE_EVIDENCE', description: 'no compliance evidence' },
    latestEvidence(f),
    null,
  );
}
