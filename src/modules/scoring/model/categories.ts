// The eight independent categories of model 3.0.0. Each is a sum of bounded, monotone terms (saturating counts,
// logarithmic USD values); the maxima of a category's positive terms add up to 1000, and an activity category's
// positive points never exceed what its measured cost backs (cost-ceiling.ts). Features come only from the
// registry's pinned contracts, by value, with self-dealing removed (ingestion). docs/scoring-model.md explains
// every term, its constants and why.
import type { ComplianceSignal, IdentitySignal, WalletFeatures } from '../contracts.js';
import { claimsKey, claimTerms, type ClaimSummary } from './debt-claims.js';
import { EMPTY_POSITIONS, UNVALUED_EVENT_USD } from './lending-positions.js';
import { ceilingTerm, measuredCosts } from './cost-ceiling.js';
import { confidenceOf, sumPoints, toScore, topFactors, type CategoryResult, type Term } from './terms.js';
import { clamp, fingerprint, logCap, sat } from './transforms.js';

/** An event with no known price counts as one worth this many USD (defined with the lending positions). */
export { UNVALUED_EVENT_USD };
/** At most this many unvalued events of one kind count (a loop of priced-unknown assets is bounded at $1,000). */
export const UNVALUED_MAX_EVENTS = 10;
const unvaluedUsd = (n: number) => UNVALUED_EVENT_USD * Math.min(n, UNVALUED_MAX_EVENTS);
type EvidenceKey = keyof NonNullable<WalletFeatures['evidenceAt']>;
/** The category's decay anchor: its own latest pinned evidence (undefined: the features carry none, legacy). */
const anchor = (f: WalletFeatures, k: EvidenceKey) => (f.evidenceAt ? (f.evidenceAt[k] ?? null) : undefined);
const usd = (n: number) => `$${n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0)}`;
const r0 = (n: number) => Math.round(n);

export interface ModelSignals {
  claims: ClaimSummary;
  claimsKey: string;
  compliance: ComplianceSignal;
  identity: IdentitySignal;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Holds the terms' positive points to what the cost behind them backs (cost-ceiling.ts); the limit applied, if any,
 *  is part of the category's inputs (a dispute override lasts until it changes). */
function capped(terms: Term[], costUsd: number, what: string, unpriced = false): string {
  const t = ceilingTerm(terms, costUsd, what, unpriced);
  if (!t) return '';
  terms.push(t);
  return `,cap${Math.round(t.points)}`;
}

function result(
  category: CategoryResult['category'],
  terms: Term[],
  conf: number,
  inputs: string,
  offchain: string,
  empty: { code: string; description: string },
  evidenceAt?: Date | null,
): CategoryResult {
  const offchainKey = offchain === '' ? '' : fingerprint(offchain);
  return {
    category,
    score: toScore(sumPoints(terms)),
    confidence: conf,
    factors: topFactors(terms, empty),
    inputsKey: fingerprint(inputs) + offchainKey,
    offchainKey,
    ...(evidenceAt !== undefined ? { evidenceAt } : {}),
  };
}

/** log(1 + x/floor) / log(1 + cap/floor), 1 at the cap: below the floor a value is nearly nothing (cost, not rows). */
const logScale = (x: number, floor: number, cap: number) => (x <= 0 ? 0 : Math.min(1, Math.log1p(x / floor) / Math.log1p(cap / floor)));
/** Model 3.0.0 lending scales (docs/scoring-model.md): USD-days of debt and collateral, interest in USD. */
export const LENDING_SCALE = {
  debtUsdDays: { floor: 1_000, cap: 10_000_000 },
  collateralUsdDays: { floor: 1_000, cap: 100_000_000 },
  interestUsd: { floor: 10, cap: 1_000 },
} as const;
const days = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(Math.round(n)));

