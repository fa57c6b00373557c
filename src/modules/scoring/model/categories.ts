// The eight independent categories. Each is a sum of bounded, monotone terms (saturating counts, logarithmic USD
// values): the conduct score. An activity category's positive points are then held to what its backing supports
// (backing.ts: what the wallet lost and cannot get back; cost-ceiling.ts: the curve). Each result carries both, so
// a lender can set its own policy. Features come only from the registry's pinned contracts, by value, with
// self-dealing removed (ingestion). docs/scoring-model.md explains every term, its constants and why.
import type { ComplianceSignal, IdentitySignal, WalletFeatures } from '../contracts.js';
import { claimsKey, claimTerms, type ClaimSummary } from './debt-claims.js';
import { EMPTY_POSITIONS, UNVALUED_EVENT_USD } from './lending-positions.js';
import { ceilingTerm } from './cost-ceiling.js';
import { backingOf } from './backing.js';
import type { ModelParams } from './params.js';
import { confidenceOf, sumPoints, toScore, topFactors, type CategoryResult, type Term } from './terms.js';
import { clamp, fingerprint, logCap, sat } from './transforms.js';

/** An event with no known price counts as one worth this many USD (defined with the lending positions). */
export { UNVALUED_EVENT_USD };
/** Unvalued events count at UNVALUED_EVENT_USD each, at most unvaluedMaxEvents of them (a loop of priced-unknown
 *  assets is bounded at $1,000). */
const unvaluedUsd = (n: number, P: ModelParams) => UNVALUED_EVENT_USD * Math.min(n, P.unvaluedMaxEvents);
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

/** Holds the terms' positive points to what the backing supports (cost-ceiling.ts); the limit applied, if any,
 *  is part of the category's inputs (a dispute override lasts until it changes). */
function capped(terms: Term[], backingUsd: number, what: string, P: ModelParams, unpriced = false): string {
  const t = ceilingTerm(terms, backingUsd, what, P.ceiling, unpriced);
  if (!t) return '';
  terms.push(t);
  return `,cap${Math.round(t.points)}`;
}

/** Negative evidence that is settled fact about the wallet (its own liquidations, a claim upheld after dispute, a
 *  KYC provider's rejection of its own session): below a category's 0 it still counts in OVERALL. Pending claims,
 *  which anyone can file, stop at the category's 0. */
const SETTLED_NEGATIVE: ReadonlySet<string> = new Set(['LIQUIDATIONS', 'DEBT_CLAIM_RESOLVED_FOR_CREDITOR', 'KYC_REJECTED']);

function result(
  category: CategoryResult['category'],
  terms: Term[],
  conf: number,
  inputs: string,
  offchain: string,
  empty: { code: string; description: string },
  evidenceAt: Date | null | undefined,
  backingUsd: number | null,
): CategoryResult {
  const offchainKey = offchain === '' ? '' : fingerprint(offchain);
  let conduct = 0;
  let total = 0;
  let settled = 0;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i];
    total += t.points;
    if (t.code !== 'COST_CEILING' && t.code !== 'UNPRICED_EVIDENCE_CAP') conduct += t.points;
    if (t.points < 0 && SETTLED_NEGATIVE.has(t.code)) settled -= t.points;
  }
  const r: CategoryResult = {
    category,
    score: toScore(total),
    conduct: toScore(conduct),
    backingUsd: backingUsd === null ? null : Math.round(backingUsd * 100) / 100,
    confidence: conf,
    factors: topFactors(terms, empty),
    inputsKey: fingerprint(inputs) + offchainKey,
    offchainKey,
  };
  if (evidenceAt !== undefined) r.evidenceAt = evidenceAt;
  if (total < 0 && settled > 0) r.below = Math.round(Math.min(-total, settled));
  if (conduct < 0 && settled > 0) r.conductBelow = Math.round(Math.min(-conduct, settled));
  return r;
}

const days = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : String(Math.round(n)));

/**
 * DEFI_LENDING conduct: how the wallet behaves with credit. Repaid loans (held a day or more), in distinct months,
 * over a long credit record, with leverage kept away from liquidation; liquidations weigh most when recent and never
 * vanish. Size enters only logarithmically (DEBT_SIZE and INTEREST_PAID together gain under 60 points for 10x the
 * capital), and capital that never borrowed is no credit record. The constants are in data/scoring/model.json.
 */
