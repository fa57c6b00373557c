// Decodes one log (from eth_getLogs, an ethereum-etl export or an explorer) into normalized activity records, one
// per wallet the log concerns. Wallets come only from indexed topics, so a wallet's records are the same whether
// the log was found by a topic filter over JSON-RPC or read from a full export.
// Every source goes through here, so this is where the registry is enforced: a protocol event whose emitter is not
// pinned (or a swap in a pool that does not derive from the factory) yields nothing and is counted in ctx.dropped;
// registry contracts and verified pools are never wallets; amounts are valued in USD where a price is known.
import { decodeEventLog } from 'viem';
import { EVENTS_BY_TOPIC, ZERO_ADDRESS, type ActivityKind } from './events.js';
import { aTokenInfo, cTokenInfo, contractInfo, easTrust, isPositionManager, tokenInfo, wrappedNative } from './registry/index.js';
import { cTokenRate, morphoMarket, v4Pool } from './registry/markets.js';
import { evidenceValue, gate, usdValue, type DropCounter, type PoolInfo } from './registry/gate.js';
import type { PriceLookup } from './pricing/reader.js';

export interface ActivityRecord {
  chainId: number;
  /** For contract deployments: the deployed address (the RPC path finds deployments from nonces, not transactions). */
  txHash: string;
  /** -1 for transaction-level records (native transfers, deployments). */
  logIndex: number;
  wallet: string;
  kind: ActivityKind;
  blockNumber: number;
  /** null when a bulk import knows no time for the block */
  occurredAt: Date | null;
  /** emitting contract (token, pool, pair, governor, registrar, EAS) or the deployed contract */
  contract: string | null;
  counterparty: string | null;
  tokenId: string | null;
  amount: string | null;
  direction: 'in' | 'out' | null;
  protocol: string | null;
  /** proposal id, ENS label hash, attestation uid, or 'code' for a deployed contract that has code */
  ref: string | null;
  /** USD value at ingestion (stablecoins at 1); null when no price is known */
  valueUsd?: number | null;
  /** the transaction's sender, lowercase; null when unknown. Only what the wallet sent earns credit (scoring/features/sql.ts). */
  txFrom?: string | null;
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  timestamp: Date | null;
}

export interface DecodeContext {
  chainId: number;
  /** The transaction's sender when known: stored on every record (tx_from), and credited with the swaps its
   *  transaction made. */
  txFrom?: string | null;
  /** Swap emitters checked against the factory derivation (registry/pools.ts); a swap from any other is dropped. */
  pools?: ReadonlyMap<string, PoolInfo | null>;
  /** Where dropped logs are counted (diagnostics only). */
  dropped?: DropCounter;
  /** Oracle prices of non-stable assets at the log's block (pricing/: the pre-pass reads what this decode asks). */
  prices?: PriceLookup;
}

const topicAddress = (t: string | undefined): string | null => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : null);
const lower = (v: unknown) => String(v).toLowerCase();

