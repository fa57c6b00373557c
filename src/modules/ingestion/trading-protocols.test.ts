// Uniswap V4 and Balancer V2 swaps through the ethereum-etl import, at the real PoolManager and Vault:
// rows like a V3 pool's (pool as contract, pair as ref, fee in amount, side), the hooks named, a fee counted only
// where the event says it was charged and no hook can hand it back; the attacks (a same-day round trip, swaps
// against the wallet's own liquidity) on each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUnits } from 'viem';
import { testDatabase } from '../../../test/helpers/db.js';
import { EtlExport, SIGS, type EtlLog } from '../../../test/helpers/etl-export.js';
import type { Db } from '../../platform/db/types.js';
import { importEthereumEtl } from './etl/import.js';
import { v4PoolId } from './registry/markets.js';
import { createIngestionRepo, type IngestionRepo } from './repo.js';

const POOL_MANAGER = '0x000000000004444c5dc75cb358380d2e3de08a90'; // @uniswap/sdk-core v4PoolManagerAddress (1)
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8'; // @balancer-labs/v2-deployments 20210418-vault (mainnet)
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const SIG = {
  initialize:
    'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  swap: 'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  modify:
    'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  balancerSwap:
    'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
};
const usd = (n: number) => parseUnits(String(n), 6);
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 2, 1, 12);
const day = (n: number, h = 0) => new Date(T0 + n * DAY + h * 3_600_000);
const ZERO = '0x0000000000000000000000000000000000000000';
// hooks whose address has BEFORE_SWAP_RETURNS_DELTA (1 << 3): may hand the trader back what it paid
const REBATING_HOOKS = '0x00000000000000000000000000000000000a0008';
const plainKey = { currency0: USDC, currency1: USDT, fee: 100, tickSpacing: 1, hooks: ZERO };
const hookedKey = { currency0: USDC, currency1: USDT, fee: 3000, tickSpacing: 60, hooks: REBATING_HOOKS };
const PLAIN = v4PoolId(plainKey);
const HOOKED = v4PoolId(hookedKey);
const BAL_POOL = '0x' + '3c'.repeat(20);
const BAL_POOL_ID = BAL_POOL + '0000000000000000000000ab';

let counter = 1;
const addr = () =>
  `0x${(counter++).toString(16).padStart(8, '0')}${Math.floor(Math.random() * 2 ** 48)
    .toString(16)
    .padStart(12, '0')}${'d5'.repeat(10)}`;
const ROUTER = addr();
const W = { trader: addr(), roundTrip: addr(), lp: addr(), balancer: addr() };
const t = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});
/** a V4 swap paying `n` USDC for USDT (zeroForOne) or USDT for USDC, through a router */
const v4Swap = (id: string, w: string, n: number, zeroForOne: boolean, fee: number): EtlLog[] => [
  {
    address: POOL_MANAGER,
    event: SIG.swap,
    args: {
      id,
      sender: ROUTER,
      amount0: zeroForOne ? -usd(n) : usd(n),
      amount1: zeroForOne ? usd(n) : -usd(n),
      sqrtPriceX96: 2n ** 96n,
      liquidity: 10n ** 18n,
      tick: 0,
      fee,
    },
  },
  t(zeroForOne ? USDC : USDT, w, POOL_MANAGER, usd(n)),
  t(zeroForOne ? USDT : USDC, POOL_MANAGER, w, usd(n)),
];

