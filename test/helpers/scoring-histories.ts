// Made-up but realistic wallet histories, as ethereum-etl exports with every scoring event at the real pinned
// addresses: honest ones (a trader, a voter, a collector, a developer) and four attacks that try to
// earn credit without paying for it. Used by src/modules/ingestion/costly-evidence.test.ts and bench/attack-cost.ts.
import { parseEther, parseUnits } from 'viem';
import { EtlExport, SIGS } from './etl-export.js';

export const MAINNET = {
  usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  /** Uniswap V3 USDC/WETH pools (the factory's CREATE2 addresses) by fee tier, and the V2 pair */
  pool1bp: '0xe0554a476a092703abdb3ef35c80e0d76d32939f',
  pool5bp: '0x88e6a0c2ddd26feeb64f039a2c41296fcb3f5640',
  pool30bp: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8',
  pairV2: '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc',
  balancerVault: '0xba12222222228d8ba445958a75a0704d566bf2c8',
  ensGovernor: '0x323a76393544d5ecca80cd6ef2a560c6a395b7e3',
  ensToken: '0xc18360217d8f7ab5e7c516566761ea12ce7f9d72',
  compGovernor: '0xc0da02939e1441f497fd74f78ce7decb17b66529',
  comp: '0xc00e94cb662c3520282e6f5717214004a7f26888',
  /** collections on data/nft-collections.json */
  bayc: '0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d',
  azuki: '0xed5af388653567af2f388e6224dc7c4b3241c544',
  pudgy: '0xbd3531da5cf5857e7cfaa92426877b022e612cf8',
};
export const ARBITRUM = {
  coreGovernor: '0xf07ded9dc292157749b6fd268e37df6ea38395b9',
  treasuryGovernor: '0x789fc99093b09ad01c34dc7251d0c89ce743e5a4',
  arb: '0x912ce59144191c1204e64559fe8253a0e49e6548',
};

const ZERO = '0x0000000000000000000000000000000000000000';
const DAY = 86_400_000;
export const T0 = Date.UTC(2025, 0, 6, 12);
const day = (n: number, hours = 0) => new Date(T0 + n * DAY + hours * 3_600_000);
const usdc = (n: number) => parseUnits(String(n), 6);
/** WETH at $3,000 */
const wethFor = (usd: number) => parseEther(String(usd / 3000));
let counter = 1;
/** a fresh address each call */
export function addr(): string {
  return `0x${(counter++).toString(16).padStart(8, '0')}${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}${'5'.repeat(20)}`.toLowerCase();
}

/** The logs of a USDC <-> WETH swap in a V3 pool (token0 USDC, token1 WETH), paid and received by `who`. */
function v3SwapLogs(pool: string, who: string, usd: number, buyWeth: boolean) {
  const u = usdc(usd);
  const w = wethFor(usd);
  return buyWeth
    ? [
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: who, to: pool, value: u } },
        { address: MAINNET.weth, event: SIGS.transfer, args: { from: pool, to: who, value: w } },
        {
          address: pool,
          event: SIGS.v3Swap,
          args: { sender: who, recipient: who, amount0: u, amount1: -w, sqrtPriceX96: 1n << 96n, liquidity: 10n ** 18n, tick: 0 },
        },
      ]
    : [
        { address: MAINNET.weth, event: SIGS.transfer, args: { from: who, to: pool, value: w } },
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: pool, to: who, value: u } },
        {
          address: pool,
          event: SIGS.v3Swap,
          args: { sender: who, recipient: who, amount0: -u, amount1: w, sqrtPriceX96: 1n << 96n, liquidity: 10n ** 18n, tick: 0 },
        },
      ];
}

function v2SwapLogs(who: string, usd: number, buyWeth: boolean) {
  const pair = MAINNET.pairV2;
  const u = usdc(usd);
  const w = wethFor(usd);
  return buyWeth
    ? [
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: who, to: pair, value: u } },
        { address: MAINNET.weth, event: SIGS.transfer, args: { from: pair, to: who, value: w } },
        { address: pair, event: SIGS.v2Swap, args: { sender: who, amount0In: u, amount1In: 0n, amount0Out: 0n, amount1Out: w, to: who } },
      ]
    : [
        { address: MAINNET.weth, event: SIGS.transfer, args: { from: who, to: pair, value: w } },
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: pair, to: who, value: u } },
        { address: pair, event: SIGS.v2Swap, args: { sender: who, amount0In: 0n, amount1In: w, amount0Out: u, amount1Out: 0n, to: who } },
      ];
}

