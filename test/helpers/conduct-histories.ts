// Lending, trading and governance histories for the conduct and backing tests, as ethereum-etl
// exports with every event at the real pinned addresses: Aave V3 Pools and aTokens (from @bgd-labs/aave-address-book),
// Uniswap V3 pools and V2 pairs at their factories' CREATE2 addresses, the NonfungiblePositionManager, ARB and the
// Arbitrum governors. Each builder also returns what the plan really costs its wallet (gas at the real coin price,
// interest net of what the borrowed cash earns parked), computed from the plan, never from the model.
import { AaveV3Arbitrum, AaveV3Ethereum } from '@bgd-labs/aave-address-book';
import { Token, NONFUNGIBLE_POSITION_MANAGER_ADDRESSES, V2_FACTORY_ADDRESSES, V3_CORE_FACTORY_ADDRESSES } from '@uniswap/sdk-core';
import { computePairAddress } from '@uniswap/v2-sdk';
import { computePoolAddress } from '@uniswap/v3-sdk';
import { parseEther, parseUnits } from 'viem';
import { EtlExport, SIGS, type EtlLog } from './etl-export.js';
import { addr } from './scoring-histories.js';

export { addr };
const lc = (a: string) => a.toLowerCase();
const ZERO = '0x0000000000000000000000000000000000000000';
export const DAY = 86_400_000;
export const T0 = Date.UTC(2024, 0, 8, 12);
export const at = (day: number, hours = 0) => new Date(T0 + day * DAY + hours * 3_600_000);

/** What the attacker pays in the real world (the prices): ETH $3,000, USDC borrow 5%, supply 3.6% */
export const REAL = { ethUsd: 3_000, borrowApr: 0.05, supplyApr: 0.036 };
/** Gas in the exports: Ethereum 150k gas at 20 gwei; Arbitrum 300k gas at 0.01 gwei */
export const GAS = { mainnet: { gasUsed: 150_000n, priceWei: 20_000_000_000n }, arbitrum: { gasUsed: 300_000n, priceWei: 10_000_000n } };

export const AAVE_EVENTS = {
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  borrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  repay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  withdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  liquidation:
    'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
};
const V3_POOL_MINT =
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)';

export interface AaveMarket {
  pool: string;
  collateral: string;
  aCollateral: string;
  debt: string;
}
export const ETHEREUM_AAVE: AaveMarket = {
  pool: lc(AaveV3Ethereum.POOL),
  collateral: lc(AaveV3Ethereum.ASSETS.USDC.UNDERLYING),
  aCollateral: lc(AaveV3Ethereum.ASSETS.USDC.A_TOKEN),
  debt: lc(AaveV3Ethereum.ASSETS.USDT.UNDERLYING),
};
/** USDC.e collateral and USDC.e debt on Arbitrum (the issue's $1M USDC.e rows) */
export const ARBITRUM_AAVE: AaveMarket = {
  pool: lc(AaveV3Arbitrum.POOL),
  collateral: lc(AaveV3Arbitrum.ASSETS.USDC.UNDERLYING),
  aCollateral: lc(AaveV3Arbitrum.ASSETS.USDC.A_TOKEN),
  debt: lc(AaveV3Arbitrum.ASSETS.USDC.UNDERLYING),
};

const usd6 = (n: number) => parseUnits(n.toFixed(6), 6);

/** A lending plan's events for one wallet, and what they really cost it. */
export class Lender {
  txs = 0;
  /** interest paid net of what the borrowed cash earned parked (USD) */
  netInterest = 0;
  constructor(
    private readonly x: EtlExport,
    readonly who: string,
    private readonly m: AaveMarket,
  ) {}

