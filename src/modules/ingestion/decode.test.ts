// The log decoder on logs encoded with each protocol's real event ABI: which wallet gets which record.
import { describe, expect, it } from 'vitest';
import { encodeAbiParameters, encodeEventTopics, keccak256, pad, parseAbiItem, toHex, type AbiEvent } from 'viem';
import { randomAddress } from '../../../test/helpers/app.js';
import { decodeLog, type RawLog } from './decode.js';
import { EVENTS, selectorsByWalletTopic, ZERO_ADDRESS } from './events.js';
import { easTrust } from './registry/index.js';
import { newDropCounter, type PoolInfo } from './registry/gate.js';

// Pinned mainnet emitters (data/registry and the packages): only these make protocol events evidence.
const AAVE = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const COMET = '0xc3d688b66703497daa19211eedff47f25384cdc3';
const GOVERNOR = '0x408ed6354d4973f66138c91495f2f2fcbd8724c3';
const UNI = '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984';
const ENS_CONTROLLER = '0x253553366da8546fc250f225fe3d25d0c782303b';
const ENS_OLD_CONTROLLER = '0x283af0b28c62c092c9727f1ee09c02ca627eb7f5';
const ENS_BASE = '0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85';
const EAS = '0xa1207f3bba224e2c9c3c6d5af63d0eb1582ce587';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const PAIR = '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc'; // Uniswap V2 USDC/WETH
const POOL = '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640'; // Uniswap V3 USDC/WETH 0.05%
const pools = new Map<string, PoolInfo | null>([
  [PAIR, { protocol: 'uniswap-v2', token0: USDC, token1: WETH }],
  [POOL, { protocol: 'uniswap-v3', token0: USDC, token1: WETH, fee: 500 }],
]);
const at_ = (address: string) => ({ address });

const contract = randomAddress();
const at = new Date('2024-03-01T12:00:00Z');

/** Encodes a log the way the chain would: indexed arguments in topics, the others ABI-encoded in data. */
function log(signature: string, args: Record<string, unknown>, over: Partial<RawLog> = {}): RawLog {
  const abi = parseAbiItem(signature) as AbiEvent;
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: args as never }) as string[];
  const plain = abi.inputs.filter((i) => !i.indexed);
  const data = encodeAbiParameters(
    plain,
    plain.map((i) => args[i.name!]),
  );
  return {
    address: contract,
    topics,
    data,
    transactionHash: keccak256(toHex(String(Math.random()))),
    logIndex: 3,
    blockNumber: 100,
    timestamp: at,
    ...over,
  };
}

const kinds = (l: RawLog, txFrom?: string) => decodeLog(l, { chainId: 1, txFrom, pools }).map((r) => [r.wallet, r.kind, r.direction]);