/** A year of trading that pays its way: twice a month, $40,000-53,700 USDC <-> WETH in the 5-bp and 30-bp pools
 *  (bought, then sold two weeks later), and two $20,000 trades in the V2 pair: about $2,100 of pool fees paid to
 *  others' liquidity (the model prices 600 at $1,000 of measured cost). */
export function honestTrader(x: EtlExport, who: string): void {
  for (let m = 0; m < 12; m++) {
    const usd = 40_000 + ((m * 1370) % 14_000);
    const pool = m % 2 === 0 ? MAINNET.pool5bp : MAINNET.pool30bp;
    x.tx({ from: who, to: pool, at: day(m * 30 + 2), logs: v3SwapLogs(pool, who, usd, true) });
    x.tx({ from: who, to: pool, at: day(m * 30 + 16), logs: v3SwapLogs(pool, who, usd, false) });
  }
  x.tx({ from: who, to: MAINNET.pairV2, at: day(100), logs: v2SwapLogs(who, 20_000, true) });
  x.tx({ from: who, to: MAINNET.pairV2, at: day(220), logs: v2SwapLogs(who, 20_000, false) });
}

const AAVE = {
  pool: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
  usdt: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  supply: 'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  borrow:
    'event Borrow(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint8 interestRateMode, uint256 borrowRate, uint16 indexed referralCode)',
  repay: 'event Repay(address indexed reserve, address indexed user, address indexed repayer, uint256 amount, bool useATokens)',
  withdraw: 'event Withdraw(address indexed reserve, address indexed user, address indexed to, uint256 amount)',
};

/** Row 1: one flash-loan transaction: $1.43M of USDC from the Balancer vault supplied to the Aave V3 Pool, $1M of USDT
 *  borrowed and repaid, the USDC withdrawn and paid back (the same loop as ingestion/lending-attacks.test.ts). */
export function flashLender(x: EtlExport, who: string): void {
  const [supply, borrow] = [usdc(1_430_000), parseUnits('1000000', 6)];
  x.tx({
    from: who,
    to: addr(),
    at: day(300),
    logs: [
      { address: MAINNET.usdc, event: SIGS.transfer, args: { from: MAINNET.balancerVault, to: who, value: supply } },
      {
        address: AAVE.pool,
        event: AAVE.supply,
        args: { reserve: MAINNET.usdc, user: who, onBehalfOf: who, amount: supply, referralCode: 0 },
      },
      {
        address: AAVE.pool,
        event: AAVE.borrow,
        args: {
          reserve: AAVE.usdt,
          user: who,
          onBehalfOf: who,
          amount: borrow,
          interestRateMode: 2,
          borrowRate: 5n * 10n ** 25n,
          referralCode: 0,
        },
      },
      { address: AAVE.pool, event: AAVE.repay, args: { reserve: AAVE.usdt, user: who, repayer: who, amount: borrow, useATokens: false } },
      { address: AAVE.pool, event: AAVE.withdraw, args: { reserve: MAINNET.usdc, user: who, to: who, amount: supply } },
      { address: MAINNET.usdc, event: SIGS.transfer, args: { from: who, to: MAINNET.balancerVault, value: supply } },
    ],
  });
}

/** Row 4: flash-funded round trips of $50k (borrowed from the Balancer vault and paid back in the same transaction),
 *  out through the 5-bp pool and back through the 1-bp pool, once a day for 10 days: 20 swaps, ~$600 of pool fees. */
export function flashTrader(x: EtlExport, who: string): void {
  const bot = addr();
  for (let d = 0; d < 10; d++) {
    x.tx({
      from: who,
      to: bot,
      at: day(d),
      logs: [
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: MAINNET.balancerVault, to: who, value: usdc(50_000) } },
        ...v3SwapLogs(MAINNET.pool5bp, who, 50_000, true),
        ...v3SwapLogs(MAINNET.pool1bp, who, 49_970, false),
        { address: MAINNET.usdc, event: SIGS.transfer, args: { from: who, to: MAINNET.balancerVault, value: usdc(50_000) } },
      ],
    });
  }
}

/** Row 8: the victim is an honest V2 trader; an attacker's token emits Transfer(victim -> pair) and the attacker
 *  calls addLiquidity(..., to = victim) on the real pair (the pair mints LP tokens to the victim), in the
 *  attacker's transaction, before the victim's later swaps. */
