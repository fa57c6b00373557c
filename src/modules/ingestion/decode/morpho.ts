// Morpho Blue: rows of the singleton (contract) and the asset moved (counterparty: the market's loan token for
// Supply/Withdraw/Borrow/Repay/Liquidate, its collateral token for SupplyCollateral/WithdrawCollateral), amounts
// in that asset's units as the events carry them (Borrow and Repay give the assets for the shares at the
// market's state in that block), exactly as an Aave pool's rows of a reserve. A market not learned yet
// (registry/markets.ts) is stored with the market id as counterparty and no value: its own position in the
// replay, weighed as unvalued.
import { morphoMarket } from '../registry/markets.js';
import type { Decoders, LogScope } from './scope.js';

function morpho(s: LogScope): void {
  const { name, a } = s;
  const id = s.log.topics[1].toLowerCase();
  const m = morphoMarket(s.ctx.chainId, id);
  const collateralSide = name === 'MorphoSupplyCollateral' || name === 'MorphoWithdrawCollateral';
  const asset = m ? (collateralSide ? m.collateralToken : m.loanToken) : null;
  const amount = s.n(name === 'MorphoLiquidate' ? 'repaidAssets' : 'assets');
  const row = { protocol: 'morpho-blue', counterparty: asset ?? id, amount, valueUsd: asset ? s.usd(asset, amount) : null };
  if (name === 'MorphoSupply' || name === 'MorphoSupplyCollateral') s.add(a('onBehalf'), 'lending_supply', row);
  else if (name === 'MorphoWithdraw' || name === 'MorphoWithdrawCollateral')
    s.add(a('onBehalf'), 'lending_withdraw', { ...row, direction: 'out' });
  else if (name === 'MorphoBorrow') s.add(a('onBehalf'), 'lending_borrow', row);
  else if (name === 'MorphoRepay') s.add(a('onBehalf'), 'lending_repay', row);
  else s.add(a('borrower'), 'lending_liquidation', row);
}

export const morphoDecoders: Decoders = {
  MorphoSupply: morpho,
  MorphoWithdraw: morpho,
  MorphoBorrow: morpho,
  MorphoRepay: morpho,
  MorphoSupplyCollateral: morpho,
  MorphoWithdrawCollateral: morpho,
  MorphoLiquidate: morpho,
};