describe('decodeLog', () => {
  const [a, b, c] = [randomAddress(), randomAddress(), randomAddress()];

  it('tells ERC-20 from ERC-721 transfers by topic count, and mints from transfers', () => {
    expect(kinds(log('event Transfer(address indexed from, address indexed to, uint256 value)', { from: a, to: b, value: 5n }))).toEqual([
      [a, 'transfer_erc20', 'out'],
      [b, 'transfer_erc20', 'in'],
    ]);
    const nft = log('event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)', { from: a, to: b, tokenId: 42n });
    expect(decodeLog(nft, { chainId: 1 }).map((r) => [r.wallet, r.kind, r.tokenId])).toEqual([
      [a, 'transfer_erc721', '42'],
      [b, 'transfer_erc721', '42'],
    ]);
    expect(
      kinds(
        log('event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)', {
          from: ZERO_ADDRESS,
          to: b,
          tokenId: 1n,
        }),
      ),
    ).toEqual([[b, 'nft_mint', 'in']]);
    // an ERC-20 mint is a transfer in for the receiver only (the zero address is never a wallet)
    expect(
      kinds(log('event Transfer(address indexed from, address indexed to, uint256 value)', { from: ZERO_ADDRESS, to: b, value: 1n })),
    ).toEqual([[b, 'transfer_erc20', 'in']]);
  });

  it('ERC-1155 single and batch transfers', () => {
    const single = log(
      'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
      { operator: c, from: a, to: b, id: 7n, value: 2n },
    );
    expect(kinds(single)).toEqual([
      [a, 'transfer_erc1155', 'out'],
      [b, 'transfer_erc1155', 'in'],
    ]);
    const batch = log(
      'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
      { operator: c, from: a, to: b, ids: [1n, 2n], values: [3n, 4n] },
    );
    expect(decodeLog(batch, { chainId: 1 })[1]).toMatchObject({ wallet: b, amount: '7', tokenId: null });
  });

  it('Aave V3 and Compound V3 lending events credit the account the position belongs to', () => {
    const reserve = randomAddress();
    const supply = log(
      'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
      { reserve, user: c, onBehalfOf: a, amount: 10n, referralCode: 0 },
      at_(AAVE),
    );
    expect(decodeLog(supply, { chainId: 1 })).toMatchObject([
      { wallet: a, kind: 'lending_supply', protocol: 'aave-v3', amount: '10', counterparty: reserve },
    ]);
    const borrow = log(
      'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
      {
        reserve,
        user: a,
        onBehalfOf: a,
        amount: 9n,
        interestRateMode: 2,
        borrowRate: 1n,
        referralCode: 0,
      },
      at_(AAVE),
    );
    expect(kinds(borrow)).toEqual([[a, 'lending_borrow', null]]);
    const repay = log(
      'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
      { reserve, user: a, repayer: c, amount: 9n, useATokens: false },
      at_(AAVE),
    );
    expect(kinds(repay)).toEqual([[a, 'lending_repay', null]]);
    const liq = log(
      'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
      {
        collateralAsset: reserve,
        debtAsset: reserve,
        user: a,
        debtToCover: 5n,
        liquidatedCollateralAmount: 6n,
        liquidator: c,
        receiveAToken: false,
      },
      at_(AAVE),
    );
    expect(kinds(liq)).toEqual([[a, 'lending_liquidation', null]]);
    expect(
      kinds(log('event Supply(address indexed from, address indexed dst, uint256 amount)', { from: c, dst: a, amount: 1n }, at_(COMET))),
    ).toEqual([[a, 'lending_supply', null]]);
    expect(
      kinds(log('event Withdraw(address indexed src, address indexed to, uint256 amount)', { src: a, to: a, amount: 1n }, at_(COMET))),
    ).toEqual([[a, 'lending_withdraw', 'out']]);
    expect(
      decodeLog(
        log(
          'event AbsorbDebt(address indexed absorber, address indexed borrower, uint256 basePaidOut, uint256 usdValue)',
          { absorber: c, borrower: a, basePaidOut: 3n, usdValue: 3n },
          at_(COMET),
        ),
        { chainId: 1 },
      ),
    ).toMatchObject([{ wallet: a, kind: 'lending_liquidation', protocol: 'compound-v3' }]);
  });

  it('an Aave aToken Transfer between holders moves collateral: a withdrawal for the sender, a supply for the receiver', () => {
    const AUSDC = '0x98c23e9d8f34fefb1b7bd6a91b7ff122f4e16f5c'; // AaveV3Ethereum.ASSETS.USDC.A_TOKEN
    const AWETH = '0x4d5f47fa6a74757f35c14fd3a6ef8e3c9bc514e8'; // AaveV3Ethereum.ASSETS.WETH.A_TOKEN
    const transfer = 'event Transfer(address indexed from, address indexed to, uint256 value)';
    const moved = decodeLog(log(transfer, { from: a, to: b, value: 2_500_000_000n }, at_(AUSDC)), { chainId: 1 });
    // the token movement as before, and the position's: the pool's rows, in the reserve's units, valued like them
    expect(moved.map((r) => [r.wallet, r.kind, r.direction, r.contract, r.counterparty, r.protocol, r.amount, r.valueUsd, r.ref])).toEqual([
      [a, 'transfer_erc20', 'out', AUSDC, b, null, '2500000000', null, null],
      [b, 'transfer_erc20', 'in', AUSDC, a, null, '2500000000', null, null],
      [a, 'lending_withdraw', 'out', AAVE, USDC, 'aave-v3', '2500000000', 2500, 'atoken-transfer'],
      [b, 'lending_supply', null, AAVE, USDC, 'aave-v3', '2500000000', 2500, 'atoken-transfer'],
    ]);
    // a non-stable reserve at the oracle's price, like a Supply of it (the pricing pre-pass asks for the reserve)
    const asked: string[] = [];
    const priced = decodeLog(log(transfer, { from: a, to: b, value: 2n * 10n ** 18n }, at_(AWETH)), {
      chainId: 1,
      prices: (token) => (asked.push(token), 3000),
    });
    expect(priced.filter((r) => r.kind.startsWith('lending_')).map((r) => [r.kind, r.counterparty, r.valueUsd])).toEqual([
      ['lending_withdraw', WETH, 6000],
      ['lending_supply', WETH, 6000],
    ]);
    expect(asked).toContain(WETH);
    // mints and burns (they come with the pool's Supply and Withdraw, or interest accrual) and a transfer to oneself
    // move nothing; V3's BalanceTransfer (scaled amounts) is not read; any other token's transfer is no lending
    const lendingOf = (l: RawLog) => decodeLog(l, { chainId: 1 }).filter((r) => r.kind.startsWith('lending_'));
    expect(lendingOf(log(transfer, { from: ZERO_ADDRESS, to: a, value: 5n }, at_(AUSDC)))).toEqual([]);
    expect(lendingOf(log(transfer, { from: a, to: ZERO_ADDRESS, value: 5n }, at_(AUSDC)))).toEqual([]);
    expect(lendingOf(log(transfer, { from: a, to: a, value: 5n }, at_(AUSDC)))).toEqual([]);
    expect(
      decodeLog(
        log(
          'event BalanceTransfer(address indexed from, address indexed to, uint256 value, uint256 index)',
          { from: a, to: b, value: 4n, index: 10n ** 27n },
          at_(AUSDC),
        ),
        { chainId: 1 },
      ),
    ).toEqual([]);
    expect(lendingOf(log(transfer, { from: a, to: b, value: 5n }, at_(USDC)))).toEqual([]);
    // a liquidation with receiveAToken: the liquidated wallet's aTokens go to the liquidator, collateral leaving it
    expect(kinds(log(transfer, { from: a, to: c, value: 5n }, at_(AUSDC))).filter(([, k]) => String(k).startsWith('lending_'))).toEqual([
      [a, 'lending_withdraw', 'out'],
      [c, 'lending_supply', null],
    ]);
  });

  it('Uniswap V2 and V3 swaps credit sender, recipient and (in bulk imports) the transaction sender once each', () => {
    const v2 = log(
      'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
      { sender: a, amount0In: 1n, amount1In: 0n, amount0Out: 0n, amount1Out: 2n, to: b },
      at_(PAIR),
    );
    // direction: the side paid into the pool ('out': token0, here amount0In), for round trips (scoring/features/sql.ts)
    expect(kinds(v2, c)).toEqual([
      [a, 'swap', 'out'],
      [b, 'swap', 'out'],
      [c, 'swap', 'out'],
    ]);
    // every record carries the transaction's sender; the swap its pool's fee (V2: 0.3%) and pair
    expect(decodeLog(v2, { chainId: 1, txFrom: c, pools })[0]).toMatchObject({
      txFrom: c,
      amount: '3000',
      ref: `${pools.get(PAIR)!.token0}/${pools.get(PAIR)!.token1}`,
    });
    const v3 = log(
      'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
      {
        sender: a,
        recipient: a,
        amount0: -1n,
        amount1: 2n,
        sqrtPriceX96: 1n,
        liquidity: 1n,
        tick: -5,
      },
      at_(POOL),
    );
    expect(decodeLog(v3, { chainId: 1, txFrom: a, pools })).toMatchObject([
      { wallet: a, kind: 'swap', protocol: 'uniswap-v3', direction: 'in', txFrom: a },
    ]);
  });

  it('governance votes and delegations, ENS registrations and EAS attestations', () => {
    const vote = log(
      'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
      { voter: a, proposalId: 77n, support: 1, weight: 10n, reason: 'yes' },
      at_(GOVERNOR),
    );
    expect(decodeLog(vote, { chainId: 1 })).toMatchObject([{ wallet: a, kind: 'gov_vote', ref: '77', amount: '10' }]);
    expect(
      kinds(
        log(
          'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
          { delegator: a, fromDelegate: ZERO_ADDRESS, toDelegate: b },
          at_(UNI),
        ),
      ),
    ).toEqual([
      [a, 'gov_delegate', null],
      [b, 'gov_delegated_to', null],
    ]);
    // the votes a delegation moved (what a delegation received weighs): DelegateVotesChanged of the votes token
    expect(
      decodeLog(
        log(
          'event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)',
          { delegate: b, previousBalance: 5n, newBalance: 3n },
          at_(UNI),
        ),
        { chainId: 1 },
      ),
    ).toMatchObject([{ wallet: b, kind: 'gov_votes_changed', amount: '-2' }]);
    expect(
      decodeLog(
        log(
          'event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)',
          { delegate: b, previousBalance: 0n, newBalance: 9n },
          at_(randomAddress()),
        ),
        { chainId: 1 },
      ),
    ).toEqual([]);
    // self-delegation activates votes: a delegation made, none received
    expect(
      kinds(
        log(
          'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
          { delegator: a, fromDelegate: ZERO_ADDRESS, toDelegate: a },
          at_(UNI),
        ),
      ),
    ).toEqual([[a, 'gov_delegate', null]]);
    const label = keccak256(toHex('alice'));
    const controller = log(
      'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
      { name: 'alice', label, owner: a, baseCost: 1n, premium: 0n, expires: 2n },
      at_(ENS_CONTROLLER),
    );
    const base = log(
      'event NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)',
      { id: BigInt(label), owner: a, expires: 2n },
      at_(ENS_BASE),
    );
    const old = log(
      'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)',
      { name: 'alice', label, owner: a, cost: 1n, expires: 2n },
      at_(ENS_OLD_CONTROLLER),
    );
    // the same name seen through the controller and the base registrar has one ref
    expect(new Set([controller, base, old].map((l) => decodeLog(l, { chainId: 1 })[0].ref))).toEqual(new Set([label]));
    const uid = pad('0x01');
    const att = log(
      'event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID)',
      { recipient: a, attester: b, uid, schemaUID: pad('0x02') },
      at_(EAS),
    );
    expect(decodeLog(att, { chainId: 1 }).map((r) => [r.wallet, r.kind, r.ref])).toEqual([
      [a, 'attestation_received', uid],
      [b, 'attestation_made', uid],
    ]);
  });

  it('ignores unknown events and logs that only share a selector', () => {
    expect(
      decodeLog(log('event Approval(address indexed owner, address indexed spender, uint256 value)', { owner: a, spender: b, value: 1n }), {
        chainId: 1,
      }),
    ).toEqual([]);
    const broken = log(
      'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
      { voter: a, proposalId: 1n, support: 1, weight: 1n, reason: '' },
      at_(GOVERNOR),
    );
    expect(decodeLog({ ...broken, data: '0x1234' }, { chainId: 1 })).toEqual([]);
  });

  it('asks eth_getLogs once per topic position, covering every event', () => {
    const byPos = selectorsByWalletTopic();
    expect([...byPos.keys()].sort()).toEqual([1, 2, 3]);
    for (const e of EVENTS) for (const p of e.walletTopics) expect(byPos.get(p)).toContain(e.topic0);
    expect(new Set(EVENTS.map((e) => e.topic0)).size).toBe(EVENTS.length);
  });

  it('the same protocol events from an unpinned emitter produce nothing, and are counted as dropped', () => {
    const forger = randomAddress();
    const dropped = newDropCounter();
    const sigs: [string, Record<string, unknown>][] = [
      [
        'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
        { reserve: USDC, user: a, onBehalfOf: a, amount: 9n, interestRateMode: 2, borrowRate: 1n, referralCode: 0 },
      ],
      [
        'event LiquidationCall(address indexed collateralAsset, address indexed debtAsset, address indexed user, uint256 debtToCover, uint256 liquidatedCollateralAmount, address liquidator, bool receiveAToken)',
        {
          collateralAsset: WETH,
          debtAsset: USDC,
          user: a,
          debtToCover: 5n,
          liquidatedCollateralAmount: 6n,
          liquidator: c,
          receiveAToken: false,
        },
      ],
      [
        'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
        { voter: a, proposalId: 77n, support: 1, weight: 10n, reason: 'yes' },
      ],
      [
        'event DelegateChanged(address indexed delegator, address indexed fromDelegate, address indexed toDelegate)',
        { delegator: b, fromDelegate: ZERO_ADDRESS, toDelegate: a },
      ],
      [
        'event Attested(address indexed recipient, address indexed attester, bytes32 uid, bytes32 indexed schemaUID)',
        { recipient: a, attester: b, uid: pad('0x01'), schemaUID: pad('0x02') },
      ],
    ];
    for (const [sig, args] of sigs) expect(decodeLog(log(sig, args, { address: forger }), { chainId: 1, pools, dropped }), sig).toEqual([]);
    // a swap from a contract that is not the factory's CREATE2 address for any pair
    const swap = log(
      'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
      { sender: a, amount0In: 1n, amount1In: 0n, amount0Out: 0n, amount1Out: 2n, to: a },
      { address: forger },
    );
    expect(decodeLog(swap, { chainId: 1, pools, dropped })).toEqual([]);
    expect(dropped).toEqual({ unpinned: 5, unverifiedPool: 1, unlistedPool: 0 });
    // the pinned Aave pool on another chain id is not pinned there
    expect(decodeLog(log(sigs[0][0], sigs[0][1], { address: AAVE }), { chainId: 8453 })).toEqual([]);
  });

  it('values amounts with the asset decimals: stablecoins at 1 USD, others unvalued; routers and pools get no records', () => {
    const borrow = log(
      'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
      {
        reserve: USDC,
        user: a,
        onBehalfOf: a,
        amount: 1_500_000_000n,
        interestRateMode: 2,
        borrowRate: 1n,
        referralCode: 0,
      },
      at_(AAVE),
    );
    expect(decodeLog(borrow, { chainId: 1 })[0]).toMatchObject({ kind: 'lending_borrow', valueUsd: 1500 });
    const weth = log(
      'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
      { reserve: WETH, user: a, onBehalfOf: a, amount: 10n ** 18n, referralCode: 0 },
      at_(AAVE),
    );
    expect(decodeLog(weth, { chainId: 1 })[0]).toMatchObject({ kind: 'lending_supply', valueUsd: null });
    const router = '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad'; // Universal Router
    const v3 = log(
      'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
      {
        sender: router,
        recipient: a,
        amount0: -2_000_000_000n,
        amount1: 10n ** 18n,
        sqrtPriceX96: 1n,
        liquidity: 1n,
        tick: -5,
      },
      at_(POOL),
    );
    expect(decodeLog(v3, { chainId: 1, pools }).map((r) => [r.wallet, r.valueUsd])).toEqual([[a, 2000]]);
  });
});

describe('EAS trust (Base, Coinbase Verifications)', () => {
  const COINBASE_ATTESTER = '0x357458739F90461b99789350868CD7CF330Dd7EE';
  const VERIFIED_ACCOUNT = '0xf8b05c79f090979bf4a80270aba232dff11a10d9ca55c4f88de95317970f0de9';
  it("needs Coinbase's attester: anyone can attest under the public schema UID, and that earns nothing", () => {
    expect(easTrust(8453, COINBASE_ATTESTER, VERIFIED_ACCOUNT)).toBe(true);
    expect(easTrust(8453, randomAddress(), VERIFIED_ACCOUNT)).toBe(false);
    expect(easTrust(8453, COINBASE_ATTESTER, pad('0x02'))).toBe(false);
    expect(easTrust(1, COINBASE_ATTESTER, VERIFIED_ACCOUNT)).toBe(false);
  });
});
