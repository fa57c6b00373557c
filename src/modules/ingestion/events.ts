// The real event signatures the ingestion reads, and where in each event's topics a wallet can appear.
// The RPC path asks eth_getLogs for exactly these (wallet as an indexed topic); the bulk import decodes the same
// logs with the same decoder, so both paths produce the same activity.
import { parseAbi, toEventSelector, type AbiEvent } from 'viem';

export const EVENT_ABI = parseAbi([
  // ERC-20 (3 topics) and ERC-721 (4 topics, tokenId indexed) share this signature
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  // Aave V3 Pool
  'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
  // Aave V2 LendingPool (LiquidationCall is the same event as V3's)
  'event Deposit(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referral)',
  'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint256 borrowRateMode, uint256 borrowRate, uint16 indexed referral)',
  'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount)',
  // Compound V3 Comet
  'event Supply(address indexed from, address indexed dst, uint256 amount)',
  'event Withdraw(address indexed src, address indexed to, uint256 amount)',
  'event AbsorbDebt(address indexed absorber, address indexed borrower, uint256 basePaidOut, uint256 usdValue)',
  // Uniswap V2 pair and V3 pool
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  // OpenZeppelin Governor and ERC20Votes
  'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
  'event VoteCastWithParams(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason, bytes params)',
  'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
  'event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)',
  // ENS: ETH registrar controller (2019 and 2023 versions) and the base registrar
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)',
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
  'event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)',
  // Ethereum Attestation Service
  'event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID)',
  // Aave V2 LendingPool and V3 Pool (same signature): collateral taken back, read to rebuild positions over time
  'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
  // Morpho Blue (the singleton): markets by id; every event carries the assets moved (Borrow/Repay their shares too)
  'event Supply(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets, uint256 shares)',
  'event Withdraw(bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets, uint256 shares)',
  'event Borrow(bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets, uint256 shares)',
  'event Repay(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets, uint256 shares)',
  'event SupplyCollateral(bytes32 indexed id, address indexed caller, address indexed onBehalf, uint256 assets)',
  'event WithdrawCollateral(bytes32 indexed id, address caller, address indexed onBehalf, address indexed receiver, uint256 assets)',
  'event Liquidate(bytes32 indexed id, address indexed caller, address indexed borrower, uint256 repaidAssets, uint256 repaidShares, uint256 seizedAssets, uint256 badDebtAssets, uint256 badDebtShares)',
  'event CreateMarket(bytes32 indexed id, (address loanToken, address collateralToken, address oracle, address irm, uint256 lltv) marketParams)',
  // Compound V2 cToken: nothing indexed, the wallet is in the data (the JSON-RPC plan cannot ask by topic, see log-plan.ts)
  'event Mint(address minter, uint256 mintAmount, uint256 mintTokens)',
  'event Redeem(address redeemer, uint256 redeemAmount, uint256 redeemTokens)',
  'event Borrow(address borrower, uint256 borrowAmount, uint256 accountBorrows, uint256 totalBorrows)',
  'event RepayBorrow(address payer, address borrower, uint256 repayAmount, uint256 accountBorrows, uint256 totalBorrows)',
  'event LiquidateBorrow(address liquidator, address borrower, uint256 repayAmount, address cTokenCollateral, uint256 seizeTokens)',
  // Uniswap V4 PoolManager: pools are ids; Initialize gives the pool key (currencies, fee, tick spacing, hooks)
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  // Balancer V2 Vault: every pool's swaps and joins/exits (the pool is the poolId's first 20 bytes)
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  // Uniswap V3 NonfungiblePositionManager: a position's liquidity added and removed (it ends a self-dealing marker)
  'event IncreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
  'event DecreaseLiquidity(uint256 indexed tokenId, uint128 liquidity, uint256 amount0, uint256 amount1)',
]);