export function lending(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const l = f.lending;
  // model 3.0.0: credit only from positions held over time (lending-positions.ts); a round trip within one
  // transaction, block or day holds nothing and earns nothing, and what one day can earn is capped there
  const p = l.positions ?? EMPTY_POSITIONS;
  const S = LENDING_SCALE;
  const debt = logScale(p.debtUsdDays, S.debtUsdDays.floor, S.debtUsdDays.cap);
  const held = logScale(p.debtUsdDays + p.collateralUsdDays, S.debtUsdDays.floor, S.debtUsdDays.cap);
  const terms: Term[] = [];
  if (p.debtUsdDays > 0) {
    terms.push({ code: 'DEBT_CARRIED', description: `carried ${usd(p.debtUsdDays)}-days of debt`, points: 250 * debt });
    if (l.liquidations === 0 && s.claims.upheld === 0) {
      // only a wallet that carried debt has a credit record to be clean
      terms.push({ code: 'CLEAN_CREDIT_RECORD', description: 'carried debt with no liquidations and no upheld debt claims', points: 150 * debt });
    }
  }
  if (p.cycles > 0) {
    terms.push({ code: 'REPAYMENT_RECORD', description: `repaid ${plural(p.cycles, 'loan')} held a day or more, in ${plural(p.cycleMonths, 'distinct month')}`, points: 200 * sat(p.cycleMonths, 3) * debt });
    const avg = p.avgCycleDays ?? 0;
    const speed = avg <= 90 ? 1 : 90 / avg;
    terms.push({ code: 'TIME_TO_REPAY', description: `repaid on average ${Math.round(avg)} days after borrowing`, points: 50 * speed * debt });
  }
  if (p.interestUsd > 0) terms.push({ code: 'INTEREST_PAID', description: `paid ${usd(p.interestUsd)} of interest`, points: 100 * logScale(p.interestUsd, S.interestUsd.floor, S.interestUsd.cap) });
  if (p.collateralUsdDays > 0) terms.push({ code: 'COLLATERAL_HELD', description: `kept ${usd(p.collateralUsdDays)}-days of collateral in lending pools`, points: 100 * logScale(p.collateralUsdDays, S.collateralUsdDays.floor, S.collateralUsdDays.cap) });
  if (p.protocolsHeld > 0) terms.push({ code: 'LENDING_PROTOCOLS', description: `held positions in ${plural(p.protocolsHeld, 'lending protocol')}`, points: 50 * sat(p.protocolsHeld, 2) * held });
  if (p.spanDays > 0) terms.push({ code: 'LENDING_HISTORY', description: `held lending positions over ${days(p.spanDays)} days`, points: 100 * sat(p.spanDays, 365) * held });
  if (l.liquidations > 0) {
    const lost = l.liquidatedUsd ?? 0;
    terms.push({ code: 'LIQUIDATIONS', description: `${plural(l.liquidations, 'liquidation')} of borrowed positions${lost ? ` (${usd(lost)} of debt)` : ''}`, points: -(150 * sat(l.liquidations, 1.5) + 250 * logCap(lost, 100_000)) });
  }
  terms.push(...claimTerms(s.claims));
  const cap = capped(terms, measuredCosts(f).lending, 'own capital held in lending pools and interest paid');
  // evidence is what was held over time, not rows: a flash loop of a thousand events is no evidence; debt claims are
  // no evidence of the wallet's own activity and never raise confidence (model 3.0.0)
  const evidence = p.cycles + (p.debtUsdDays > 0 ? 1 : 0) + (p.collateralUsdDays > 0 ? 1 : 0) + l.liquidations;
  const conf = confidenceOf(evidence, 6, [p.collateralUsdDays > 0, p.debtUsdDays > 0, p.cycles > 0, p.interestUsd > 0, l.liquidations > 0, p.protocolsHeld >= 2], f.chains.length);
  const inputs = `${r0(p.debtUsdDays)},${r0(p.collateralUsdDays)},${r0(p.interestUsd)},${p.cycles},${p.cycleMonths},${p.avgCycleDays === null ? '' : Math.round(p.avgCycleDays * 10)},${p.protocolsHeld},${r0(p.spanDays)},${l.liquidations},${r0(l.liquidatedUsd ?? 0)}${cap}`;
  return result('DEFI_LENDING', terms, conf, inputs, s.claimsKey, { code: 'NO_LENDING_HISTORY', description: 'no lending position held over time on supported chains' }, anchor(f, 'lending'));
}

/** Pool fees (USD) from which DEFI_TRADING's breadth terms count in full (a modest year of trading pays ~$100). */
export const FULL_BREADTH_FEES_USD = 50;