export function decodeLog(log: RawLog, ctx: DecodeContext): ActivityRecord[] {
  const topic0 = log.topics[0]?.toLowerCase();
  const def = topic0 ? EVENTS_BY_TOPIC.get(topic0) : undefined;
  if (!def) return [];
  const out: ActivityRecord[] = [];
  const contract = log.address.toLowerCase();
  const pass = gate(def.name, ctx.chainId, contract, ctx.pools);
  if (!pass.ok) {
    if (ctx.dropped) ctx.dropped[pass.reason]++;
    return [];
  }
  const add = (wallet: string | null, kind: ActivityKind, f: Partial<ActivityRecord> = {}) => {
    if (!wallet || wallet === ZERO_ADDRESS) return;
    // protocol contracts (routers, pools, the registry's own) are not people: they get no records
    if (contractInfo(ctx.chainId, wallet) || ctx.pools?.get(wallet)) return;
    if (out.some((r) => r.wallet === wallet && r.kind === kind)) return;
    out.push({
      chainId: ctx.chainId,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      wallet,
      kind,
      blockNumber: log.blockNumber,
      occurredAt: log.timestamp,
      contract,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: null,
      ref: null,
      valueUsd: null,
      txFrom: ctx.txFrom?.toLowerCase() ?? null,
      ...f,
    });
  };
  const price = (token: string | null) => (token && ctx.prices ? (ctx.prices(token, log.blockNumber) ?? null) : null);
  const usd = (token: string | null, raw: string | null) => evidenceValue(ctx.chainId, token, raw, price(token));

  // ERC-721 Transfer shares ERC-20's selector but indexes tokenId: told apart by the topic count.
  if (def.name === 'Transfer' && log.topics.length === 4) {
    const from = topicAddress(log.topics[1]);
    const to = topicAddress(log.topics[2]);
    const tokenId = BigInt(log.topics[3]).toString();
    // a Uniswap V3 position NFT is liquidity, not a collectible: no NFT evidence (positions.ts reads its mint). Its
    // burn (only its owner can, once the liquidity is out) ends the pool's self-dealing marker (scoring/features/sql.ts)
    if (isPositionManager(ctx.chainId, contract)) {
      if (to === ZERO_ADDRESS) add(from, 'lp_liquidity', { tokenId, ref: 'burn', protocol: 'uniswap-v3' });
      return out;
    }
    nftTransfer(add, from, to, 'transfer_erc721', { tokenId, amount: '1' });
    return out;
  }

  let args: Record<string, unknown>;
  try {
    const decoded = decodeEventLog({
      abi: [def.abi],
      topics: log.topics as [`0x${string}`],
      data: log.data as `0x${string}`,
      strict: true,
    });
    args = (decoded.args ?? {}) as Record<string, unknown>;
  } catch {
    return []; // a log that merely shares a selector (wrong topic count or data layout) is not this event
  }
  const a = (k: string) => (args[k] === undefined ? null : lower(args[k]));
  const n = (k: string) => (args[k] === undefined ? null : String(args[k]));

  switch (def.name) {
    case 'Transfer': {
      const from = a('from');
      const to = a('to');
      // no score uses a transfer's value: only stablecoins are valued, no oracle read is spent on them
      const valueUsd = evidenceValue(ctx.chainId, contract, n('value'));
      // 'listed': an allowlisted token (registry): moving it costs something real, unlike a token anyone can mint
      const protocol = tokenInfo(ctx.chainId, contract) ? 'listed' : null;
      add(from, 'transfer_erc20', { direction: 'out', counterparty: to, amount: n('value'), valueUsd, protocol });
      add(to, 'transfer_erc20', { direction: 'in', counterparty: from, amount: n('value'), valueUsd, protocol });
      // An Aave aToken (registry role 'a-token') is the position itself: sent from one holder to another, the
      // collateral leaves the sender (no Withdraw names it) and the receiver holds it (it can withdraw it). Rows like
      // the pool's own: contract = the market's pool, counterparty = the reserve, amount in the reserve's units (a
      // Transfer's value is; V3's BalanceTransfer beside it is scaled and is not read, so a transfer counts once),
      // valued as a Supply/Withdraw of that reserve. Mints from and burns to the zero address come with the pool's
      // Supply/Withdraw (and interest accrual): they are not counted again. A liquidation with receiveAToken moves
      // the liquidated wallet's aTokens to the liquidator this way.
      const aToken = aTokenInfo(ctx.chainId, contract);
      if (aToken && from && to && from !== ZERO_ADDRESS && to !== ZERO_ADDRESS && from !== to) {
        const moved = {
          protocol: aToken.protocol,
          contract: aToken.pool,
          counterparty: aToken.reserve,
          amount: n('value'),
          valueUsd: usd(aToken.reserve, n('value')),
          ref: 'atoken-transfer',
        };
        add(from, 'lending_withdraw', { ...moved, direction: 'out' });
        add(to, 'lending_supply', moved);
      }
      // A Comet market (registry role 'comet') is its own ERC-20 of base balances, and logs only their positive part:
      // `transfer`/`transferFrom` of base emits no Supply or Withdraw, only a burn Transfer(src, 0) of what left the
      // sender's positive balance and a mint Transfer(0, dst) of what raised the receiver's. Each is a move of the
      // account's base balance, a row of the market like its Supply/Withdraw (contract = the market, amount in base
      // units, valued as its base asset), marked 'comet-transfer'. Supply itself is followed by the mint of its
      // supplied part and Withdraw by the burn of its withdrawn part (the next log): the replay counts those once
      // (lending-positions.ts). An absorbed account's surplus is minted after AbsorbDebt: that is a supply.
      // A Compound V2 cToken is the position too: a Transfer between two holders moves collateral like an aToken's
      // (rows of the cToken and its underlying, ref 'atoken-transfer': a position token moved between holders). Its value is in cTokens: converted to the
      // underlying at the cToken's exchange rate at that block (registry/markets.ts, from its own Mint and Redeem
      // events); with no rate known the move is not stored (it could not be sized). A mint is Transfer(cToken,
      // minter) and a redeem Transfer(redeemer, cToken): the cToken itself is never a holder, so those come with
      // the Mint/Redeem rows only. A liquidation's seize is Transfer(borrower, liquidator): the seized collateral
      // leaves the borrower.
      const cToken = cTokenInfo(ctx.chainId, contract);
      const rate = cToken && from && to ? cTokenRate(ctx.chainId, contract, log.blockNumber) : undefined;
      if (
        cToken &&
        rate !== undefined &&
        from &&
        to &&
        from !== ZERO_ADDRESS &&
        to !== ZERO_ADDRESS &&
        from !== to &&
        from !== contract &&
        to !== contract
      ) {
        const underlying = ((args.value as bigint) * rate) / 10n ** 18n;
        const moved = {
          protocol: 'compound-v2',
          counterparty: cToken.underlying,
          amount: underlying.toString(),
          valueUsd: usd(cToken.underlying, underlying.toString()),
          ref: 'atoken-transfer',
        };
        add(from, 'lending_withdraw', { ...moved, direction: 'out' });
        add(to, 'lending_supply', moved);
      }
      const market = contractInfo(ctx.chainId, contract);
      if (market?.role === 'comet' && from && to && from !== to && (from === ZERO_ADDRESS || to === ZERO_ADDRESS)) {
        const moved = {
          protocol: 'compound-v3',
          counterparty: null,
          amount: n('value'),
          valueUsd: usd(market.baseToken ?? null, n('value')),
          ref: 'comet-transfer',
        };
        if (to === ZERO_ADDRESS) add(from, 'lending_withdraw', { ...moved, direction: 'out' });
        else add(to, 'lending_supply', moved);
      }
      break;
    }
    case 'TransferSingle':
      nftTransfer(add, a('from'), a('to'), 'transfer_erc1155', { tokenId: n('id'), amount: n('value') });
      break;
    case 'TransferBatch': {
      const ids = args.ids as bigint[];
      const values = args.values as bigint[];
      const total = values.reduce((s, v) => s + v, 0n).toString();
      nftTransfer(add, a('from'), a('to'), 'transfer_erc1155', { tokenId: ids.length === 1 ? ids[0].toString() : null, amount: total });
      break;
    }
    case 'AaveSupply':
    case 'AaveV2Deposit':
      add(a('onBehalfOf'), 'lending_supply', {
        protocol: pass.protocol,
        counterparty: a('reserve'),
        amount: n('amount'),
        valueUsd: usd(a('reserve'), n('amount')),
      });
      break;
    case 'AaveBorrow':
    case 'AaveV2Borrow':
      add(a('onBehalfOf'), 'lending_borrow', {
        protocol: pass.protocol,
        counterparty: a('reserve'),
        amount: n('amount'),
        valueUsd: usd(a('reserve'), n('amount')),
      });
      break;
    case 'AaveRepay':
    case 'AaveV2Repay':
      // V3 can repay with the wallet's aTokens: the debt and the collateral both shrink (ref 'atokens')
      add(a('user'), 'lending_repay', {
        protocol: pass.protocol,
        counterparty: a('reserve'),
        amount: n('amount'),
        valueUsd: usd(a('reserve'), n('amount')),
        ref: args.useATokens === true ? 'atokens' : null,
      });
      break;
    case 'AaveWithdraw':
      add(a('user'), 'lending_withdraw', {
        protocol: pass.protocol,
        direction: 'out',
        counterparty: a('reserve'),
        amount: n('amount'),
        valueUsd: usd(a('reserve'), n('amount')),
      });
      break;
    case 'AaveLiquidationCall':
      add(a('user'), 'lending_liquidation', {
        protocol: pass.protocol,
        counterparty: a('debtAsset'),
        amount: n('debtToCover'),
        valueUsd: usd(a('debtAsset'), n('debtToCover')),
      });
      break;
    case 'CometSupply': {
      const base = contractInfo(ctx.chainId, contract)?.baseToken ?? null;
      add(a('dst'), 'lending_supply', {
        protocol: 'compound-v3',
        counterparty: a('from'),
        amount: n('amount'),
        valueUsd: usd(base, n('amount')),
      });
      break;
    }
    case 'CometWithdraw': {
      // Comet lends its base asset out through Withdraw, but a supplier redeeming emits the same event; telling
      // them apart needs account state, so it is kept as a withdrawal (not counted as a borrow).
      const base = contractInfo(ctx.chainId, contract)?.baseToken ?? null;
      add(a('src'), 'lending_withdraw', {
        protocol: 'compound-v3',
        direction: 'out',
        counterparty: a('to'),
        amount: n('amount'),
        valueUsd: usd(base, n('amount')),
      });
      break;
    }
    case 'CometAbsorbDebt': {
      // usdValue is Comet's own oracle valuation of the absorbed debt (8 decimals)
      const v = args.usdValue as bigint;
      add(a('borrower'), 'lending_liquidation', {
        protocol: 'compound-v3',
        counterparty: a('absorber'),
        amount: n('basePaidOut'),
        valueUsd: Number(v / 10n ** 8n) + Number(v % 10n ** 8n) / 1e8,
      });
      break;
    }
    // Morpho Blue: rows of the singleton (contract) and the asset moved (counterparty: the market's loan token for
    // Supply/Withdraw/Borrow/Repay/Liquidate, its collateral token for SupplyCollateral/WithdrawCollateral), amounts
    // in that asset's units as the events carry them (Borrow and Repay give the assets for the shares at the
    // market's state in that block), exactly as an Aave pool's rows of a reserve. A market not learned yet
    // (registry/markets.ts) is stored with the market id as counterparty and no value: its own position in the
    // replay, weighed as unvalued.
    case 'MorphoSupply':
    case 'MorphoWithdraw':
    case 'MorphoBorrow':
    case 'MorphoRepay':
    case 'MorphoSupplyCollateral':
    case 'MorphoWithdrawCollateral':
    case 'MorphoLiquidate': {
      const id = log.topics[1].toLowerCase();
      const m = morphoMarket(ctx.chainId, id);
      const collateralSide = def.name === 'MorphoSupplyCollateral' || def.name === 'MorphoWithdrawCollateral';
      const asset = m ? (collateralSide ? m.collateralToken : m.loanToken) : null;
      const amount = n(def.name === 'MorphoLiquidate' ? 'repaidAssets' : 'assets');
      const row = { protocol: 'morpho-blue', counterparty: asset ?? id, amount, valueUsd: asset ? usd(asset, amount) : null };
      if (def.name === 'MorphoSupply' || def.name === 'MorphoSupplyCollateral') add(a('onBehalf'), 'lending_supply', row);
      else if (def.name === 'MorphoWithdraw' || def.name === 'MorphoWithdrawCollateral')
        add(a('onBehalf'), 'lending_withdraw', { ...row, direction: 'out' });
      else if (def.name === 'MorphoBorrow') add(a('onBehalf'), 'lending_borrow', row);
      else if (def.name === 'MorphoRepay') add(a('onBehalf'), 'lending_repay', row);
      else add(a('borrower'), 'lending_liquidation', row);
      break;
    }
    // Compound V2: rows of the cToken (contract) and its underlying (counterparty; cETH: the wrapped native token),
    // amounts in underlying units as the events carry them
    case 'CompoundV2Mint':
    case 'CompoundV2Redeem':
    case 'CompoundV2Borrow':
    case 'CompoundV2RepayBorrow':
    case 'CompoundV2LiquidateBorrow': {
      const underlying = cTokenInfo(ctx.chainId, contract)?.underlying ?? null;
      const row = (k: string) => ({ protocol: 'compound-v2', counterparty: underlying, amount: n(k), valueUsd: usd(underlying, n(k)) });
      if (def.name === 'CompoundV2Mint') add(a('minter'), 'lending_supply', row('mintAmount'));
      else if (def.name === 'CompoundV2Redeem') add(a('redeemer'), 'lending_withdraw', { ...row('redeemAmount'), direction: 'out' });
      else if (def.name === 'CompoundV2Borrow') add(a('borrower'), 'lending_borrow', row('borrowAmount'));
      else if (def.name === 'CompoundV2RepayBorrow') add(a('borrower'), 'lending_repay', row('repayAmount'));
      else add(a('borrower'), 'lending_liquidation', row('repayAmount'));
      break;
    }
    case 'UniswapV4Swap': {
      // One PoolManager holds every V4 pool: the row's contract is the pool id, its pair the pool key's currencies
      // (the native coin, the zero address, valued and allowlisted as the wrapped native token). The fee is the
      // one the Swap event says was charged (hundredths of a bip, dynamic fees included); a pool whose hooks may
      // return deltas on a swap (permission bits BEFORE_SWAP_RETURNS_DELTA 1<<3, AFTER_SWAP_RETURNS_DELTA 1<<2
      // of the hooks address) can hand the trader back what it paid: its swaps count no fee. The hooks are named
      // (counterparty). The trader is the transaction's sender, and the caller when it called the PoolManager
      // itself (a router is a pinned contract: never a wallet).
      const id = log.topics[1].toLowerCase();
      const key = v4Pool(ctx.chainId, id);
      const asToken = (c: string) => (c === ZERO_ADDRESS ? (wrappedNative(ctx.chainId) ?? c) : c);
      if (!key) {
        if (ctx.dropped) ctx.dropped.unverifiedPool++;
        break;
      }
      const t0 = asToken(key.currency0);
      const t1 = asToken(key.currency1);
      if (!tokenInfo(ctx.chainId, t0) || !tokenInfo(ctx.chainId, t1)) {
        if (ctx.dropped) ctx.dropped.unlistedPool++;
        break;
      }
      const a0 = args.amount0 as bigint;
      const a1 = args.amount1 as bigint;
      // V4's amounts are the trader's balance change: negative is what it paid into the pool
      const pool: PoolInfo = { protocol: 'uniswap-v3', token0: t0, token1: t1 };
      const valueUsd = swapValue(ctx.chainId, pool, { amount0: -a0, amount1: -a1 }, false, price);
      const rebates = (BigInt(key.hooks) & 0b1100n) !== 0n;
      const swap = {
        protocol: 'uniswap-v4',
        valueUsd,
        amount: String(rebates ? 0 : Number(args.fee)),
        ref: `${key.currency0}/${key.currency1}`,
        direction: a0 < 0n ? ('out' as const) : ('in' as const),
        contract: id,
        counterparty: key.hooks === ZERO_ADDRESS ? null : key.hooks,
      };
      add(a('sender'), 'swap', swap);
      if (ctx.txFrom) add(ctx.txFrom.toLowerCase(), 'swap', swap);
      break;
    }
    case 'UniswapV4ModifyLiquidity': {
      // liquidity added to a V4 pool by the wallet (its own call, or a transaction it sent through the position
      // manager): its swaps in that pool trade against itself from here on (scoring/features/sql.ts, like a V3 position), while
      // what it added is more than what it took out (amount: the signed liquidity delta)
      const delta = args.liquidityDelta as bigint;
      if (delta === 0n) break;
      const id = log.topics[1].toLowerCase();
      const lp = { protocol: 'uniswap-v4', contract: id, amount: delta.toString() };
      const kind = delta > 0n ? 'lp_position' : 'lp_liquidity';
      add(a('sender'), kind, lp);
      if (ctx.txFrom) add(ctx.txFrom.toLowerCase(), kind, lp);
      break;
    }
    case 'NpmIncreaseLiquidity':
    case 'NpmDecreaseLiquidity': {
      // a V3 position's liquidity, by token id (anyone may add to any position; only its owner or an approved
      // operator may remove): recorded under the transaction's sender, read by token id (scoring/features/sql.ts)
      const liquidity = args.liquidity as bigint;
      if (liquidity === 0n || !ctx.txFrom) break;
      const signed = def.name === 'NpmIncreaseLiquidity' ? liquidity : -liquidity;
      add(ctx.txFrom.toLowerCase(), 'lp_liquidity', {
        protocol: 'uniswap-v3',
        tokenId: BigInt(log.topics[1]).toString(),
        amount: signed.toString(),
      });
      break;
    }
    case 'BalancerSwap': {
      // Balancer V2: the Vault's Swap names the pool (the poolId's first 20 bytes) and both tokens; the trader is
      // the transaction's sender. The pool's swap fee is not in the Vault's logs (the pool keeps it, anyone can
      // register a pool with any fee logic): swaps are volume with no fee counted (amount 0).
      const poolAddress = `0x${log.topics[1].slice(2, 42)}`.toLowerCase();
      const tokenIn = a('tokenIn')!;
      const tokenOut = a('tokenOut')!;
      if (!tokenInfo(ctx.chainId, tokenIn) || !tokenInfo(ctx.chainId, tokenOut)) {
        if (ctx.dropped) ctx.dropped.unlistedPool++;
        break;
      }
      const [token0, token1] = tokenIn < tokenOut ? [tokenIn, tokenOut] : [tokenOut, tokenIn];
      const zeroIn = tokenIn === token0;
      const pool: PoolInfo = { protocol: 'uniswap-v3', token0, token1 };
      const amountIn = args.amountIn as bigint;
      const amountOut = args.amountOut as bigint;
      const valueUsd = swapValue(
        ctx.chainId,
        pool,
        { amount0: zeroIn ? amountIn : -amountOut, amount1: zeroIn ? -amountOut : amountIn },
        false,
        price,
      );
      if (ctx.txFrom)
        add(ctx.txFrom.toLowerCase(), 'swap', {
          protocol: 'balancer-v2',
          valueUsd,
          amount: '0',
          ref: `${token0}/${token1}`,
          direction: zeroIn ? 'out' : 'in',
          contract: poolAddress,
          counterparty: null,
        });
      break;
    }
    case 'BalancerPoolBalanceChanged': {
      // a join (a positive delta) makes the provider a holder of that pool: its swaps there are its own liquidity
      const deltas = args.deltas as bigint[];
      if (!deltas.some((d) => d > 0n)) break;
      const lp = { protocol: 'balancer-v2', contract: `0x${log.topics[1].slice(2, 42)}`.toLowerCase() };
      add(a('liquidityProvider'), 'lp_position', lp);
      if (ctx.txFrom) add(ctx.txFrom.toLowerCase(), 'lp_position', lp);
      break;
    }
    case 'UniswapV2Swap':
    case 'UniswapV3Swap': {
      const protocol = def.name === 'UniswapV2Swap' ? 'uniswap-v2' : 'uniswap-v3';
      const recipient = a(def.name === 'UniswapV2Swap' ? 'to' : 'recipient');
      const pool = ctx.pools!.get(contract)!;
      const v2 = def.name === 'UniswapV2Swap';
      const valueUsd = swapValue(ctx.chainId, pool, args, v2, price);
      // for fees paid and round trips (scoring/features/sql.ts): the pool's fee (hundredths of a bip; a V2 pair charges 0.3%) in
      // amount, its pair in ref, and the side: 'out' when token0 was paid into the pool, 'in' when token1 was
      const big = (k: string) => (args[k] as bigint | undefined) ?? 0n;
      const zeroIn = v2 ? big('amount0In') > 0n : big('amount0') > 0n;
      const swap = {
        protocol,
        valueUsd,
        amount: String(v2 ? 3000 : (pool.fee ?? 3000)),
        ref: `${pool.token0}/${pool.token1}`,
        direction: zeroIn ? ('out' as const) : ('in' as const),
      };
      add(a('sender'), 'swap', { ...swap, counterparty: recipient });
      add(recipient, 'swap', { ...swap, counterparty: a('sender') });
      if (ctx.txFrom) add(ctx.txFrom.toLowerCase(), 'swap', { ...swap, counterparty: recipient });
      break;
    }
    case 'VoteCast':
    case 'VoteCastWithParams':
      add(a('voter'), 'gov_vote', { ref: n('proposalId'), amount: n('weight'), protocol: pass.protocol });
      break;
    case 'DelegateChanged': {
      const delegator = a('delegator');
      const to = a('toDelegate');
      add(delegator, 'gov_delegate', { counterparty: to, protocol: pass.protocol });
      if (to !== delegator) add(to, 'gov_delegated_to', { counterparty: delegator, protocol: pass.protocol });
      break;
    }
    case 'DelegateVotesChanged': {
      // the votes a delegation moved to the delegate (negative when they left): what a delegation received weighs;
      // ref: the delegate's votes from then on (its voting power over time: what holding it cost)
      const moved = (args.newBalance as bigint) - (args.previousBalance as bigint);
      add(a('delegate'), 'gov_votes_changed', {
        amount: moved.toString(),
        ref: (args.newBalance as bigint).toString(),
        protocol: pass.protocol,
      });
      break;
    }
    case 'EnsNameRegisteredV1':
    case 'EnsNameRegisteredV2':
      // the label hash is the base registrar's token id: one name counts once whichever event is seen
      add(a('owner'), 'ens_register', { ref: log.topics[1].toLowerCase(), protocol: 'ens' });
      break;
    case 'EnsBaseNameRegistered':
      add(a('owner'), 'ens_register', { ref: log.topics[1].toLowerCase(), protocol: 'ens' });
      break;
    case 'Attested': {
      const uid = n('uid');
      // Anyone may attest anything on EAS: only a trusted attester or schema (data/registry) marks it 'eas-trusted'
      const protocol = easTrust(ctx.chainId, a('attester') ?? '', log.topics[3] ?? '') ? 'eas-trusted' : 'eas';
      add(a('recipient'), 'attestation_received', { counterparty: a('attester'), ref: uid, protocol });
      add(a('attester'), 'attestation_made', { counterparty: a('recipient'), ref: uid, protocol });
      break;
    }
  }
  return out;
}