type Name =
  | 'Transfer'
  | 'TransferSingle'
  | 'TransferBatch'
  | 'AaveSupply'
  | 'AaveBorrow'
  | 'AaveRepay'
  | 'AaveLiquidationCall'
  | 'AaveV2Deposit'
  | 'AaveV2Borrow'
  | 'AaveV2Repay'
  | 'CometSupply'
  | 'CometWithdraw'
  | 'CometAbsorbDebt'
  | 'UniswapV2Swap'
  | 'UniswapV3Swap'
  | 'VoteCast'
  | 'VoteCastWithParams'
  | 'DelegateChanged'
  | 'DelegateVotesChanged'
  | 'EnsNameRegisteredV1'
  | 'EnsNameRegisteredV2'
  | 'EnsBaseNameRegistered'
  | 'Attested'
  | 'AaveWithdraw'
  | 'MorphoSupply'
  | 'MorphoWithdraw'
  | 'MorphoBorrow'
  | 'MorphoRepay'
  | 'MorphoSupplyCollateral'
  | 'MorphoWithdrawCollateral'
  | 'MorphoLiquidate'
  | 'MorphoCreateMarket'
  | 'CompoundV2Mint'
  | 'CompoundV2Redeem'
  | 'CompoundV2Borrow'
  | 'CompoundV2RepayBorrow'
  | 'CompoundV2LiquidateBorrow'
  | 'UniswapV4Initialize'
  | 'UniswapV4Swap'
  | 'UniswapV4ModifyLiquidity'
  | 'BalancerSwap'
  | 'BalancerPoolBalanceChanged'
  | 'NpmIncreaseLiquidity'
  | 'NpmDecreaseLiquidity';

/** Morpho Blue's events that name a position's owner in a topic */
export const MORPHO_POSITION_EVENTS = [
  'MorphoSupply',
  'MorphoWithdraw',
  'MorphoBorrow',
  'MorphoRepay',
  'MorphoSupplyCollateral',
  'MorphoWithdrawCollateral',
  'MorphoLiquidate',
] as const satisfies readonly Name[];

const NAMES: Name[] = [
  'Transfer',
  'TransferSingle',
  'TransferBatch',
  'AaveSupply',
  'AaveBorrow',
  'AaveRepay',
  'AaveLiquidationCall',
  'AaveV2Deposit',
  'AaveV2Borrow',
  'AaveV2Repay',
  'CometSupply',
  'CometWithdraw',
  'CometAbsorbDebt',
  'UniswapV2Swap',
  'UniswapV3Swap',
  'VoteCast',
  'VoteCastWithParams',
  'DelegateChanged',
  'DelegateVotesChanged',
  'EnsNameRegisteredV1',
  'EnsNameRegisteredV2',
  'EnsBaseNameRegistered',
  'Attested',
  'AaveWithdraw',
  ...MORPHO_POSITION_EVENTS,
  'MorphoCreateMarket',
  'CompoundV2Mint',
  'CompoundV2Redeem',
  'CompoundV2Borrow',
  'CompoundV2RepayBorrow',
  'CompoundV2LiquidateBorrow',
  'UniswapV4Initialize',
  'UniswapV4Swap',
  'UniswapV4ModifyLiquidity',
  'BalancerSwap',
  'BalancerPoolBalanceChanged',
  'NpmIncreaseLiquidity',
  'NpmDecreaseLiquidity',
];

export type EventName = Name;

export interface EventDef {
  name: Name;
  abi: AbiEvent;
  topic0: `0x${string}`;
  /** Topic positions (1-3) that hold an address a wallet may be found at. */
  walletTopics: number[];
}

