// Backing: what a wallet lost and cannot get back, per category (docs/scoring-model.md, "Conduct and backing").
// Capital merely held backs nothing (it comes back, with its yield); interest backs only net of what the borrowed
// cash earns parked; pool fees back only where others' liquidity earned them (ingestion: established pools, no
// liquidity of the payer or its funding cluster, no same-block positions); gas backs the category whose evidence
// its transactions made. The rates and their reasons are in data/scoring/backing.json.
import type { WalletFeatures } from '../contracts.js';
import { EMPTY_POSITIONS, type LendingPositions } from './lending-positions.js';
import type { ModelParams } from './params.js';

/** What backs a score (data/scoring/backing.json). */
export type BackingParams = ModelParams['backing'];

/** Interest paid beyond what the same debt, parked, would have earned at the reference supply rate (never < 0): on
 *  all of the debt (rawDebtUsdDays), not only the part a day's cap lets count as conduct. */
export function netInterest(p: Pick<LendingPositions, 'interestUsd' | 'debtUsdDays' | 'rawDebtUsdDays'>, B: BackingParams): number {
  return Math.max(0, p.interestUsd - (Math.max(p.debtUsdDays, p.rawDebtUsdDays ?? 0) * B.parkedYieldApr) / 365);
}

export interface Backing {
  lending: number;
  trading: number;
  governance: number;
  /** everything the wallet lost that the features show, each dollar once (net interest, fees, all evidence gas) */
  total: number;
}

/** The wallet's backing per category, in USD. */
export function backingOf(f: WalletFeatures, B: BackingParams): Backing {
  const gas = f.gasUsd ?? { lending: 0, trading: 0, governance: 0, total: 0 };
  const interest = netInterest(f.lending.positions ?? EMPTY_POSITIONS, B);
  const fees = f.trading.backedFeesUsd ?? 0;
  return {
    lending: interest + gas.lending,
    trading: fees + gas.trading,
    governance: gas.governance,
    total: interest + fees + gas.total,
  };
}