/** USD volume of a swap: the stablecoin side's amount (in or out); else, at the oracle's price, the side paid into
 *  the pool, else the other side; null when neither side has a price. */
function swapValue(
  chainId: number,
  pool: PoolInfo,
  args: Record<string, unknown>,
  v2: boolean,
  price: (token: string) => number | null,
): number | null {
  const big = (k: string) => (args[k] as bigint | undefined) ?? 0n;
  const abs = (x: bigint) => (x < 0n ? -x : x);
  const amt0 = v2 ? big('amount0In') + big('amount0Out') : abs(big('amount0'));
  const amt1 = v2 ? big('amount1In') + big('amount1Out') : abs(big('amount1'));
  const stable = usdValue(chainId, pool.token0, amt0) ?? usdValue(chainId, pool.token1, amt1);
  if (stable !== null) return stable;
  const in0 = v2 ? big('amount0In') > 0n : big('amount0') > 0n;
  const sides: [string, bigint][] = in0
    ? [
        [pool.token0, amt0],
        [pool.token1, amt1],
      ]
    : [
        [pool.token1, amt1],
        [pool.token0, amt0],
      ];
  for (const [token, amt] of sides) {
    const v = usdValue(chainId, token, amt, price(token));
    if (v !== null) return v;
  }
  // neither side priced: crumbs of both tokens are dust, anything more is an unvalued swap
  return evidenceValue(chainId, pool.token0, amt0) === 0 && evidenceValue(chainId, pool.token1, amt1) === 0 ? 0 : null;
}