export function trading(f: WalletFeatures): CategoryResult {
  const t = f.trading;
  // volume on verified, allowlisted pools only; unvalued swaps at UNVALUED_EVENT_USD; dust never got here
  const volume = (t.volumeUsd ?? 0) + unvaluedUsd(t.unvaluedSwaps ?? (t.volumeUsd === undefined ? t.swaps : 0));
  // model 3.0.0: what the swaps cost, in fees paid to liquidity others provided (volume x the pool's fee tier, round
  // trips netted out per pair and day, capped per day: ingestion); features without it count volume at 0.3%
  const fees = t.feesUsd ?? volume * 0.003;
  // breadth (days, pools, venues, tokens) counts in proportion to the fees paid, in full from FULL_BREADTH_FEES_USD:
  // many days of crumbs through many pools cost only gas
  const paid = Math.min(1, fees / FULL_BREADTH_FEES_USD);
  const terms: Term[] = [];
  if (t.swaps > 0 && fees > 0) {
    terms.push({ code: 'FEES_PAID', description: `${plural(t.swaps, 'swap')} worth ${usd(volume)}, ${usd(fees)} of pool fees paid`, points: 500 * logCap(fees, 1_000) });
    terms.push({ code: 'TRADING_DAYS', description: `swapped on ${plural(t.activeDays, 'distinct day')}`, points: 200 * sat(t.activeDays, 10) * paid });
    terms.push({ code: 'POOL_DIVERSITY', description: `traded in ${plural(t.distinctPools, 'pool')}`, points: 100 * sat(t.distinctPools, 5) * paid });
    terms.push({ code: 'DEX_PROTOCOLS', description: `used ${plural(t.protocols, 'exchange protocol')}`, points: 100 * sat(t.protocols, 2) * paid });
    if (f.distinctTokens > 0) terms.push({ code: 'TOKEN_DIVERSITY', description: `held or moved ${plural(f.distinctTokens, 'token')}`, points: 100 * sat(f.distinctTokens, 10) * paid });
  }
  const cap = capped(terms, fees, 'pool fees paid to others\' liquidity');
  const conf = confidenceOf(t.swaps, 20, [t.swaps > 0, t.distinctPools >= 2, t.protocols >= 2, t.activeDays >= 2, f.distinctTokens >= 2], f.chains.length);
  return result('DEFI_TRADING', terms, conf, `${t.swaps},${t.distinctPools},${t.protocols},${t.activeDays},${t.swaps > 0 ? f.distinctTokens : 0},${r0(volume)},${Math.round(fees * 100)}${cap}`, '', {
    code: 'NO_TRADING_HISTORY',
    description: 'no swaps found on supported chains',
  }, anchor(f, 'trading'));
}

export function governance(f: WalletFeatures): CategoryResult {
  const g = f.governance;
  const terms: Term[] = [];
  // model 3.0.0: voting power, not vote count. Votes on pinned DAO governors at or above the floor, each weighing
  // 0-1 by the votes held at the proposal's snapshot (ingestion; features without it: half weight each); proposals
  // and DAOs count in proportion to that power; delegations received by the votes they moved, never to oneself
  const power = g.votePower ?? g.votes * 0.5;
  const share = Math.min(1, power / 3);
  const trust = g.delegatedPower ?? g.delegationsReceived * 0.5;
  if (g.votes > 0) terms.push({ code: 'VOTING_POWER', description: `cast ${plural(g.votes, 'vote')} with voting power (weight ${power.toFixed(1)})`, points: 450 * sat(power, 5) });
  if (g.proposalsVotedOn > 0) terms.push({ code: 'PROPOSALS_VOTED', description: `voted on ${plural(g.proposalsVotedOn, 'proposal')}`, points: 150 * sat(g.proposalsVotedOn, 10) * share });
  if (g.governors > 0) terms.push({ code: 'DAOS_PARTICIPATED', description: `took part in ${plural(g.governors, 'DAO governor')}`, points: 150 * sat(g.governors, 2) * share });
  if (g.delegationsMade > 0) terms.push({ code: 'DELEGATED_VOTES', description: `delegated to others ${plural(g.delegationsMade, 'time')}`, points: 50 * sat(g.delegationsMade, 2) });
  if (g.delegationsReceived > 0) terms.push({ code: 'DELEGATE_TRUST', description: `received ${plural(g.delegationsReceived, 'delegation')} that moved votes (weight ${trust.toFixed(1)})`, points: 200 * sat(trust, 2) });
  const cap = capped(terms, measuredCosts(f).governance, 'voting power held over time');
  const ev = g.votes + g.delegationsMade + g.delegationsReceived;
  const conf = confidenceOf(ev, 8, [g.votes > 0, g.governors >= 2, g.delegationsMade > 0, g.delegationsReceived > 0], f.chains.length);
  return result('GOVERNANCE', terms, conf, `${g.votes},${g.proposalsVotedOn},${g.governors},${g.delegationsMade},${g.delegationsReceived},${power.toFixed(3)},${trust.toFixed(3)},${r0(g.carryUsd ?? 0)}${cap}`, '', {
    code: 'NO_GOVERNANCE_ACTIVITY',
    description: 'no governance votes or delegations found',
  }, anchor(f, 'governance'));
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
  const cap = capped(terms, measuredCosts(f).total, 'measured cost', true);
  const conf = confidenceOf(acquired + n.sent, 10, [n.mints > 0, n.received > 0, n.collections >= 2, n.sent > 0], f.chains.length);
  return result('NFT', terms, conf, `${n.mints},${n.received},${n.sent},${n.collections}${cap}`, '', { code: 'NO_NFT_ACTIVITY', description: 'no NFT transfers or mints found' }, anchor(f, 'nft'));
}

