// Compound V2 cTokens and Compound V3 (Comet) markets: their own events, and the transfers of the position tokens
// (a cToken; a Comet market's base balances) that move a position without one.
import { ZERO_ADDRESS } from '../events.js';
import { cTokenInfo, contractInfo } from '../registry/index.js';
import { cTokenRate } from '../registry/markets.js';
import type { Decoders, LogScope } from './scope.js';

// Compound V2 and its forks (Moonwell): rows of the cToken (contract) and its underlying (counterparty; cETH: the
// wrapped native token), amounts in underlying units as the events carry them; the gate let only pinned cTokens in
function v2Row(s: LogScope, k: string) {
  const c = cTokenInfo(s.ctx.chainId, s.contract);
  const underlying = c?.underlying ?? null;
  return { protocol: c?.protocol ?? 'compound-v2', counterparty: underlying, amount: s.n(k), valueUsd: s.usd(underlying, s.n(k)) };
}

const cometBase = (s: LogScope) => contractInfo(s.ctx.chainId, s.contract)?.baseToken ?? null;

export const compoundDecoders: Decoders = {
  CompoundV2Mint: (s) => s.add(s.a('minter'), 'lending_supply', v2Row(s, 'mintAmount')),
  CompoundV2Redeem: (s) => s.add(s.a('redeemer'), 'lending_withdraw', { ...v2Row(s, 'redeemAmount'), direction: 'out' }),
  CompoundV2Borrow: (s) => s.add(s.a('borrower'), 'lending_borrow', v2Row(s, 'borrowAmount')),
  CompoundV2RepayBorrow: (s) => s.add(s.a('borrower'), 'lending_repay', v2Row(s, 'repayAmount')),
  CompoundV2LiquidateBorrow: (s) => s.add(s.a('borrower'), 'lending_liquidation', v2Row(s, 'repayAmount')),
  CometSupply: (s) => {
    const base = cometBase(s);
    s.add(s.a('dst'), 'lending_supply', {
      protocol: 'compound-v3',
      counterparty: s.a('from'),
      amount: s.n('amount'),
      valueUsd: s.usd(base, s.n('amount')),
    });
  },
  // Comet lends its base asset out through Withdraw, but a supplier redeeming emits the same event; telling
  // them apart needs account state, so it is kept as a withdrawal (not counted as a borrow).
  CometWithdraw: (s) => {
    const base = cometBase(s);
    s.add(s.a('src'), 'lending_withdraw', {
      protocol: 'compound-v3',
      direction: 'out',
      counterparty: s.a('to'),
      amount: s.n('amount'),
      valueUsd: s.usd(base, s.n('amount')),
    });
  },
  CometAbsorbDebt: (s) => {
    // usdValue is Comet's own oracle valuation of the absorbed debt (8 decimals)
    const v = s.args.usdValue as bigint;
    s.add(s.a('borrower'), 'lending_liquidation', {
      protocol: 'compound-v3',
      counterparty: s.a('absorber'),
      amount: s.n('basePaidOut'),
      valueUsd: Number(v / 10n ** 8n) + Number(v % 10n ** 8n) / 1e8,
    });
  },
};

/**
 * A Compound V2 cToken is the position too: a Transfer between two holders moves collateral like an aToken's
 * (rows of the cToken and its underlying, ref 'atoken-transfer': a position token moved between holders). Its value
 * is in cTokens: converted to the underlying at the cToken's exchange rate at that block (registry/markets.ts, from
 * its own Mint and Redeem events); with no rate known the move is not stored (it could not be sized). A mint is
 * Transfer(cToken, minter) and a redeem Transfer(redeemer, cToken): the cToken itself is never a holder, so those
 * come with the Mint/Redeem rows only. A liquidation's seize is Transfer(borrower, liquidator): the seized
 * collateral leaves the borrower.
 */
export function cTokenTransfer(s: LogScope, from: string | null, to: string | null): void {
  const { chainId } = s.ctx;
  const cToken = cTokenInfo(chainId, s.contract);
  const rate = cToken && from && to ? cTokenRate(chainId, s.contract, s.log.blockNumber) : undefined;
  if (!cToken || rate === undefined || !from || !to || from === ZERO_ADDRESS || to === ZERO_ADDRESS) return;
  if (from === to || from === s.contract || to === s.contract) return;
  const underlying = ((s.args.value as bigint) * rate) / 10n ** 18n;
  const moved = {
    protocol: cToken.protocol,
    counterparty: cToken.underlying,
    amount: underlying.toString(),
    valueUsd: s.usd(cToken.underlying, underlying.toString()),
    ref: 'atoken-transfer',
  };
  s.add(from, 'lending_withdraw', { ...moved, direction: 'out' });
  s.add(to, 'lending_supply', moved);
}

/**
 * A Comet market (registry role 'comet') is its own ERC-20 of base balances, and logs only their positive part:
 * `transfer`/`transferFrom` of base emits no Supply or Withdraw, only a burn Transfer(src, 0) of what left the
 * sender's positive balance and a mint Transfer(0, dst) of what raised the receiver's. Each is a move of the
 * account's base balance, a row of the market like its Supply/Withdraw (contract = the market, amount in base
 * units, valued as its base asset), marked 'comet-transfer'. Supply itself is followed by the mint of its
 * supplied part and Withdraw by the burn of its withdrawn part (the next log): the replay counts those once
 * (lending-positions.ts). An absorbed account's surplus is minted after AbsorbDebt: that is a supply.
 */
export function cometTransfer(s: LogScope, from: string | null, to: string | null): void {
  const market = contractInfo(s.ctx.chainId, s.contract);
  if (market?.role !== 'comet' || !from || !to || from === to || (from !== ZERO_ADDRESS && to !== ZERO_ADDRESS)) return;
  const moved = {
    protocol: 'compound-v3',
    counterparty: null,
    amount: s.n('value'),
    valueUsd: s.usd(market.baseToken ?? null, s.n('value')),
    ref: 'comet-transfer',
  };
  if (to === ZERO_ADDRESS) s.add(from, 'lending_withdraw', { ...moved, direction: 'out' });
  else s.add(to, 'lending_supply', moved);
}
