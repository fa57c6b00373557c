// DEFI_TRADING: pool fees paid to liquidity others provided, breadth in proportion to them.
import type { WalletFeatures } from '../../contracts.js';
import { backingOf, type Backing } from '../backing.js';
import type { ModelParams } from '../params.js';
import { confidenceOf, type CategoryResult, type Term } from '../terms.js';
import { logCap, sat } from '../transforms.js';
import { anchor, capped, plural, r0, result, unvaluedUsd, usd } from './shared.js';

/** Swaps found and left out, and why: the fees go back to the payer or were never at risk. */
function discountedTerm(d: WalletFeatures['trading']['discounted']): Term | null {
  if (!d) return null;
  const why: string[] = [];
  if (d.ownLiquidity) why.push(`${plural(d.ownLiquidity, 'swap')} in pools where it provides liquidity itself`);
  if (d.clusterLiquidity)
    why.push(`${plural(d.clusterLiquidity, 'swap')} in pools where a wallet it funded, or that funded it, provides liquidity`);
  if (d.sameBlockLiquidity)
    why.push(`${plural(d.sameBlockLiquidity, 'swap')} in a block where liquidity was added to the same pool (just-in-time)`);
  if (d.roundTrips) why.push(`${plural(d.roundTrips, 'swap')} undone the same day`);
  if (!why.length) return null;
  return {
    code: 'SWAPS_DISCOUNTED',
    description: `found but not counted: ${why.join('; ')} (the fees go back to the payer or were never at risk)`,
    points: 0,
    pinned: true,
  };
}

export function trading(f: WalletFeatures, P: ModelParams, b: Backing = backingOf(f, P.backing)): CategoryResult {
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
  const discounted = discountedTerm(t.discounted);
  if (discounted) terms.push(discounted);
  const d = t.discounted;
  const backing = b.trading;
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