type Add = (wallet: string | null, kind: ActivityKind, f?: Partial<ActivityRecord>) => void;

function nftTransfer(add: Add, from: string | null, to: string | null, kind: ActivityKind, f: Partial<ActivityRecord>) {
  if (from === ZERO_ADDRESS) {
    add(to, 'nft_mint', { ...f, direction: 'in', counterparty: null });
    return;
  }
  add(from, kind, { ...f, direction: 'out', counterparty: to });
  add(to, kind, { ...f, direction: 'in', counterparty: from });
}

/** A contract deployment record, keyed by the deployed address (see ActivityRecord.txHash). */
export function deploymentRecord(
  chainId: number,
  deployer: string,
  contract: string,
  blockNumber: number,
  occurredAt: Date | null,
  hasCode: boolean,
): ActivityRecord {
  return {
    chainId,
    txHash: contract.toLowerCase(),
    logIndex: -1,
    wallet: deployer.toLowerCase(),
    kind: 'contract_deploy',
    blockNumber,
    occurredAt,
    contract: contract.toLowerCase(),
    counterparty: null,
    tokenId: null,
    amount: null,
    direction: null,
    protocol: null,
    ref: hasCode ? 'code' : null,
    // the deployer sent the creating transaction (found from its nonce or the transaction itself)
    txFrom: deployer.toLowerCase(),
  };
}