  private tx(day: number, logs: EtlLog[], hours = 0) {
    this.txs++;
    this.x.tx({ from: this.who, to: this.m.pool, at: at(day, hours), logs });
  }
  supply(day: number, usd: number) {
    this.tx(day, [
      {
        address: this.m.pool,
        event: AAVE_EVENTS.supply,
        args: { reserve: this.m.collateral, user: this.who, onBehalfOf: this.who, amount: usd6(usd), referralCode: 0 },
      },
    ]);
  }
  withdraw(day: number, usd: number) {
    this.tx(day, [
      {
        address: this.m.pool,
        event: AAVE_EVENTS.withdraw,
        args: { reserve: this.m.collateral, user: this.who, to: this.who, amount: usd6(usd) },
      },
    ]);
  }
  borrow(day: number, usd: number) {
    this.tx(
      day,
      [
        {
          address: this.m.pool,
          event: AAVE_EVENTS.borrow,
          args: {
            reserve: this.m.debt,
            user: this.who,
            onBehalfOf: this.who,
            amount: usd6(usd),
            interestRateMode: 2,
            borrowRate: 5n * 10n ** 25n,
            referralCode: 0,
          },
        },
      ],
      1,
    );
  }
  /** repays `principal` held `days` with its interest at the real borrow rate */
  repay(day: number, principal: number, days: number) {
    const interest = principal * REAL.borrowApr * (days / 365);
    this.netInterest += interest - principal * REAL.supplyApr * (days / 365);
    this.tx(
      day,
      [
        {
          address: this.m.pool,
          event: AAVE_EVENTS.repay,
          args: { reserve: this.m.debt, user: this.who, repayer: this.who, amount: usd6(principal + interest), useATokens: false },
        },
      ],
      2,
    );
  }
  /** a loan of `principal` from `day` for `days`, repaid with interest */
  loan(day: number, principal: number, days: number) {
    this.borrow(day, principal);
    this.repay(day + days, principal, days);
  }
  /** liquidated by a stranger (its transaction, not the wallet's) */
  liquidated(day: number, debtUsd: number) {
    this.x.tx({
      from: addr(),
      to: this.m.pool,
      at: at(day, 3),
      logs: [
        {
          address: this.m.pool,
          event: AAVE_EVENTS.liquidation,
          args: {
            collateralAsset: this.m.collateral,
            debtAsset: this.m.debt,
            user: this.who,
            debtToCover: usd6(debtUsd),
            liquidatedCollateralAmount: usd6(debtUsd * 1.05),
            liquidator: addr(),
            receiveAToken: false,
          },
        },
      ],
    });
  }
  /** the wallet's aTokens sent to another holder (a position handed on) */
  sendATokens(day: number, to: string, usd: number) {
    this.txs++;
    this.x.tx({
      from: this.who,
      to: this.m.aCollateral,
      at: at(day, 4),
      logs: [{ address: this.m.aCollateral, event: SIGS.transfer, args: { from: this.who, to, value: usd6(usd) } }],
    });
  }
  /** what the plan really cost: net interest and the gas of the wallet's own transactions at the real coin price */
  realCost(gasUsdPerTx: number): number {
    return Math.max(0, this.netInterest) + this.txs * gasUsdPerTx;
  }
}

/** Uniswap pools at their factories' CREATE2 addresses on `chainId`, for a pair of 6-decimal stablecoins. */
export function v3Pool(chainId: number, a: string, b: string, fee: number): string {
  return lc(
    computePoolAddress({
      factoryAddress: V3_CORE_FACTORY_ADDRESSES[chainId],
      tokenA: new Token(chainId, a, 6),
      tokenB: new Token(chainId, b, 6),
      fee,
    }),
  );
}
export function v2Pair(chainId: number, a: string, b: string): string {
  return lc(
    computePairAddress({
      factoryAddress: V2_FACTORY_ADDRESSES[chainId],
      tokenA: new Token(chainId, a, 6),
      tokenB: new Token(chainId, b, 6),
    }),
  );
}
export const npmOf = (chainId: number) => lc(NONFUNGIBLE_POSITION_MANAGER_ADDRESSES[chainId]);
const sorted = (a: string, b: string) => (lc(a) < lc(b) ? [lc(a), lc(b)] : [lc(b), lc(a)]);