function buildExport(): string {
  const x = new EtlExport(21_000_000);
  for (const [id, key] of [
    [PLAIN, plainKey],
    [HOOKED, hookedKey],
  ] as const)
    x.tx({
      from: addr(),
      to: POOL_MANAGER,
      at: day(-1),
      logs: [{ address: POOL_MANAGER, event: SIG.initialize, args: { id, ...key, sqrtPriceX96: 2n ** 96n, tick: 0 } }],
    });
  x.tx({ from: W.trader, to: ROUTER, at: day(0), logs: v4Swap(PLAIN, W.trader, 20_000, true, 100) });
  x.tx({ from: W.trader, to: ROUTER, at: day(1), logs: v4Swap(HOOKED, W.trader, 20_000, true, 3000) });
  // a round trip: $1M one way and back within the day
  x.tx({ from: W.roundTrip, to: ROUTER, at: day(0, 1), logs: v4Swap(PLAIN, W.roundTrip, 1_000_000, true, 100) });
  x.tx({ from: W.roundTrip, to: ROUTER, at: day(0, 2), logs: v4Swap(PLAIN, W.roundTrip, 1_000_000, false, 100) });
  // liquidity added to the pool by the wallet (through the position manager), then swaps in it
  x.tx({
    from: W.lp,
    to: ROUTER,
    at: day(0),
    logs: [
      {
        address: POOL_MANAGER,
        event: SIG.modify,
        args: { id: PLAIN, sender: ROUTER, tickLower: -10, tickUpper: 10, liquidityDelta: 10n ** 12n, salt: '0x' + '00'.repeat(32) },
      },
    ],
  });
  x.tx({ from: W.lp, to: ROUTER, at: day(2), logs: v4Swap(PLAIN, W.lp, 50_000, true, 100) });
  // Balancer V2: the Vault's Swap, the trader is the sender of the transaction
  x.tx({
    from: W.balancer,
    to: VAULT,
    at: day(0),
    logs: [
      {
        address: VAULT,
        event: SIG.balancerSwap,
        args: { poolId: BAL_POOL_ID, tokenIn: USDT, tokenOut: USDC, amountIn: usd(10_000), amountOut: usd(9_999) },
      },
    ],
  });
  return x.write('credence-etl-trading-protocols-');
}

let db: Db;
let repo: IngestionRepo;
beforeAll(async () => {
  db = await testDatabase();
  repo = createIngestionRepo(db);
  await importEthereumEtl({ db, repo }, buildExport(), { chainId: 1 });
}, 120_000);
afterAll(async () => {
  await db?.close();
});

const swaps = (w: string) =>
  db.query<{
    kind: string;
    protocol: string;
    contract: string;
    counterparty: string | null;
    amount: string;
    ref: string;
    direction: string;
    value_usd: string;
  }>(
    "SELECT kind, protocol, contract, counterparty, amount::text AS amount, ref, direction, value_usd::text AS value_usd FROM wallet_activity WHERE wallet = $1 AND kind IN ('swap', 'lp_position') ORDER BY block_number, log_index",
    [w],
  );

describe('Uniswap V4 and Balancer V2 swaps (ethereum-etl import, real PoolManager and Vault)', () => {
  it('a V4 swap is a row of its pool id and pair, with the fee the event charged; a pool whose hooks may rebate counts none, and names them', async () => {
    const rows = (await swaps(W.trader)).map((r) => [
      r.protocol,
      r.contract,
      r.counterparty,
      r.amount,
      r.ref,
      r.direction,
      Number(r.value_usd),
    ]);
    expect(rows).toEqual([
      ['uniswap-v4', PLAIN, null, '100', `${USDC}/${USDT}`, 'out', 20_000],
      ['uniswap-v4', HOOKED, REBATING_HOOKS, '0', `${USDC}/${USDT}`, 'out', 20_000],
    ]);
  });

  it('a same-day round trip on V4 nets out, like one on V3', async () => {
    const f = await repo.features(W.roundTrip);
    expect(f.trading.swaps).toBe(0);
    expect(f.trading.feesUsd ?? 0).toBe(0);
  });

  it('liquidity the wallet added to a V4 pool marks its swaps there as its own (an lp_position of that pool id)', async () => {
    const rows = await swaps(W.lp);
    expect(rows.map((r) => [r.kind, r.contract])).toEqual([
      ['lp_position', PLAIN],
      ['swap', PLAIN],
    ]);
    const f = await repo.features(W.lp);
    expect(f.trading.swaps).toBe(0);
    expect(f.trading.feesUsd ?? 0).toBe(0);
  });

  it('a Balancer V2 swap counts its volume (the stable side of token0 first, as for V3) for the transaction sender, with no fee (the Vault logs none)', async () => {
    const rows = (await swaps(W.balancer)).map((r) => [r.protocol, r.contract, r.amount, r.ref, r.direction, Number(r.value_usd)]);
    const [a, b] = [USDC, USDT].sort();
    expect(rows).toEqual([['balancer-v2', BAL_POOL, '0', `${a}/${b}`, USDT === a ? 'out' : 'in', 9_999]]);
  });
});