export function lending(f: WalletFeatures, s: ModelSignals, P: ModelParams): CategoryResult {
  const l = f.lending;
  // positions over time (lending-positions.ts): a round trip within one transaction, block or day holds nothing
  const p = l.positions ?? EMPTY_POSITIONS;
  const C = P.lending;
  const terms: Term[] = [];
  const borrowed = p.debtUsdDays >= C.minDebtUsdDays;
  if (borrowed) {
    if (p.cycles > 0) {
      terms.push({
        code: 'REPAYMENT_RECORD',
        description: `repaid ${plural(p.cycles, 'loan')} held a day or more`,
        points: C.repaid.points * sat(p.cycles, C.repaid.k),
      });
      terms.push({
        code: 'REPAID_MONTHS',
        description: `repaid loans in ${plural(p.cycleMonths, 'distinct month')}`,
        points: C.months.points * sat(p.cycleMonths, C.months.k),
      });
      const avg = p.avgCycleDays ?? 0;
      const speed = avg <= C.speed.days ? 1 : C.speed.days / avg;
      terms.push({
        code: 'TIME_TO_REPAY',
        description: `repaid on average ${Math.round(avg)} days after borrowing`,
        points: C.speed.points * speed,
      });
    }
    const tenure = p.creditDays ?? p.spanDays;
    if (tenure > 0)
      terms.push({
        code: 'CREDIT_HISTORY',
        description: `a credit record of ${days(tenure)} days since its first loan`,
        points: C.tenure.points * sat(tenure, C.tenure.kDays),
      });
    const lev = p.leveragedDays ?? 0;
    // no collateral seen beside the debt (a Comet base borrow): half credit, neither safe nor risky as far as we know
    const ltv = lev > 0 ? (p.ltvDays ?? 0) / lev : null;
    const safety =
      ltv === null
        ? C.leverage.unknownCredit
        : clamp((C.leverage.liquidationLtv - ltv) / (C.leverage.liquidationLtv - C.leverage.safeLtv), 0, 1);
    terms.push({
      code: 'SAFE_LEVERAGE',
      description:
        ltv === null
          ? 'borrowed with no collateral seen beside the debt: leverage unknown'
          : `kept debt at ${Math.round(ltv * 100)}% of collateral on average (liquidation near ${Math.round(C.leverage.liquidationLtv * 100)}%)`,
      points: C.leverage.points * safety,
    });
    if (p.interestUsd > 0)
      terms.push({
        code: 'INTEREST_PAID',
        description: `paid ${usd(p.interestUsd)} of interest on its loans`,
        points: C.interest.points * sat(p.interestUsd, C.interest.kUsd),
      });
    const decades = clamp(Math.log10(p.debtUsdDays / C.size.fromUsdDays), 0, C.size.maxDecades);
    if (decades > 0)
      terms.push({
        code: 'DEBT_SIZE',
        description: `carried ${usd(p.debtUsdDays)}-days of debt`,
        points: C.size.pointsPerDecade * decades,
      });
  }
  const aged = p.liquidationsAged ?? [];
  if (l.liquidations > 0) {
    // each liquidation costs a lasting part and a part that fades with its age (and a part for its size that fades
    // more slowly): none > one 18 months ago > one last week, whatever else is the same
    const L = C.liquidation;
    const list = aged.length
      ? aged
      : Array.from({ length: l.liquidations }, () => ({ usd: (l.liquidatedUsd ?? 0) / l.liquidations, ageDays: 0 }));
    let penalty = 0;
    for (const q of list)
      penalty +=
        L.lasting +
        L.recent * Math.exp(-q.ageDays / L.recentDays) +
        L.size * logCap(q.usd, L.sizeCapUsd) * Math.exp(-q.ageDays / L.sizeDays);
    const lost = l.liquidatedUsd ?? 0;
    const newest = list.reduce((m, q) => Math.min(m, q.ageDays), Infinity);
    terms.push({
      code: 'LIQUIDATIONS',
      description: `${plural(l.liquidations, 'liquidation')} of borrowed positions${lost ? ` (${usd(lost)} of debt)` : ''}, the latest ${Math.round(newest)} days before its latest activity`,
      points: -Math.min(L.max, penalty),
    });
  }
  if (!borrowed && p.debtUsdDays > 0) {
    terms.push({
      code: 'NO_CREDIT_RECORD',
      description: `owed only ${usd(p.debtUsdDays)}-days of debt: too little to be a credit record`,
      points: 0,
      pinned: true,
    });
  } else if (!borrowed && p.collateralUsdDays > 0) {
    terms.push({
      code: 'NO_CREDIT_RECORD',
      description: `supplied ${usd(p.collateralUsdDays)}-days of collateral but never borrowed: capital held is no credit record`,
      points: 0,
      pinned: true,
    });
  }
  terms.push(...claimTerms(s.claims, P.debtClaims));
  const backing = backingOf(f, P.backing).lending;
  const cap = capped(terms, backing, 'interest paid beyond what the borrowed cash earns parked, and gas', P);
  // evidence is what was held over time, not rows; debt claims are no evidence of the wallet's own activity
  const evidence = p.cycles + (p.debtUsdDays > 0 ? 1 : 0) + (p.collateralUsdDays > 0 ? 1 : 0) + l.liquidations;
  const conf = confidenceOf(
    evidence,
    C.confidenceK,
    [p.collateralUsdDays > 0, p.debtUsdDays > 0, p.cycles > 0, p.interestUsd > 0, l.liquidations > 0, p.protocolsHeld >= 2],
    f.chains.length,
  );
  const liq = aged.map((q) => `${Math.round(q.ageDays)}:${r0(q.usd)}`).join(';');
  const inputs = `${r0(p.debtUsdDays)},${r0(p.collateralUsdDays)},${r0(p.interestUsd)},${p.cycles},${p.cycleMonths},${p.avgCycleDays === null ? '' : Math.round(p.avgCycleDays * 10)},${r0(p.creditDays ?? 0)},${Math.round((p.ltvDays ?? 0) * 10)},${r0(p.leveragedDays ?? 0)},${l.liquidations},${r0(l.liquidatedUsd ?? 0)},${liq},${r0(backing)}${cap}`;
  return result(
    'DEFI_LENDING',
    terms,
    conf,
    inputs,
    s.claimsKey,
    { code: 'NO_LENDING_HISTORY', description: 'no lending position held over time on supported chains' },
    anchor(f, 'lending'),
    backing,
  );
}

