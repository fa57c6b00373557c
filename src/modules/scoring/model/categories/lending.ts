// DEFI_LENDING: conduct with credit, held to the interest and gas that back it.
import type { WalletFeatures } from '../../contracts.js';
import { claimTerms } from '../debt-claims.js';
import { EMPTY_POSITIONS } from '../lending-positions.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { clamp, logCap, sat } from '../transforms.js';
import { anchor, capped, days, plural, r0, result, usd, type ModelSignals } from './shared.js';

/**
 * DEFI_LENDING conduct: how the wallet behaves with credit. Repaid loans (held a day or more), in distinct months,
 * over a long credit record, with leverage kept away from liquidation; liquidations weigh most when recent and never
 * vanish. Size enters only logarithmically (DEBT_SIZE and INTEREST_PAID together gain under 60 points for 10x the
 * capital), and capital that never borrowed is no credit record. The constants are in data/scoring/model.json.
 */
type Positions = NonNullable<WalletFeatures['lending']['positions']>;
type Conduct = ModelParams['lending'];

/** The record of a wallet that borrowed: repaid loans, their months and speed, tenure, leverage, interest, size. */
function creditTerms(p: Positions, C: Conduct, terms: Term[]): void {
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
  terms.push(leverageTerm(p, C));
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

/** Debt kept away from liquidation: time-weighted debt/collateral in the same protocol. */
function leverageTerm(p: Positions, C: Conduct): Term {
  const lev = p.leveragedDays ?? 0;
  // no collateral seen beside the debt (a Comet base borrow): half credit, neither safe nor risky as far as we know
  const ltv = lev > 0 ? (p.ltvDays ?? 0) / lev : null;
  const safety =
    ltv === null
      ? C.leverage.unknownCredit
      : clamp((C.leverage.liquidationLtv - ltv) / (C.leverage.liquidationLtv - C.leverage.safeLtv), 0, 1);
  return {
    code: 'SAFE_LEVERAGE',
    description:
      ltv === null
        ? 'borrowed with no collateral seen beside the debt: leverage unknown'
        : `kept debt at ${Math.round(ltv * 100)}% of collateral on average (liquidation near ${Math.round(C.leverage.liquidationLtv * 100)}%)`,
    points: C.leverage.points * safety,
  };
}

/** Each liquidation costs a lasting part and a part that fades with its age (and a part for its size that fades more
 *  slowly): none > one 18 months ago > one last week, whatever else is the same. */
function liquidationTerm(l: WalletFeatures['lending'], aged: NonNullable<Positions['liquidationsAged']>, C: Conduct): Term {
  const L = C.liquidation;
  const list = aged.length
    ? aged
    : Array.from({ length: l.liquidations }, () => ({ usd: (l.liquidatedUsd ?? 0) / l.liquidations, ageDays: 0 }));
  let penalty = 0;
  for (const q of list)
    penalty +=
      L.lasting + L.recent * Math.exp(-q.ageDays / L.recentDays) + L.size * logCap(q.usd, L.sizeCapUsd) * Math.exp(-q.ageDays / L.sizeDays);
  const lost = l.liquidatedUsd ?? 0;
  const newest = list.reduce((m, q) => Math.min(m, q.ageDays), Infinity);
  return {
    code: 'LIQUIDATIONS',
    description: `${plural(l.liquidations, 'liquidation')} of borrowed positions${lost ? ` (${usd(lost)} of debt)` : ''}, the latest ${Math.round(newest)} days before its latest activity`,
    points: -Math.min(L.max, penalty),
  };
}

/** A wallet that held a position but no credit record says why it earns nothing. */
function noCreditTerm(p: Positions): Term | null {
  if (p.debtUsdDays > 0)
    return {
      code: 'NO_CREDIT_RECORD',
      description: `owed only ${usd(p.debtUsdDays)}-days of debt: too little to be a credit record`,
      points: 0,
      pinned: true,
    };
  if (p.collateralUsdDays > 0)
    return {
      code: 'NO_CREDIT_RECORD',
      description: `supplied ${usd(p.collateralUsdDays)}-days of collateral but never borrowed: capital held is no credit record`,
      points: 0,
      pinned: true,
    };
  return null;
}

export function lending(f: WalletFeatures, s: ModelSignals, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
  const l = f.lending;
  // positions over time (lending-positions.ts): a round trip within one transaction, block or day holds nothing
  const p = l.positions ?? EMPTY_POSITIONS;
  const C = P.lending;
  const terms: Term[] = [];
  const borrowed = p.debtUsdDays >= C.minDebtUsdDays;
  if (borrowed) creditTerms(p, C, terms);
  const aged = p.liquidationsAged ?? [];
  if (l.liquidations > 0) terms.push(liquidationTerm(l, aged, C));
  if (!borrowed) {
    const none = noCreditTerm(p);
    if (none) terms.push(none);
  }
  terms.push(...claimTerms(s.claims, P.debtClaims));
  const backing = b.lending;
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