export function pairGriefing(x: EtlExport, victim: string, attacker: string): void {
  const pair = MAINNET.pairV2;
  for (let i = 0; i < 4; i++) x.tx({ from: victim, to: pair, at: day(i * 7), logs: v2SwapLogs(victim, 2500, i % 2 === 0) });
  const junk = addr();
  x.tx({
    from: attacker,
    to: junk,
    at: day(40),
    logs: [
      { address: junk, event: SIGS.transfer, args: { from: victim, to: pair, value: 10n ** 18n } },
      { address: MAINNET.usdc, event: SIGS.transfer, args: { from: attacker, to: pair, value: usdc(1) } },
      { address: MAINNET.weth, event: SIGS.transfer, args: { from: attacker, to: pair, value: wethFor(1) } },
      { address: pair, event: SIGS.transfer, args: { from: ZERO, to: victim, value: 10n ** 9n } },
      { address: pair, event: SIGS.v2Mint, args: { sender: attacker, amount0: usdc(1), amount1: wethFor(1) } },
    ],
  });
  for (let i = 0; i < 12; i++) x.tx({ from: victim, to: pair, at: day(45 + i * 14), logs: v2SwapLogs(victim, 2500, i % 2 === 0) });
}

/** A year of DAO voting: 2,000 ENS and 300 COMP self-delegated at the start (their DelegateVotesChanged), 10 ENS
 *  proposals and 2 Compound proposals voted with them; the COMP delegated to another delegate once; three holders
 *  (500, 1,200 and 80 ENS) delegate to it. */
export function honestVoter(x: EtlExport, who: string): void {
  for (const [token, amount] of [
    [MAINNET.ensToken, '2000'],
    [MAINNET.comp, '300'],
  ] as const) {
    x.tx({
      from: who,
      to: token,
      at: day(0),
      logs: [
        { address: token, event: SIGS.delegateChanged, args: { delegator: who, fromDelegate: ZERO, toDelegate: who } },
        { address: token, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: 0n, newBalance: parseEther(amount) } },
      ],
    });
  }
  for (let p = 0; p < 10; p++) {
    x.tx({
      from: who,
      to: MAINNET.ensGovernor,
      at: day(p * 33 + 5),
      logs: [
        {
          address: MAINNET.ensGovernor,
          event: SIGS.voteCast,
          args: { voter: who, proposalId: BigInt(1000 + p), support: 1, weight: parseEther('2000'), reason: '' },
        },
      ],
    });
  }
  for (let p = 0; p < 2; p++) {
    x.tx({
      from: who,
      to: MAINNET.compGovernor,
      at: day(p * 90 + 20),
      logs: [
        {
          address: MAINNET.compGovernor,
          event: SIGS.voteCast,
          args: { voter: who, proposalId: BigInt(200 + p), support: 0, weight: parseEther('300'), reason: '' },
        },
      ],
    });
  }
  const other = addr();
  x.tx({
    from: who,
    to: MAINNET.comp,
    at: day(250),
    logs: [
      { address: MAINNET.comp, event: SIGS.delegateChanged, args: { delegator: who, fromDelegate: who, toDelegate: other } },
      {
        address: MAINNET.comp,
        event: SIGS.delegateVotesChanged,
        args: { delegate: who, previousBalance: parseEther('300'), newBalance: 0n },
      },
      {
        address: MAINNET.comp,
        event: SIGS.delegateVotesChanged,
        args: { delegate: other, previousBalance: 0n, newBalance: parseEther('300') },
      },
    ],
  });
  let votes = parseEther('2000');
  for (const [i, ens] of [500, 1200, 80].entries()) {
    const holder = addr();
    const add = parseEther(String(ens));
    x.tx({
      from: holder,
      to: MAINNET.ensToken,
      at: day(40 + i * 60),
      logs: [
        { address: MAINNET.ensToken, event: SIGS.delegateChanged, args: { delegator: holder, fromDelegate: ZERO, toDelegate: who } },
        {
          address: MAINNET.ensToken,
          event: SIGS.delegateVotesChanged,
          args: { delegate: who, previousBalance: votes, newBalance: votes + add },
        },
      ],
    });
    votes += add;
  }
}

/** Votes on borrowed tokens (Arbitrum): for each of 20 proposals over two months, 200,000 ARB ($100,000) are borrowed
 *  and self-delegated a few minutes before the snapshot and returned right after it; the votes carry the full weight
 *  (the snapshot saw it). What holding them cost is minutes of interest, not two months of carry. */