export function trading(f: WalletFeatures, P: ModelParams): CategoryResult {
  const t = f.trading;
  const T = P.trading;
  // volume on verified, allowlisted pools only; unvalued swaps at UNVALUED_EVENT_USD; dust never got here
  const volume = (t.volumeUsd ?? 0) + unvaluedUsd(t.unvaluedSwaps ?? (t.volumeUsd === undefined ? t.swaps : 0), P);
  // what the swaps cost, in fees paid to liquidity others provided (volume x the pool's fee tier, round trips netted
  // out per pair and day, capped per day: ingestion); features without it count volume at the legacy fee rate
  const fees = t.feesUsd ?? volume * T.legacyFeeRate;
  // breadth (days, pools, venues, tokens) counts in proportion to the fees paid, in full from fullBreadthFeesUsd:
  // many days of crumbs through many pools cost only gas
  const paid = Math.min(1, fees / T.fullBreadthFeesUsd);
  const terms: Term[] = [];
  if (t.swaps > 0 && fees > 0) {
    terms.push({
      code: 'FEES_PAID',
      description: `${plural(t.swaps, 'swap')} worth ${usd(volume)}, ${usd(fees)} of pool fees paid`,
      points: T.feesPaid.points * logCap(fees, T.feesPaid.capUsd),
    });
    terms.push({
      code: 'TRADING_DAYS',
      description: `swapped on ${plural(t.activeDays, 'distinct day')}`,
      points: T.days.points * sat(t.activeDays, T.days.k) * paid,
    });
    terms.push({
      code: 'POOL_DIVERSITY',
      description: `traded in ${plural(t.distinctPools, 'pool')}`,
      points: T.pools.points * sat(t.distinctPools, T.pools.k) * paid,
    });
    terms.push({
      code: 'DEX_PROTOCOLS',
      description: `used ${plural(t.protocols, 'exchange protocol')}`,
      points: T.protocols.points * sat(t.protocols, T.protocols.k) * paid,
    });
    if (f.distinctTokens > 0)
      terms.push({
        code: 'TOKEN_DIVERSITY',
        description: `held or moved ${plural(f.distinctTokens, 'token')}`,
        points: T.tokens.points * sat(f.distinctTokens, T.tokens.k) * paid,
      });
  }
  const d = t.discounted;
  if (d) {
    const why: string[] = [];
    if (d.ownLiquidity) why.push(`${plural(d.ownLiquidity, 'swap')} in pools where it provides liquidity itself`);
    if (d.clusterLiquidity)
      why.push(`${plural(d.clusterLiquidity, 'swap')} in pools where a wallet it funded, or that funded it, provides liquidity`);
    if (d.sameBlockLiquidity)
      why.push(`${plural(d.sameBlockLiquidity, 'swap')} in a block where liquidity was added to the same pool (just-in-time)`);
    if (d.roundTrips) why.push(`${plural(d.roundTrips, 'swap')} undone the same day`);
    if (why.length)
      terms.push({
        code: 'SWAPS_DISCOUNTED',
        description: `found but not counted: ${why.join('; ')} (the fees go back to the payer or were never at risk)`,
        points: 0,
        pinned: true,
      });
  }
  const backing = backingOf(f, P.backing).trading;
  if (fees > 0 && (t.backedFeesUsd ?? 0) < fees) {
    terms.push({
      code: 'FEES_UNBACKED',
      description: `${usd(fees - (t.backedFeesUsd ?? 0))} of its fees were paid in pools outside the reviewed list of established pools: they count as conduct, not as backing`,
      points: 0,
      pinned: true,
    });
  }
  const cap = capped(terms, backing, 'pool fees paid to established pools, and gas', P);
  const conf = confidenceOf(
    t.swaps,
    T.confidenceK,
    [t.swaps > 0, t.distinctPools >= 2, t.protocols >= 2, t.activeDays >= 2, f.distinctTokens >= 2],
    f.chains.length,
  );
  const dk = d ? `,${d.ownLiquidity}:${d.clusterLiquidity}:${d.sameBlockLiquidity}:${d.roundTrips}` : '';
  return result(
    'DEFI_TRADING',
    terms,
    conf,
    `${t.swaps},${t.distinctPools},${t.protocols},${t.activeDays},${t.swaps > 0 ? f.distinctTokens : 0},${r0(volume)},${Math.round(fees * 100)},${r0(backing)}${dk}${cap}`,
    '',
    {
      code: 'NO_TRADING_HISTORY',
      description: 'no swaps found on supported chains',
    },
    anchor(f, 'trading'),
    backing,
  );
}

