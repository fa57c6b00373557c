// The borrowers every lending protocol's test writes into an ethereum-etl export, the same on each protocol so that
// their scores can be compared: what a protocol emits for each action is the test's own (`act`).
import type { EtlExport, EtlLog } from './etl-export.js';

/** Aave V3's Pool events (SparkLend's too), as the tests emit them */
export const AAVE_SIGS = {
  aaveSupply:
    'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  aaveWithdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  aaveBorrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  aaveRepay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  aaveLiquidation:
    'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
};

/** What protocol `p` emits for each action of wallet `w`, amounts in USD of a stablecoin position. */
export interface LendingActs<P> {
  supply(p: P, w: string, usd: number): EtlLog[];
  withdraw(p: P, w: string, usd: number): EtlLog[];
  borrow(p: P, w: string, usd: number): EtlLog[];
  repay(p: P, w: string, usd: number): EtlLog[];
  liquidate(p: P, w: string, liquidator: string, usd: number): EtlLog[];
}

/**
 * On each protocol `p` of `protocols` (its transactions sent to `to(p)`), from day 0, each wallet its own per protocol:
 * - `honest`: $60k of collateral, $10k borrowed each month and repaid 20 days later with $100 of interest, for two
 *   years, the collateral taken back at the end;
 * - `liquidated`: $20k of collateral, $15k borrowed, liquidated by `liquidator` for $7.5k two months later;
 * - `flash`: $1M supplied, $500k borrowed, repaid and withdrawn in one transaction, then a cheap transaction a month
 *   for two years.
 */
export function writeBorrowers<P extends string>(
  x: EtlExport,
  act: LendingActs<P>,
  protocols: readonly P[],
  to: (p: P) => string,
  w: { honest: Record<P, string>; liquidated: Record<P, string>; flash: Record<P, string>; liquidator: string },
  day: (n: number) => Date,
  plain: (wallet: string, day: number) => void,
): void {
  for (const p of protocols)
    writeOn(
      x,
      act,
      p,
      to(p),
      { honest: w.honest[p], liquidated: w.liquidated[p], flash: w.flash[p], liquidator: w.liquidator },
      day,
      plain,
    );
}

function writeOn<P>(
  x: EtlExport,
  act: LendingActs<P>,
  p: P,
  to: string,
  w: { honest: string; liquidated: string; flash: string; liquidator: string },
  day: (n: number) => Date,
  plain: (wallet: string, day: number) => void,
): void {
  const { honest, liquidated, flash, liquidator } = w;
  x.tx({ from: honest, to, at: day(0), logs: act.supply(p, honest, 60_000) });
  for (let m = 0; m < 24; m++) {
    x.tx({ from: honest, to, at: day(30 * m + 1), logs: act.borrow(p, honest, 10_000) });
    x.tx({ from: honest, to, at: day(30 * m + 21), logs: act.repay(p, honest, 10_100) });
  }
  x.tx({ from: honest, to, at: day(730), logs: act.withdraw(p, honest, 60_000) });
  x.tx({ from: liquidated, to, at: day(0), logs: act.supply(p, liquidated, 20_000) });
  x.tx({ from: liquidated, to, at: day(1), logs: act.borrow(p, liquidated, 15_000) });
  x.tx({ from: liquidator, to, at: day(60), logs: act.liquidate(p, liquidated, liquidator, 7_500) });
  plain(liquidated, 90);
  x.tx({
    from: flash,
    to,
    at: day(0),
    logs: [
      ...act.supply(p, flash, 1_000_000),
      ...act.borrow(p, flash, 500_000),
      ...act.repay(p, flash, 500_000),
      ...act.withdraw(p, flash, 1_000_000),
    ],
  });
  for (let m = 1; m <= 24; m++) plain(flash, 30 * m);
}