export function snapshotBorrower(x: EtlExport, who: string): void {
  const big = parseEther('200000');
  for (let p = 0; p < 20; p++) {
    const gov = p % 2 === 0 ? ARBITRUM.coreGovernor : ARBITRUM.treasuryGovernor;
    const d = p * 3;
    x.tx({
      from: who,
      to: ARBITRUM.arb,
      at: day(d),
      logs: [{ address: ARBITRUM.arb, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: 0n, newBalance: big } }],
    });
    x.tx({
      from: who,
      to: ARBITRUM.arb,
      at: day(d, 0.1),
      logs: [{ address: ARBITRUM.arb, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: big, newBalance: 0n } }],
    });
    x.tx({
      from: who,
      to: gov,
      at: day(d + 2),
      logs: [
        { address: gov, event: SIGS.voteCast, args: { voter: who, proposalId: BigInt(9000 + p), support: 1, weight: big, reason: '' } },
      ],
    });
  }
}

/** Row 6 (Arbitrum): 1 wei of ARB self-delegated, 10 votes of weight 1 wei on the two governors, five zero-balance
 *  wallets delegate to it. */
export function dustVoter(x: EtlExport, who: string): void {
  x.tx({
    from: who,
    to: ARBITRUM.arb,
    at: day(0),
    logs: [
      { address: ARBITRUM.arb, event: SIGS.delegateChanged, args: { delegator: who, fromDelegate: ZERO, toDelegate: who } },
      { address: ARBITRUM.arb, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: 0n, newBalance: 1n } },
    ],
  });
  for (let p = 0; p < 10; p++) {
    const gov = p % 2 === 0 ? ARBITRUM.coreGovernor : ARBITRUM.treasuryGovernor;
    x.tx({
      from: who,
      to: gov,
      at: day(1 + p),
      logs: [
        { address: gov, event: SIGS.voteCast, args: { voter: who, proposalId: BigInt(7000 + p), support: 1, weight: 1n, reason: '' } },
      ],
    });
  }
  for (let i = 0; i < 5; i++) {
    const sybil = addr();
    x.tx({
      from: sybil,
      to: ARBITRUM.arb,
      at: day(12 + i),
      logs: [
        { address: ARBITRUM.arb, event: SIGS.delegateChanged, args: { delegator: sybil, fromDelegate: ZERO, toDelegate: who } },
        { address: ARBITRUM.arb, event: SIGS.delegateVotesChanged, args: { delegate: who, previousBalance: 1n, newBalance: 1n } },
      ],
    });
  }
}

/** A collector: mints 4 NFTs of listed collections (paying ETH, its own transactions), buys 3 (its own
 *  transactions, paying the seller), sells 1, over a year; and mints in a new collection a dozen others mint too. */
export function honestCollector(x: EtlExport, who: string): void {
  const cols = [MAINNET.bayc, MAINNET.azuki, MAINNET.pudgy];
  for (let i = 0; i < 3; i++) {
    const c = cols[i];
    x.tx({
      from: who,
      to: c,
      at: day(i * 50 + 3),
      value: parseEther('0.08'),
      logs: [{ address: c, event: SIGS.nftTransfer, args: { from: ZERO, to: who, tokenId: BigInt(100 + i) } }],
    });
  }
  const fresh = addr();
  for (let k = 0; k < 12; k++) {
    const other = addr();
    x.tx({
      from: other,
      to: fresh,
      at: day(170 + k),
      value: parseEther('0.02'),
      logs: [{ address: fresh, event: SIGS.nftTransfer, args: { from: ZERO, to: other, tokenId: BigInt(k) } }],
    });
  }
  x.tx({
    from: who,
    to: fresh,
    at: day(184),
    value: parseEther('0.02'),
    logs: [{ address: fresh, event: SIGS.nftTransfer, args: { from: ZERO, to: who, tokenId: 99n } }],
  });
  const market = addr();
  for (let i = 0; i < 3; i++) {
    const seller = addr();
    const c = cols[i];
    x.tx({
      from: who,
      to: market,
      at: day(200 + i * 40),
      value: parseEther('1.5'),
      logs: [{ address: c, event: SIGS.nftTransfer, args: { from: seller, to: who, tokenId: BigInt(500 + i) } }],
    });
  }
  const buyer = addr();
  x.tx({
    from: who,
    to: MAINNET.azuki,
    at: day(340),
    logs: [{ address: MAINNET.azuki, event: SIGS.nftTransfer, args: { from: who, to: buyer, tokenId: 101n } }],
  });
}