export function governance(f: WalletFeatures, P: ModelParams): CategoryResult {
  const g = f.governance;
  const G = P.governance;
  const terms: Term[] = [];
  // voting power, not vote count. Votes on pinned DAO governors at or above the floor, each weighing 0-1 by the
  // votes held at the proposal's snapshot (ingestion; features without it: the legacy weight each); proposals and
  // DAOs count in proportion to that power; delegations received by the votes they moved, never to oneself
  const power = g.votePower ?? g.votes * G.legacyVoteWeight;
  const share = Math.min(1, power / G.fullShareWeight);
  const trust = g.delegatedPower ?? g.delegationsReceived * G.legacyVoteWeight;
  if (g.votes > 0)
    terms.push({
      code: 'VOTING_POWER',
      description: `cast ${plural(g.votes, 'vote')} with voting power (weight ${power.toFixed(1)})`,
      points: G.votingPower.points * sat(power, G.votingPower.k),
    });
  if (g.proposalsVotedOn > 0)
    terms.push({
      code: 'PROPOSALS_VOTED',
      description: `voted on ${plural(g.proposalsVotedOn, 'proposal')}`,
      points: G.proposals.points * sat(g.proposalsVotedOn, G.proposals.k) * share,
    });
  if (g.governors > 0)
    terms.push({
      code: 'DAOS_PARTICIPATED',
      description: `took part in ${plural(g.governors, 'DAO governor')}`,
      points: G.daos.points * sat(g.governors, G.daos.k) * share,
    });
  if (g.delegationsMade > 0)
    terms.push({
      code: 'DELEGATED_VOTES',
      description: `delegated to others ${plural(g.delegationsMade, 'time')}`,
      points: G.delegated.points * sat(g.delegationsMade, G.delegated.k),
    });
  if (g.delegationsReceived > 0)
    terms.push({
      code: 'DELEGATE_TRUST',
      description: `received ${plural(g.delegationsReceived, 'delegation')} that moved votes (weight ${trust.toFixed(1)})`,
      points: G.delegateTrust.points * sat(trust, G.delegateTrust.k),
    });
  if (g.selfDelegations) {
    terms.push({
      code: 'DELEGATIONS_DISCOUNTED',
      description: `found but not counted: ${plural(g.selfDelegations, 'delegation')} of its own votes to itself (no one else's trust)`,
      points: 0,
      pinned: true,
    });
  }
  const backing = backingOf(f, P.backing).governance;
  const cap = capped(terms, backing, 'gas paid to vote and delegate (voting power held comes back: it backs nothing)', P);
  const ev = g.votes + g.delegationsMade + g.delegationsReceived;
  const conf = confidenceOf(
    ev,
    G.confidenceK,
    [g.votes > 0, g.governors >= 2, g.delegationsMade > 0, g.delegationsReceived > 0],
    f.chains.length,
  );
  return result(
    'GOVERNANCE',
    terms,
    conf,
    `${g.votes},${g.proposalsVotedOn},${g.governors},${g.delegationsMade},${g.delegationsReceived},${power.toFixed(3)},${trust.toFixed(3)},${r0(backing)}${cap}`,
    '',
    {
      code: 'NO_GOVERNANCE_ACTIVITY',
      description: 'no governance votes or delegations found',
    },
    anchor(f, 'governance'),
    backing,
  );
}