export function identity(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const id = s.identity;
  const kyc = s.compliance;
  const i = f.identity;
  const terms: Term[] = [];
  // DID registration is public: credit only once the wallet proved control of its key (SIWE sign-in or a signed update).
  // Even then it is nearly free, so it earns close to nothing (issue 20).
  const didCredit = id.hasDid && id.controlProved === true;
  if (didCredit) terms.push({ code: 'DID_REGISTERED', description: `registered DID ${id.did ?? ''}`.trim(), points: 15 });
  else if (id.hasDid) terms.push({ code: 'DID_CONTROL_UNPROVEN', description: `DID ${id.did ?? ''} registered, but its wallet has not signed in or signed a DID update: no credit yet`, points: 0, pinned: true });
  // only credentials from a trusted issuer count: the service's own KYC-backed types, never a holder's assertion
  if (id.activeCredentials > 0) {
    terms.push({ code: 'VERIFIABLE_CREDENTIALS', description: `${plural(id.activeCredentials, 'service-verified credential')} (KYC-backed)`, points: 100 * sat(id.activeCredentials, 2) });
  }
  if (kyc.kycStatus === 'approved') {
    terms.push({ code: 'KYC_VERIFIED', description: `identity verified (KYC level ${kyc.kycLevel === 'full' ? 'full' : 'basic'})`, points: kyc.kycLevel === 'full' ? 450 : 300 });
  } else if (kyc.kycStatus === 'rejected') {
    terms.push({ code: 'KYC_REJECTED', description: 'identity verification was rejected', points: -150 });
  }
  if (i.ensNames > 0) terms.push({ code: 'ENS_NAME', description: `${plural(i.ensNames, 'ENS name')} registered`, points: 150 * sat(i.ensNames, 1) });
  if (i.attestationsReceived > 0) terms.push({ code: 'ATTESTATIONS_RECEIVED', description: `${plural(i.attestationsReceived, 'attestation')} about this wallet`, points: 285 * sat(i.attestationsReceived, 3) });
  const kycDecided = kyc.kycStatus === 'approved' || kyc.kycStatus === 'rejected';
  const ev = (didCredit ? 1 : 0) + id.activeCredentials + (kycDecided ? 1 : 0) + i.ensNames + i.attestationsReceived;
  const conf = confidenceOf(ev, 3, [didCredit, id.activeCredentials > 0, kycDecided, i.ensNames > 0, i.attestationsReceived > 0], f.chains.length);
  // a DID counts as off-chain evidence only once its wallet proved control: registration is public, so a stranger
  // registering a victim's DID must neither reset the decay anchor nor clear an admin's IDENTITY revision
  const offchain = `${didCredit ? `${id.did}:proved` : ''},${id.activeCredentials},${kyc.kycStatus},${kyc.kycLevel}`;
  return result('IDENTITY', terms, conf, `${i.ensNames},${i.attestationsReceived}`, offchain, {
    code: 'NO_IDENTITY_EVIDENCE',
    description: 'no DID, credentials, KYC, ENS name or attestations',
  }, anchor(f, 'identity'));
}

export function social(f: WalletFeatures): CategoryResult {
  const terms: Term[] = [];
  if (f.distinctCounterparties > 0) terms.push({ code: 'COUNTERPARTIES', description: `transacted with ${plural(f.distinctCounterparties, 'distinct address', 'distinct addresses')}`, points: 400 * sat(f.distinctCounterparties, 25) });
  if (f.tokenTransfers > 0) terms.push({ code: 'TOKEN_TRANSFERS', description: plural(f.tokenTransfers, 'token transfer'), points: 150 * sat(f.tokenTransfers, 50) });
  if (f.activeMonths > 0) terms.push({ code: 'ACTIVE_MONTHS', description: `active in ${plural(f.activeMonths, 'month')}`, points: 150 * sat(f.activeMonths, 12) });
  if (f.identity.attestationsMade > 0) terms.push({ code: 'ATTESTATIONS_MADE', description: `made ${plural(f.identity.attestationsMade, 'attestation')} about others`, points: 150 * sat(f.identity.attestationsMade, 3) });
  if (f.governance.delegationsReceived > 0) terms.push({ code: 'TRUSTED_BY_DELEGATORS', description: `${plural(f.governance.delegationsReceived, 'wallet')} delegated to it`, points: 150 * sat(f.governance.delegationsReceived, 3) });
  const cap = capped(terms, measuredCosts(f).total, 'measured cost', true);
  const ev = f.distinctCounterparties + f.identity.attestationsMade + f.governance.delegationsReceived;
  const conf = confidenceOf(ev, 30, [f.distinctCounterparties > 0, f.tokenTransfers > 0, f.identity.attestationsMade > 0, f.governance.delegationsReceived > 0, f.activeMonths >= 3], f.chains.length);
  return result('SOCIAL', terms, conf, `${f.distinctCounterparties},${f.tokenTransfers},${f.activeMonths},${f.identity.attestationsMade},${f.governance.delegationsReceived}${cap}`, '', {
    code: 'NO_SOCIAL_GRAPH',
    description: 'no counterparties or attestations found',
  }, anchor(f, 'social'));
}