/** Positions of indexed addresses, per event (topic 0 is the selector). */
const WALLET_TOPICS: Record<Name, number[]> = {
  Transfer: [1, 2],
  TransferSingle: [2, 3],
  TransferBatch: [2, 3],
  AaveSupply: [2],
  AaveBorrow: [2],
  AaveRepay: [2],
  AaveLiquidationCall: [3],
  AaveV2Deposit: [2],
  AaveV2Borrow: [2],
  AaveV2Repay: [2],
  CometSupply: [2],
  CometWithdraw: [1],
  CometAbsorbDebt: [2],
  UniswapV2Swap: [1, 2],
  UniswapV3Swap: [1, 2],
  VoteCast: [1],
  VoteCastWithParams: [1],
  DelegateChanged: [1, 3],
  DelegateVotesChanged: [1],
  EnsNameRegisteredV1: [2],
  EnsNameRegisteredV2: [2],
  EnsBaseNameRegistered: [2],
  Attested: [1, 2],
  AaveWithdraw: [2],
  // Morpho Blue: the position's owner (onBehalf), the liquidated borrower
  MorphoSupply: [3],
  MorphoWithdraw: [2],
  MorphoBorrow: [2],
  MorphoRepay: [3],
  MorphoSupplyCollateral: [3],
  MorphoWithdrawCollateral: [2],
  MorphoLiquidate: [3],
  MorphoCreateMarket: [],
  // Compound V2: the wallet is never a topic
  CompoundV2Mint: [],
  CompoundV2Redeem: [],
  CompoundV2Borrow: [],
  CompoundV2RepayBorrow: [],
  CompoundV2LiquidateBorrow: [],
  // Uniswap V4 and Balancer V2: the caller of the PoolManager (a router, or a wallet calling it itself) and the
  // liquidity provider; the trader is the transaction's sender (decode.ts)
  UniswapV4Initialize: [],
  UniswapV4Swap: [2],
  UniswapV4ModifyLiquidity: [2],
  BalancerSwap: [],
  BalancerPoolBalanceChanged: [2],
  // the position is a token id, no wallet topic to ask eth_getLogs by: read from bulk imports (over JSON-RPC the
  // NFT's burn, a Transfer from the wallet, ends the marker instead)
  NpmIncreaseLiquidity: [],
  NpmDecreaseLiquidity: [],
};

export const EVENTS: EventDef[] = EVENT_ABI.map((abi, i) => ({
  name: NAMES[i],
  abi: abi as AbiEvent,
  topic0: toEventSelector(abi as AbiEvent),
  walletTopics: WALLET_TOPICS[NAMES[i]],
}));

export const EVENTS_BY_TOPIC = new Map<string, EventDef>(EVENTS.map((e) => [e.topic0, e]));

/** For eth_getLogs: the selectors to ask for with the wallet at each topic position (one query per position). */
export function selectorsByWalletTopic(): Map<number, `0x${string}`[]> {
  const out = new Map<number, `0x${string}`[]>();
  for (const e of EVENTS) {
    for (const p of e.walletTopics) {
      const list = out.get(p) ?? [];
      if (!list.includes(e.topic0)) list.push(e.topic0);
      out.set(p, list);
    }
  }
  return out;
}

export const ACTIVITY_KINDS = [
  'transfer_native',
  'transfer_erc20',
  'transfer_erc721',
  'transfer_erc1155',
  'nft_mint',
  'lending_supply',
  'lending_borrow',
  'lending_repay',
  'lending_withdraw',
  'lending_liquidation',
  'swap',
  'gov_vote',
  'gov_delegate',
  'gov_delegated_to',
  // DelegateVotesChanged(delegate = wallet): votes moved to (or from) it; weighs the delegations it received
  'gov_votes_changed',
  // a transaction of a third party calling a contract the wallet deployed (bulk import): what a deployment weighs
  'contract_used',
  'contract_deploy',
  'ens_register',
  'attestation_received',
  'attestation_made',
  // a Uniswap V3 position the wallet minted and paid for (contract: its pool): marks self-dealing, earns nothing
  'lp_position',
  // liquidity of a marked position added (amount > 0) or removed (< 0), or a position burned (ref 'burn'): the
  // marker lasts while the liquidity does (scoring/features/sql.ts)
  'lp_liquidity',
  // the fee of a transaction the wallet sent (amount: wei counted, tips capped: data/scoring/backing.json): backing
  'tx_fee',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