/** The logs of a one-way swap of `usd` of `tokenIn` for the same of `tokenOut` (6-decimal stablecoins) by `who`. */
export function stableSwapLogs(pool: string, v2: boolean, tokenIn: string, tokenOut: string, who: string, usd: number): EtlLog[] {
  const [t0] = sorted(tokenIn, tokenOut);
  const amt = usd6(usd);
  const inIs0 = lc(tokenIn) === t0;
  const moves: EtlLog[] = [
    { address: tokenIn, event: SIGS.transfer, args: { from: who, to: pool, value: amt } },
    { address: tokenOut, event: SIGS.transfer, args: { from: pool, to: who, value: amt } },
  ];
  const swap: EtlLog = v2
    ? {
        address: pool,
        event: SIGS.v2Swap,
        args: {
          sender: who,
          amount0In: inIs0 ? amt : 0n,
          amount1In: inIs0 ? 0n : amt,
          amount0Out: inIs0 ? 0n : amt,
          amount1Out: inIs0 ? amt : 0n,
          to: who,
        },
      }
    : {
        address: pool,
        event: SIGS.v3Swap,
        args: {
          sender: who,
          recipient: who,
          amount0: inIs0 ? amt : -amt,
          amount1: inIs0 ? -amt : amt,
          sqrtPriceX96: 1n << 96n,
          liquidity: 10n ** 18n,
          tick: 0,
        },
      };
  return [...moves, swap];
}

let tokenIds = 1_000n;
/**
 * NPM.mint of a position in `pool` to `recipient`, sent by `sender`: the pool's Mint (owner = the NPM), the NPM's
 * Transfer(0 -> recipient), and the payment of what the Mint took. `payer` pays (the wallet's own mint) or, for a
 * stranger's griefing mint, a zero-value transferFrom(victim, pool, 0) is logged beside the stranger's real payment.
 */
export function positionMintLogs(
  chainId: number,
  pool: string,
  t0: string,
  t1: string,
  recipient: string,
  payer: string,
  usd: number,
  zeroFrom?: string,
): EtlLog[] {
  const npm = npmOf(chainId);
  const [a0, a1] = sorted(t0, t1);
  const amt = usd6(usd);
  const id = tokenIds++;
  return [
    ...(zeroFrom ? [{ address: a0, event: SIGS.transfer, args: { from: zeroFrom, to: pool, value: 0n } }] : []),
    { address: a0, event: SIGS.transfer, args: { from: payer, to: pool, value: amt } },
    { address: a1, event: SIGS.transfer, args: { from: payer, to: pool, value: amt } },
    {
      address: pool,
      event: V3_POOL_MINT,
      args: { sender: npm, owner: npm, tickLower: -10, tickUpper: 10, amount: POSITION_LIQUIDITY, amount0: amt, amount1: amt },
    },
    { address: npm, event: SIGS.nftTransfer, args: { from: ZERO, to: recipient, tokenId: id } },
    { address: npm, event: NPM_INCREASE, args: { tokenId: id, liquidity: POSITION_LIQUIDITY, amount0: amt, amount1: amt } },
  ];
}

const NPM_INCREASE = 'event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)';
const NPM_DECREASE = 'event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)';
const V3_POOL_BURN =
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)';
/** the liquidity positionMintLogs adds */
export const POSITION_LIQUIDITY = 10n ** 12n;
/** the token id of the position minted in `logs` (positionMintLogs) */
export const positionIdOf = (logs: EtlLog[]) => logs.find((l) => l.event === SIGS.nftTransfer)!.args.tokenId as bigint;

/**
 * NPM.decreaseLiquidity of `liquidity` from position `id` in `pool` (the pool's Burn, owner = the NPM, then the NPM's
 * DecreaseLiquidity), and with `burn` the NFT burned too (Transfer(owner -> 0)), as the owner's own transaction.
 */