export function nft(f: WalletFeatures, P: ModelParams): CategoryResult {
  const n = f.nft;
  const X = P.nft;
  const acquired = n.mints + n.received;
  const terms: Term[] = [];
  if (n.collections > 0)
    terms.push({
      code: 'NFT_COLLECTIONS',
      description: `interacted with ${plural(n.collections, 'collection')}`,
      points: X.collections.points * sat(n.collections, X.collections.k),
    });
  if (n.mints > 0)
    terms.push({ code: 'NFT_MINTS', description: `minted ${plural(n.mints, 'NFT')}`, points: X.mints.points * sat(n.mints, X.mints.k) });
  if (n.received > 0)
    terms.push({
      code: 'NFTS_RECEIVED',
      description: `received ${plural(n.received, 'NFT')}`,
      points: X.received.points * sat(n.received, X.received.k),
    });
  if (acquired > 0) {
    const kept = clamp(1 - n.sent / acquired, 0, 1);
    terms.push({ code: 'NFT_RETENTION', description: `kept ${Math.round(kept * 100)}% of acquired NFTs`, points: X.retention * kept });
  }
  const nftWhy = [
    n.unlisted
      ? `${plural(n.unlisted, 'NFT transfer or mint', 'NFT transfers or mints')} in collections neither on the reviewed list nor held by enough independent wallets`
      : '',
    n.notTheirs
      ? `${plural(n.notTheirs, 'NFT')} minted to it or moved in someone else's transaction (an airdrop, an operator's transfer: it did nothing)`
      : '',
  ].filter(Boolean);
  if (nftWhy.length)
    terms.push({ code: 'NFTS_DISCOUNTED', description: `found but not counted: ${nftWhy.join('; ')}`, points: 0, pinned: true });
  const backing = backingOf(f, P.backing).total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const conf = confidenceOf(
    acquired + n.sent,
    X.confidenceK,
    [n.mints > 0, n.received > 0, n.collections >= 2, n.sent > 0],
    f.chains.length,
  );
  return result(
    'NFT',
    terms,
    conf,
    `${n.mints},${n.received},${n.sent},${n.collections}${cap}`,
    '',
    { code: 'NO_NFT_ACTIVITY', description: 'no NFT transfers or mints found' },
    anchor(f, 'nft'),
    backing,
  );
}