/** A developer: deploys 4 contracts over a year (60 transactions in all), three of which 25 other wallets
 *  (funded elsewhere) call. */
export function honestDeveloper(x: EtlExport, who: string): void {
  const made: string[] = [];
  for (let i = 0; i < 4; i++) made.push(x.tx({ from: who, to: null, at: day(i * 80 + 1) }).created!);
  for (let i = 0; i < 56; i++) x.tx({ from: who, to: made[i % 4], at: day(i * 6 + 2) });
  for (let k = 0; k < 25; k++) {
    const user = addr();
    x.tx({ from: user, to: made[k % 3], at: day(90 + k * 9) });
  }
}

/** Row 5: a contract of the attacker emits 60 Transfer(wallet -> x) logs (sent by another account), 6 contracts
 *  mint NFTs to it, 6 tiny deployments and 194 zero-value transactions of its own, over ten days. */
export function spamWallet(x: EtlExport, who: string): void {
  const owner = addr();
  const token = addr();
  for (let i = 0; i < 6; i++) {
    x.tx({
      from: owner,
      to: token,
      at: day(i),
      logs: Array.from({ length: 10 }, () => ({
        address: token,
        event: SIGS.transfer,
        args: { from: who, to: addr(), value: 10n ** 18n },
      })),
    });
  }
  for (let i = 0; i < 6; i++) {
    const nft = addr();
    x.tx({
      from: owner,
      to: nft,
      at: day(i, 1),
      logs: [{ address: nft, event: SIGS.nftTransfer, args: { from: ZERO, to: who, tokenId: 1n } }],
    });
  }
  for (let i = 0; i < 6; i++) x.tx({ from: who, to: null, at: day(i, 2) });
  for (let i = 0; i < 194; i++) x.tx({ from: who, to: addr(), at: day(i % 10, 3) });
}

/** Pre-aging (row 3): a contract of the attacker sends 1 unit of its own token to the wallet once a month for 13
 *  months, and the real USDC contract shows a transfer to it too (someone else's transaction). */
export function airdropped(x: EtlExport, who: string): void {
  const dropper = addr();
  const token = addr();
  for (let m = 0; m < 13; m++)
    x.tx({
      from: dropper,
      to: token,
      at: day(m * 30),
      logs: [{ address: token, event: SIGS.transfer, args: { from: dropper, to: who, value: 1n } }],
    });
  x.tx({
    from: dropper,
    to: MAINNET.usdc,
    at: day(200),
    logs: [{ address: MAINNET.usdc, event: SIGS.transfer, args: { from: dropper, to: who, value: usdc(5) } }],
  });
}

/** A wallet that provides liquidity to the V2 pair itself (its own transaction, paying USDC and WETH into it) and
 *  then trades in that pair: trading against its own liquidity, which earns nothing. */
export function selfLiquidity(x: EtlExport, who: string): void {
  const pair = MAINNET.pairV2;
  x.tx({
    from: who,
    to: pair,
    at: day(0),
    logs: [
      { address: MAINNET.usdc, event: SIGS.transfer, args: { from: who, to: pair, value: usdc(100_000) } },
      { address: MAINNET.weth, event: SIGS.transfer, args: { from: who, to: pair, value: wethFor(100_000) } },
      { address: pair, event: SIGS.transfer, args: { from: ZERO, to: who, value: 10n ** 15n } },
      { address: pair, event: SIGS.v2Mint, args: { sender: who, amount0: usdc(100_000), amount1: wethFor(100_000) } },
    ],
  });
  for (let i = 0; i < 12; i++) x.tx({ from: who, to: pair, at: day(2 + i * 14), logs: v2SwapLogs(who, 2500, i % 2 === 0) });
}

/** The victim of pairGriefing without the attack: the same 16 swaps. */
export function pairTrader(x: EtlExport, who: string): void {
  const pair = MAINNET.pairV2;
  for (let i = 0; i < 4; i++) x.tx({ from: who, to: pair, at: day(i * 7), logs: v2SwapLogs(who, 2500, i % 2 === 0) });
  for (let i = 0; i < 12; i++) x.tx({ from: who, to: pair, at: day(45 + i * 14), logs: v2SwapLogs(who, 2500, i % 2 === 0) });
}