export function developer(f: WalletFeatures): CategoryResult {
  const d = f.developer;
  const used = d.usedContracts ?? 0;
  const users = d.thirdPartyUsers ?? 0;
  const terms: Term[] = [];
  // model 3.0.0: a deployment weighs by third-party use (distinct callers the deployer did not fund: ingestion); a
  // deployment nobody else calls, and transactions sent, cost only gas: nothing, and a little
  if (d.contractsDeployed > 0) terms.push({ code: 'CONTRACTS_USED', description: `${used} of ${plural(d.contractsDeployed, 'deployed contract')} called by others`, points: 400 * sat(used, 5) });
  if (users > 0) terms.push({ code: 'THIRD_PARTY_USERS', description: `${plural(users, 'distinct caller')} the deployer did not fund`, points: 400 * sat(users, 25) });
  const live = Math.min(d.contractsWithCode, used);
  if (live > 0) terms.push({ code: 'LIVE_CONTRACTS', description: `${plural(live, 'contract')} in use still holding code`, points: 160 * sat(live, 5) });
  if (f.txCount > 0) terms.push({ code: 'TRANSACTIONS_SENT', description: `sent ${plural(f.txCount, 'transaction')}`, points: 40 * sat(f.txCount, 200) });
  const cap = capped(terms, measuredCosts(f).total, 'measured cost', true);
  const conf = confidenceOf(d.contractsDeployed + users, 10, [d.contractsDeployed > 0, used > 0, users >= 5, f.txCount >= 10], f.chains.length);
  return result('DEVELOPER', terms, conf, `${d.contractsDeployed},${d.contractsWithCode},${f.txCount},${used},${users}${cap}`, '', {
    code: 'NO_CONTRACTS_DEPLOYED',
    description: 'no contract deployments found',
  }, anchor(f, 'developer'));
}

/**
 * Sanctions screening first: a listed wallet scores 0 whatever else is true. A wallet screened clean starts at
 * 500 (Medium: nothing against it, but nothing for it either); unscreened (no list loaded) starts at 300.
 * KYC and an established on-chain history raise it; a rejected KYC lowers it.
 */
const SANCTIONS_CLEAR_POINTS = 500;

function latestEvidence(f: WalletFeatures): Date | null | undefined {
  if (!f.evidenceAt) return undefined;
  let best: Date | null = null;
  for (const d of Object.values(f.evidenceAt)) if (d && (!best || d > best)) best = d;
  return best;
}

export function compliance(f: WalletFeatures, s: ModelSignals): CategoryResult {
  const c = s.compliance;
  const terms: Term[] = [];
  if (c.sanctioned === false) terms.push({ code: 'SANCTIONS_CLEAR', description: 'not on the OFAC SDN list', points: SANCTIONS_CLEAR_POINTS });
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
    // What the hit cost: the score this wallet would have if screened clean (the SANCTIONS_CLEAR baseline included)
    const wouldBe = toScore(sumPoints(terms) + SANCTIONS_CLEAR_POINTS);
    // A match on the list is decisive evidence on its own.
    conf = 0.95;
    const factors = [{ code: 'SANCTIONED', description: `address is on the OFAC SDN list (${wouldBe} points below the clean baseline)`, impact: -wouldBe }];
    const at = latestEvidence(f);
    return { category: 'COMPLIANCE', score: 0, confidence: conf, factors, ...(at !== undefined ? { evidenceAt: at } : {}), inputsKey: fingerprint(`${f.activeMonths}`) + fingerprint(offchain), offchainKey: fingerprint(offchain) };
  }
  return result('COMPLIANCE', terms, conf, `${f.activeMonths}`, offchain, { code: 'NO_COMPLIANCE_EVIDENCE', description: 'no compliance evidence' }, latestEvidence(f));
}

export { claimsKey };