export function identity(f: WalletFeatures, s: ModelSignals, P: ModelParams): CategoryResult {
  const I = P.identity;
  const id = s.identity;
  const kyc = s.compliance;
  const i = f.identity;
  const terms: Term[] = [];
  // DID registration is public: credit only once the wallet proved control of its key (SIWE sign-in or a signed update).
  // Even then it is nearly free, so it earns close to nothing.
  const didCredit = id.hasDid && id.controlProved === true;
  if (didCredit) terms.push({ code: 'DID_REGISTERED', description: `registered DID ${id.did ?? ''}`.trim(), points: I.did });
  else if (id.hasDid)
    terms.push({
      code: 'DID_CONTROL_UNPROVEN',
      description: `DID ${id.did ?? ''} registered, but its wallet has not signed in or signed a DID update: no credit yet`,
      points: 0,
      pinned: true,
    });
  // only credentials from a trusted issuer count: the service's own KYC-backed types, never a holder's assertion
  if (id.activeCredentials > 0) {
    terms.push({
      code: 'VERIFIABLE_CREDENTIALS',
      description: `${plural(id.activeCredentials, 'service-verified credential')} (KYC-backed)`,
      points: I.credentials.points * sat(id.activeCredentials, I.credentials.k),
    });
  }
  if (kyc.kycStatus === 'approved') {
    terms.push({
      code: 'KYC_VERIFIED',
      description: `identity verified (KYC level ${kyc.kycLevel === 'full' ? 'full' : 'basic'})`,
      points: kyc.kycLevel === 'full' ? I.kycFull : I.kycBasic,
    });
  } else if (kyc.kycStatus === 'rejected') {
    terms.push({ code: 'KYC_REJECTED', description: 'identity verification was rejected', points: I.kycRejected });
  }
  if (i.ensNames > 0)
    terms.push({
      code: 'ENS_NAME',
      description: `${plural(i.ensNames, 'ENS name')} registered`,
      points: I.ens.points * sat(i.ensNames, I.ens.k),
    });
  if (i.attestationsReceived > 0)
    terms.push({
      code: 'ATTESTATIONS_RECEIVED',
      description: `${plural(i.attestationsReceived, 'attestation')} about this wallet`,
      points: I.attestations.points * sat(i.attestationsReceived, I.attestations.k),
    });
  if (i.untrustedReceived) terms.push(untrustedAttestations(i.untrustedReceived, 'about it'));
  const kycDecided = kyc.kycStatus === 'approved' || kyc.kycStatus === 'rejected';
  const ev = (didCredit ? 1 : 0) + id.activeCredentials + (kycDecided ? 1 : 0) + i.ensNames + i.attestationsReceived;
  const conf = confidenceOf(
    ev,
    I.confidenceK,
    [didCredit, id.activeCredentials > 0, kycDecided, i.ensNames > 0, i.attestationsReceived > 0],
    f.chains.length,
  );
  // a DID counts as off-chain evidence only once its wallet proved control: registration is public, so a stranger
  // registering a victim's DID must neither reset the decay anchor nor clear an admin's IDENTITY revision
  const offchain = `${didCredit ? `${id.did}:proved` : ''},${id.activeCredentials},${kyc.kycStatus},${kyc.kycLevel}`;
  return result(
    'IDENTITY',
    terms,
    conf,
    `${i.ensNames},${i.attestationsReceived}`,
    offchain,
    {
      code: 'NO_IDENTITY_EVIDENCE',
      description: 'no DID, credentials, KYC, ENS name or attestations',
    },
    anchor(f, 'identity'),
    null,
  );
}

/** Attestations found and left out: anyone can attest anything about anyone, so only trusted attesters count. */
const untrustedAttestations = (count: number, which: string): Term => ({
  code: 'ATTESTATIONS_DISCOUNTED',
  description: `found but not counted: ${plural(count, 'attestation')} ${which} from attesters not on the trusted list, or about itself`,
  points: 0,
  pinned: true,
});

