// Aave V2/V3 pools (and forks pinned as such, e.g. Spark): rows of the pool (contract) and the reserve moved
// (counterparty), amounts in the reserve's units as the events carry them; and aToken transfers between holders.
import { ZERO_ADDRESS, type ActivityKind } from '../events.js';
import { aTokenInfo } from '../registry/index.js';
import type { ActivityRecord, Decoders, LogScope } from './scope.js';

/** The row of a pool event naming its wallet (walletKey), asset (assetKey) and amount (amountKey). */
function poolRow(
  s: LogScope,
  walletKey: string,
  kind: ActivityKind,
  extra: Partial<ActivityRecord> = {},
  assetKey = 'reserve',
  amountKey = 'amount',
): void {
  s.add(s.a(walletKey), kind, {
    protocol: s.protocol,
    ...extra,
    counterparty: s.a(assetKey),
    amount: s.n(amountKey),
    valueUsd: s.usd(s.a(assetKey), s.n(amountKey)),
  });
}

const supply = (s: LogScope) => poolRow(s, 'onBehalfOf', 'lending_supply');
const borrow = (s: LogScope) => poolRow(s, 'onBehalfOf', 'lending_borrow');
// V3 can repay with the wallet's aTokens: the debt and the collateral both shrink (ref 'atokens')
const repay = (s: LogScope) => poolRow(s, 'user', 'lending_repay', { ref: s.args.useATokens === true ? 'atokens' : null });

export const aaveDecoders: Decoders = {
  AaveSupply: supply,
  AaveV2Deposit: supply,
  AaveBorrow: borrow,
  AaveV2Borrow: borrow,
  AaveRepay: repay,
  AaveV2Repay: repay,
  AaveWithdraw: (s) => poolRow(s, 'user', 'lending_withdraw', { direction: 'out' }),
  AaveLiquidationCall: (s) => poolRow(s, 'user', 'lending_liquidation', {}, 'debtAsset', 'debtToCover'),
};

/**
 * An Aave aToken (registry role 'a-token') is the position itself: sent from one holder to another, the
 * collateral leaves the sender (no Withdraw names it) and the receiver holds it (it can withdraw it). Rows like
 * the pool's own: contract = the market's pool, counterparty = the reserve, amount in the reserve's units (a
 * Transfer's value is; V3's BalanceTransfer beside it is scaled and is not read, so a transfer counts once),
 * valued as a Supply/Withdraw of that reserve. Mints from and burns to the zero address come with the pool's
 * Supply/Withdraw (and interest accrual): they are not counted again. A liquidation with receiveAToken moves
 * the liquidated wallet's aTokens to the liquidator this way.
 */
export function aTokenTransfer(s: LogScope, from: string | null, to: string | null): void {
  const aToken = aTokenInfo(s.ctx.chainId, s.contract);
  if (!aToken || !from || !to || from === ZERO_ADDRESS || to === ZERO_ADDRESS || from === to) return;
  const moved = {
    protocol: aToken.protocol,
    contract: aToken.pool,
    counterparty: aToken.reserve,
    amount: s.n('value'),
    valueUsd: s.usd(aToken.reserve, s.n('value')),
    ref: 'atoken-transfer',
  };
  s.add(from, 'lending_withdraw', { ...moved, direction: 'out' });
  s.add(to, 'lending_supply', moved);
}