export function positionExitLogs(chainId: number, pool: string, id: bigint, owner: string, liquidity: bigint, burn: boolean): EtlLog[] {
  const npm = npmOf(chainId);
  return [
    {
      address: pool,
      event: V3_POOL_BURN,
      args: { owner: npm, tickLower: -10, tickUpper: 10, amount: liquidity, amount0: 1n, amount1: 1n },
    },
    { address: npm, event: NPM_DECREASE, args: { tokenId: id, liquidity, amount0: 1n, amount1: 1n } },
    ...(burn ? [{ address: npm, event: SIGS.nftTransfer, args: { from: owner, to: ZERO, tokenId: id } }] : []),
  ];
}

/** NPM.increaseLiquidity of position `id`, paid by `payer` (anyone may add to any position). */
export function positionAddLogs(chainId: number, pool: string, id: bigint, t0: string, t1: string, payer: string, usd: number): EtlLog[] {
  const npm = npmOf(chainId);
  const [a0, a1] = sorted(t0, t1);
  const amt = usd6(usd);
  return [
    { address: a0, event: SIGS.transfer, args: { from: payer, to: pool, value: amt } },
    { address: a1, event: SIGS.transfer, args: { from: payer, to: pool, value: amt } },
    {
      address: pool,
      event: V3_POOL_MINT,
      args: { sender: npm, owner: npm, tickLower: -10, tickUpper: 10, amount: POSITION_LIQUIDITY, amount0: amt, amount1: amt },
    },
    { address: npm, event: NPM_INCREASE, args: { tokenId: id, liquidity: POSITION_LIQUIDITY, amount0: amt, amount1: amt } },
  ];
}

/** V2 liquidity added by `who` in its own transaction (its payment, the pair's LP tokens minted to it). */
export function pairMintLogs(pair: string, t0: string, t1: string, who: string, usd: number): EtlLog[] {
  const amt = usd6(usd);
  return [
    { address: t0, event: SIGS.transfer, args: { from: who, to: pair, value: amt } },
    { address: t1, event: SIGS.transfer, args: { from: who, to: pair, value: amt } },
    { address: pair, event: SIGS.transfer, args: { from: ZERO, to: who, value: amt } },
    { address: pair, event: SIGS.v2Mint, args: { sender: who, amount0: amt, amount1: amt } },
  ];
}

/** V2 liquidity taken out by `who`: its LP tokens sent to the pair, burned there, and the pair's tokens paid back. */
export function pairBurnLogs(pair: string, t0: string, t1: string, who: string, lp: number): EtlLog[] {
  const amt = usd6(lp);
  return [
    { address: pair, event: SIGS.transfer, args: { from: who, to: pair, value: amt } },
    { address: pair, event: SIGS.transfer, args: { from: pair, to: ZERO, value: amt } },
    { address: t0, event: SIGS.transfer, args: { from: pair, to: who, value: amt } },
    { address: t1, event: SIGS.transfer, args: { from: pair, to: who, value: amt } },
  ];
}

export const ARBITRUM_GOV = {
  arb: '0x912ce59144191c1204e64559fe8253a0e49e6548',
  core: '0xf07ded9dc292157749b6fd268e37df6ea38395b9',
  treasury: '0x789fc99093b09ad01c34dc7251d0c89ce743e5a4',
};

/** `arb` ARB already held, self-delegated, then `votes` votes split over the two Arbitrum governors. Returns txs sent. */
export function arbVoter(x: EtlExport, who: string, arb: string, votes: number): number {
  const weight = parseEther(arb);
  x.tx({
    from: who,
    to: ARBITRUM_GOV.arb,
    at: at(0),
    logs: [
      { address: ARBITRUM_GOV.arb, event: SIGS.delegateChanged, args: { delegator: who, fromDelegate: ZERO, toDelegate: who } },
      { address: ARBITRUM_GOV.arb, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: 0n, newBalance: weight } },
    ],
  });
  for (let v = 0; v < votes; v++) {
    const gov = v % 2 === 0 ? ARBITRUM_GOV.core : ARBITRUM_GOV.treasury;
    x.tx({
      from: who,
      to: gov,
      at: at(3 + v * 3),
      logs: [{ address: gov, event: SIGS.voteCast, args: { voter: who, proposalId: BigInt(7_000 + v), support: 1, weight, reason: '' } }],
    });
  }
  return votes + 1;
}