export function social(f: WalletFeatures, P: ModelParams): CategoryResult {
  const S = P.social;
  const terms: Term[] = [];
  if (f.distinctCounterparties > 0)
    terms.push({
      code: 'COUNTERPARTIES',
      description: `transacted with ${plural(f.distinctCounterparties, 'distinct address', 'distinct addresses')}`,
      points: S.counterparties.points * sat(f.distinctCounterparties, S.counterparties.k),
    });
  if (f.tokenTransfers > 0)
    terms.push({
      code: 'TOKEN_TRANSFERS',
      description: plural(f.tokenTransfers, 'token transfer'),
      points: S.tokenTransfers.points * sat(f.tokenTransfers, S.tokenTransfers.k),
    });
  if (f.activeMonths > 0)
    terms.push({
      code: 'ACTIVE_MONTHS',
      description: `active in ${plural(f.activeMonths, 'month')}`,
      points: S.activeMonths.points * sat(f.activeMonths, S.activeMonths.k),
    });
  if (f.identity.attestationsMade > 0)
    terms.push({
      code: 'ATTESTATIONS_MADE',
      description: `made ${plural(f.identity.attestationsMade, 'attestation')} about others`,
      points: S.attestationsMade.points * sat(f.identity.attestationsMade, S.attestationsMade.k),
    });
  if (f.identity.untrustedMade) terms.push(untrustedAttestations(f.identity.untrustedMade, 'made by it'));
  if (f.governance.delegationsReceived > 0)
    terms.push({
      code: 'TRUSTED_BY_DELEGATORS',
      description: `${plural(f.governance.delegationsReceived, 'wallet')} delegated to it`,
      points: S.delegators.points * sat(f.governance.delegationsReceived, S.delegators.k),
    });
  const backing = backingOf(f, P.backing).total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const ev = f.distinctCounterparties + f.identity.attestationsMade + f.governance.delegationsReceived;
  const conf = confidenceOf(
    ev,
    S.confidenceK,
    [
      f.distinctCounterparties > 0,
      f.tokenTransfers > 0,
      f.identity.attestationsMade > 0,
      f.governance.delegationsReceived > 0,
      f.activeMonths >= 3,
    ],
    f.chains.length,
  );
  return result(
    'SOCIAL',
    terms,
    conf,
    `${f.distinctCounterparties},${f.tokenTransfers},${f.activeMonths},${f.identity.attestationsMade},${f.governance.delegationsReceived}${cap}`,
    '',
    {
      code: 'NO_SOCIAL_GRAPH',
      description: 'no counterparties or attestations found',
    },
    anchor(f, 'social'),
    backing,
  );
}

export function developer(f: WalletFeatures, P: ModelParams): CategoryResult {
  const D = P.developer;
  const d = f.developer;
  const used = d.usedContracts ?? 0;
  const users = d.thirdPartyUsers ?? 0;
  const terms: Term[] = [];
  // a deployment weighs by third-party use (distinct callers the deployer did not fund: ingestion); a
  // deployment nobody else calls, and transactions sent, cost only gas: nothing, and a little
  if (d.contractsDeployed > 0)
    terms.push({
      code: 'CONTRACTS_USED',
      description: `${used} of ${plural(d.contractsDeployed, 'deployed contract')} called by others`,
      points: D.contractsUsed.points * sat(used, D.contractsUsed.k),
    });
  if (users > 0)
    terms.push({
      code: 'THIRD_PARTY_USERS',
      description: `${plural(users, 'distinct caller')} the deployer did not fund`,
      points: D.thirdPartyUsers.points * sat(users, D.thirdPartyUsers.k),
    });
  const live = Math.min(d.contractsWithCode, used);
  if (live > 0)
    terms.push({
      code: 'LIVE_CONTRACTS',
      description: `${plural(live, 'contract')} in use still holding code`,
      points: D.liveContracts.points * sat(live, D.liveContracts.k),
    });
  if (f.txCount > 0)
    terms.push({
      code: 'TRANSACTIONS_SENT',
      description: `sent ${plural(f.txCount, 'transaction')}`,
      points: D.transactionsSent.points * sat(f.txCount, D.transactionsSent.k),
    });
  const backing = backingOf(f, P.backing).total;
  const cap = capped(terms, backing, 'what it lost', P, true);
  const conf = confidenceOf(
    d.contractsDeployed + users,
    D.confidenceK,
    [d.contractsDeployed > 0, used > 0, users >= 5, f.txCount >= 10],
    f.chains.length,
  );
  return result(
    'DEVELOPER',
    terms,
    conf,
    `${d.contractsDeployed},${d.contractsWithCode},${f.txCount},${used},${users}${cap}`,
    '',
    {
      code: 'NO_CONTRACTS_DEPLOYED',
      description: 'no contract deployments found',
    },
    anchor(f, 'developer'),
    backing,
  );
}

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

export { claimsKey };
