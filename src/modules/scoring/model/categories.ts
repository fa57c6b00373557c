// The eight independent categories of model v1. Each is a sum of bounded, monotone terms
// (max points x 1 - e^(-feature/k)); the maxima of a category's positive terms add up to 1000.
// docs/scoring-model.md explains every term, its constants and why.
import type { ComplianceSignal, IdentitySignal, WalletFeatures } from '../contracts.js';
import { claimsKey, claimTerms, type ClaimSummary } from './debt-claims.js';
import { confidenceOf, sumPoints, toScore, topFactors, type CategoryResult, type Term } from './terms.js';
import { clamp, fingerprint, sat } from './transforms.js';

export interface ModelSignals {
  claims: ClaimSummary;
  claimsKey: string;
  compliance: ComplianceSignal;
  identity: IdentitySignal;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function result(
  category: CategoryResult['category'],
  terms: Term[],
  conf: number,
  inputs: string,
  offchain: string,
  empty: { code: string; description: string },
): CategoryResult {
  const offchainKey = offchain === '' ? '' : fingerprint(offchain);
  return {
    category,
    score: toScore(sumPoints(terms)),
    confidence: conf,
    factors: topFactors(terms, empty),
    inputsKey: fingerprint(inputs) + offchainKey,
    offchainKey,
  };
}

export function lending(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const l = f.lending;
  const events = l.supplies + l.borrows + l.repays + l.liquidations;
  const terms: Term[] = [];
  if (l.repays > 0) terms.push({ code: 'LOAN_REPAYMENTS', description: `${plural(l.repays, 'loan repayment')}`, points: 300 * sat(l.repays, 5) });
  if (l.borrows > 0) {
    const ratio = clamp(l.repays / l.borrows, 0, 1);
    terms.push({ code: 'REPAYMENT_RATIO', description: `${Math.round(ratio * 100)}% of ${plural(l.borrows, 'borrow')} matched by repayments`, points: 200 * ratio });
  }
  if (l.supplies > 0) terms.push({ code: 'COLLATERAL_SUPPLIED', description: `${plural(l.supplies, 'supply', 'supplies')} to lending pools`, points: 150 * sat(l.supplies, 5) });
  if (l.protocols > 0) terms.push({ code: 'LENDING_PROTOCOLS', description: `used ${plural(l.protocols, 'lending protocol')}`, points: 100 * sat(l.protocols, 2) });
  if (events > 0) {
    terms.push({ code: 'ACCOUNT_TENURE', description: `active in ${plural(f.activeMonths, 'month')}`, points: 100 * sat(f.activeMonths, 12) });
    if (l.liquidations === 0 && s.claims.upheld === 0) terms.push({ code: 'CLEAN_CREDIT_RECORD', description: 'no liquidations and no upheld debt claims', points: 150 });
  }
  if (l.liquidations > 0) terms.push({ code: 'LIQUIDATIONS', description: `${plural(l.liquidations, 'liquidation')} of borrowed positions`, points: -350 * sat(l.liquidations, 1.5) });
  terms.push(...claimTerms(s.claims));
  const c = s.claims;
  const claimEvidence = c.pending + c.disputed + c.upheld + c.dismissed;
  const conf = confidenceOf(events + claimEvidence, 10, [l.supplies > 0, l.borrows > 0, l.repays > 0, l.liquidations > 0, l.protocols >= 2, claimEvidence > 0], f.chains.length);
  return result('DEFI_LENDING', terms, conf, `${l.supplies},${l.borrows},${l.repays},${l.liquidations},${l.protocols},${f.activeMonths}`, s.claimsKey, {
    code: 'NO_LENDING_HISTORY',
    description: 'no lending activity found on supported chains',
  });
}

export function trading(f: WalletFeatures): CategoryResult {
  const t = f.trading;
  const terms: Term[] = [];
  if (t.swaps > 0) {
    terms.push({ code: 'SWAP_VOLUME', description: plural(t.swaps, 'swap'), points: 400 * sat(t.swaps, 20) });
    terms.push({ code: 'TRADING_DAYS', description: `swapped on ${plural(t.activeDays, 'distinct day')}`, points: 200 * sat(t.activeDays, 10) });
    terms.push({ code: 'POOL_DIVERSITY', description: `traded in ${plural(t.distinctPools, 'pool')}`, points: 200 * sat(t.distinctPools, 5) });
    terms.push({ code: 'DEX_PROTOCOLS', description: `used ${plural(t.protocols, 'exchange protocol')}`, points: 100 * sat(t.protocols, 2) });
  }
  if (f.distinctTokens > 0) terms.push({ code: 'TOKEN_DIVERSITY', description: `held or moved ${plural(f.distinctTokens, 'token')}`, points: 100 * sat(f.distinctTokens, 10) });
  const conf = confidenceOf(t.swaps, 20, [t.swaps > 0, t.distinctPools >= 2, t.protocols >= 2, t.activeDays >= 2, f.distinctTokens >= 2], f.chains.length);
  return result('DEFI_TRADING', terms, conf, `${t.swaps},${t.distinctPools},${t.protocols},${t.activeDays},${f.distinctTokens}`, '', {
    code: 'NO_TRADING_HISTORY',
    description: 'no swaps found on supported chains',
  });
}

export function governance(f: WalletFeatures): CategoryResult {
  const g = f.governance;
  const terms: Term[] = [];
  if (g.votes > 0) terms.push({ code: 'GOVERNANCE_VOTES', description: `cast ${plural(g.votes, 'vote')}`, points: 350 * sat(g.votes, 10) });
  if (g.proposalsVotedOn > 0) terms.push({ code: 'PROPOSALS_VOTED', description: `voted on ${plural(g.proposalsVotedOn, 'proposal')}`, points: 200 * sat(g.proposalsVotedOn, 10) });
  if (g.governors > 0) terms.push({ code: 'DAOS_PARTICIPATED', description: `took part in ${plural(g.governors, 'governor')}`, points: 150 * sat(g.governors, 2) });
  if (g.delegationsMade > 0) terms.push({ code: 'DELEGATED_VOTES', description: `made ${plural(g.delegationsMade, 'delegation')}`, points: 100 * sat(g.delegationsMade, 2) });
  if (g.delegationsReceived > 0) terms.push({ code: 'DELEGATE_TRUST', description: `received ${plural(g.delegationsReceived, 'delegation')}`, points: 200 * sat(g.delegationsReceived, 3) });
  const ev = g.votes + g.delegationsMade + g.delegationsReceived;
  const conf = confidenceOf(ev, 8, [g.votes > 0, g.governors >= 2, g.delegationsMade > 0, g.delegationsReceived > 0], f.chains.length);
  return result('GOVERNANCE', terms, conf, `${g.votes},${g.proposalsVotedOn},${g.governors},${g.delegationsMade},${g.delegationsReceived}`, '', {
    code: 'NO_GOVERNANCE_ACTIVITY',
    description: 'no governance votes or delegations found',
  });
}

export function nft(f: WalletFeatures): CategoryResult {
  const n = f.nft;
  const acquired = n.mints + n.received;
  const terms: Term[] = [];
  if (n.collections > 0) terms.push({ code: 'NFT_COLLECTIONS', description: `interacted with ${plural(n.collections, 'collection')}`, points: 350 * sat(n.collections, 5) });
  if (n.mints > 0) terms.push({ code: 'NFT_MINTS', description: `minted ${plural(n.mints, 'NFT')}`, points: 250 * sat(n.mints, 5) });
  if (n.received > 0) terms.push({ code: 'NFTS_RECEIVED', description: `received ${plural(n.received, 'NFT')}`, points: 200 * sat(n.received, 10) });
  if (acquired > 0) {
    const kept = clamp(1 - n.sent / acquired, 0, 1);
    terms.push({ code: 'NFT_RETENTION', description: `kept ${Math.round(kept * 100)}% of acquired NFTs`, points: 200 * kept });
  }
  const conf = confidenceOf(acquired + n.sent, 10, [n.mints > 0, n.received > 0, n.collections >= 2, n.sent > 0], f.chains.length);
  return result('NFT', terms, conf, `${n.mints},${n.received},${n.sent},${n.collections}`, '', { code: 'NO_NFT_ACTIVITY', description: 'no NFT transfers or mints found' });
}

export function identity(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const id = s.identity;
  const kyc = s.compliance;
  const i = f.identity;
  const terms: Term[] = [];
  if (id.hasDid) terms.push({ code: 'DID_REGISTERED', description: `registered DID ${id.did ?? ''}`.trim(), points: 250 });
  if (id.activeCredentials > 0) terms.push({ code: 'VERIFIABLE_CREDENTIALS', description: `${plural(id.activeCredentials, 'active credential')}`, points: 200 * sat(id.activeCredentials, 2) });
  if (kyc.kycStatus === 'approved') {
    terms.push({ code: 'KYC_VERIFIED', description: `identity verified (KYC level ${kyc.kycLevel === 'full' ? 'full' : 'basic'})`, points: kyc.kycLevel === 'full' ? 300 : 200 });
  } else if (kyc.kycStatus === 'rejected') {
    terms.push({ code: 'KYC_REJECTED', description: 'identity verification was rejected', points: -150 });
  }
  if (i.ensNames > 0) terms.push({ code: 'ENS_NAME', description: `${plural(i.ensNames, 'ENS name')} registered`, points: 150 * sat(i.ensNames, 1) });
  if (i.attestationsReceived > 0) terms.push({ code: 'ATTESTATIONS_RECEIVED', description: `${plural(i.attestationsReceived, 'attestation')} about this wallet`, points: 100 * sat(i.attestationsReceived, 3) });
  const kycDecided = kyc.kycStatus === 'approved' || kyc.kycStatus === 'rejected';
  const ev = (id.hasDid ? 1 : 0) + id.activeCredentials + (kycDecided ? 1 : 0) + i.ensNames + i.attestationsReceived;
  const conf = confidenceOf(ev, 3, [id.hasDid, id.activeCredentials > 0, kycDecided, i.ensNames > 0, i.attestationsReceived > 0], f.chains.length);
  const offchain = `${id.hasDid ? id.did : ''},${id.activeCredentials},${kyc.kycStatus},${kyc.kycLevel}`;
  return result('IDENTITY', terms, conf, `${i.ensNames},${i.attestationsReceived}`, offchain, {
    code: 'NO_IDENTITY_EVIDENCE',
    description: 'no DID, credentials, KYC, ENS name or attestations',
  });
}

export function social(f: WalletFeatures): CategoryResult {
  const terms: Term[] = [];
  if (f.distinctCounterparties > 0) terms.push({ code: 'COUNTERPARTIES', description: `transacted with ${plural(f.distinctCounterparties, 'distinct address', 'distinct addresses')}`, points: 400 * sat(f.distinctCounterparties, 25) });
  if (f.tokenTransfers > 0) terms.push({ code: 'TOKEN_TRANSFERS', description: plural(f.tokenTransfers, 'token transfer'), points: 150 * sat(f.tokenTransfers, 50) });
  if (f.activeMonths > 0) terms.push({ code: 'ACTIVE_MONTHS', description: `active in ${plural(f.activeMonths, 'month')}`, points: 150 * sat(f.activeMonths, 12) });
  if (f.identity.attestationsMade > 0) terms.push({ code: 'ATTESTATIONS_MADE', description: `made ${plural(f.identity.attestationsMade, 'attestation')} about others`, points: 150 * sat(f.identity.attestationsMade, 3) });
  if (f.governance.delegationsReceived > 0) terms.push({ code: 'TRUSTED_BY_DELEGATORS', description: `${plural(f.governance.delegationsReceived, 'wallet')} delegated to it`, points: 150 * sat(f.governance.delegationsReceived, 3) });
  const ev = f.distinctCounterparties + f.identity.attestationsMade + f.governance.delegationsReceived;
  const conf = confidenceOf(ev, 30, [f.distinctCounterparties > 0, f.tokenTransfers > 0, f.identity.attestationsMade > 0, f.governance.delegationsReceived > 0, f.activeMonths >= 3], f.chains.length);
  return result('SOCIAL', terms, conf, `${f.distinctCounterparties},${f.tokenTransfers},${f.activeMonths},${f.identity.attestationsMade},${f.governance.delegationsReceived}`, '', {
    code: 'NO_SOCIAL_GRAPH',
    description: 'no counterparties or attestations found',
  });
}

export function developer(f: WalletFeatures): CategoryResult {
  const d = f.developer;
  const terms: Term[] = [];
  if (d.contractsDeployed > 0) terms.push({ code: 'CONTRACTS_DEPLOYED', description: `deployed ${plural(d.contractsDeployed, 'contract')}`, points: 450 * sat(d.contractsDeployed, 5) });
  if (d.contractsWithCode > 0) terms.push({ code: 'LIVE_CONTRACTS', description: `${plural(d.contractsWithCode, 'deployed contract')} still holding code`, points: 350 * sat(d.contractsWithCode, 3) });
  if (f.txCount > 0) terms.push({ code: 'TRANSACTIONS_SENT', description: `sent ${plural(f.txCount, 'transaction')}`, points: 200 * sat(f.txCount, 200) });
  const conf = confidenceOf(d.contractsDeployed, 5, [d.contractsDeployed > 0, d.contractsWithCode > 0, f.txCount >= 10], f.chains.length);
  return result('DEVELOPER', terms, conf, `${d.contractsDeployed},${d.contractsWithCode},${f.txCount}`, '', {
    code: 'NO_CONTRACTS_DEPLOYED',
    description: 'no contract deployments found',
  });
}

/**
 * Sanctions screening first: a listed wallet scores 0 whatever else is true. A wallet screened clean starts at
 * 500 (Medium: nothing against it, but nothing for it either); unscreened (no list loaded) starts at 300.
 * KYC and an established on-chain history raise it; a rejected KYC lowers it.
 */
export function compliance(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const c = s.compliance;
  const terms: Term[] = [];
  if (c.sanctioned === false) terms.push({ code: 'SANCTIONS_CLEAR', description: 'not on the OFAC SDN list', points: 500 });
  else if (c.sanctioned === null) terms.push({ code: 'SANCTIONS_UNSCREENED', description: 'no sanctions list loaded: screening not possible yet', points: 300 });
  if (c.kycStatus === 'approved') terms.push({ code: 'KYC_APPROVED', description: `KYC approved (level ${c.kycLevel === 'full' ? 'full' : 'basic'})`, points: c.kycLevel === 'full' ? 350 : 250 });
  else if (c.kycStatus === 'pending') terms.push({ code: 'KYC_PENDING', description: 'KYC session started, not yet decided', points: 50 });
  else if (c.kycStatus === 'rejected') terms.push({ code: 'KYC_REJECTED', description: 'KYC rejected', points: -300 });
  if (f.activeMonths > 0) terms.push({ code: 'ESTABLISHED_HISTORY', description: `on-chain history over ${plural(f.activeMonths, 'month')}`, points: 150 * sat(f.activeMonths, 12) });
  const kycDecided = c.kycStatus === 'approved' || c.kycStatus === 'rejected';
  const screened = c.sanctioned !== null;
  let conf = confidenceOf((screened ? 1 : 0) + (kycDecided ? 1 : 0) + (f.activeMonths > 0 ? 1 : 0), 2, [screened, kycDecided, f.activeMonths > 0], f.chains.length);
  const offchain = `${c.sanctioned},${c.kycStatus},${c.kycLevel}`;
  if (c.sanctioned === true) {
    const wouldBe = toScore(sumPoints(terms));
    // A match on the list is decisive evidence on its own.
    conf = 0.95;
    const factors = [{ code: 'SANCTIONED', description: 'address is on the OFAC SDN list', impact: -wouldBe }];
    return { category: 'COMPLIANCE', score: 0, confidence: conf, factors, inputsKey: fingerprint(`${f.activeMonths}`) + fingerprint(offchain), offchainKey: fingerprint(offchain) };
  }
  return result('COMPLIANCE', terms, conf, `${f.activeMonths}`, offchain, { code: 'NO_COMPLIANCE_EVIDENCE', description: 'no compliance evidence' });
}

export { claimsKey };
