// Writes data/scoring/established-pools.json: the reviewed pools whose fees back DEFI_TRADING. Each
// pool is the Uniswap factory's CREATE2 address for a reviewed pair and fee tier on its chain (the same derivation
// the registry verifies swaps with), so no address is typed by hand. Review the pairs and depths below, then run:
//
//   node --import tsx scripts/established-pools.ts
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Token, V2_FACTORY_ADDRESSES, V3_CORE_FACTORY_ADDRESSES } from '@uniswap/sdk-core';
import { computePairAddress } from '@uniswap/v2-sdk';
import { computePoolAddress } from '@uniswap/v3-sdk';

// Token addresses: the chains' canonical deployments (WETH9 and the L2 predeploys, Circle's native USDC, Tether),
// as listed in @uniswap/default-token-list and the registry's token files.
const T: Record<number, Record<string, string>> = {
  1: {
    WETH: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
    USDC: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    DAI: '0x6B175474E89094C44Da98b954EedeAC495271d0F',
    WBTC: '0x2260FAC5E5542a773Aa44fBCfeDf7C193bc2C599',
  },
  10: {
    WETH: '0x4200000000000000000000000000000000000006',
    USDC: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85',
    OP: '0x4200000000000000000000000000000000000042',
    USDT: '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58',
  },
  137: {
    WETH: '0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619',
    USDC: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
    WMATIC: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270',
    USDT: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
  },
  8453: { WETH: '0x4200000000000000000000000000000000000006', USDC: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  42161: {
    WETH: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
    USDC: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    'USDC.e': '0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8',
    USDT: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9',
    ARB: '0x912CE59144191C1204E64559FE8253a0e49E6548',
    WBTC: '0x2f2a2543B76A4166549F7aaB2e75Bef0aefC5B0f',
  },
};

/** Reviewed pairs: [chain, protocol, tokenA, tokenB, fee (V3), depth: the order of magnitude of its liquidity]. The
 *  depth is the floor the pool was reviewed against (its 2024-2025 liquidity as a reviewer estimated it; to be confirmed against Uniswap's analytics): a payer's
 *  fee in a pool this deep goes to liquidity it cannot be most of without that much capital in range. */
const PAIRS: [number, 'uniswap-v2' | 'uniswap-v3', string, string, number | null, string][] = [
  [1, 'uniswap-v3', 'USDC', 'WETH', 500, '>$100M'],
  [1, 'uniswap-v3', 'USDC', 'WETH', 3000, '>$50M'],
  [1, 'uniswap-v3', 'USDC', 'WETH', 100, '>$10M'],
  [1, 'uniswap-v3', 'WETH', 'USDT', 500, '>$50M'],
  [1, 'uniswap-v3', 'WETH', 'USDT', 3000, '>$10M'],
  [1, 'uniswap-v3', 'WBTC', 'WETH', 500, '>$100M'],
  [1, 'uniswap-v3', 'WBTC', 'WETH', 3000, '>$50M'],
  [1, 'uniswap-v3', 'DAI', 'USDC', 100, '>$50M'],
  [1, 'uniswap-v3', 'USDC', 'USDT', 100, '>$50M'],
  [1, 'uniswap-v3', 'DAI', 'WETH', 3000, '>$10M'],
  [1, 'uniswap-v2', 'USDC', 'WETH', null, '>$10M'],
  [1, 'uniswap-v2', 'DAI', 'WETH', null, '>$10M'],
  [1, 'uniswap-v2', 'WETH', 'USDT', null, '>$10M'],
  [10, 'uniswap-v3', 'WETH', 'USDC', 500, '>$10M'],
  [10, 'uniswap-v3', 'WETH', 'OP', 3000, '>$10M'],
  [137, 'uniswap-v3', 'WETH', 'USDC', 500, '>$5M'],
  [137, 'uniswap-v3', 'WMATIC', 'USDC', 500, '>$5M'],
  [137, 'uniswap-v3', 'WMATIC', 'WETH', 500, '>$5M'],
  [8453, 'uniswap-v3', 'WETH', 'USDC', 500, '>$10M'],
  [42161, 'uniswap-v3', 'WETH', 'USDC', 500, '>$50M'],
  [42161, 'uniswap-v3', 'WETH', 'USDC.e', 500, '>$10M'],
  [42161, 'uniswap-v3', 'WETH', 'USDT', 500, '>$10M'],
  [42161, 'uniswap-v3', 'WETH', 'ARB', 500, '>$10M'],
  [42161, 'uniswap-v3', 'WBTC', 'WETH', 500, '>$10M'],
];

const pools = PAIRS.map(([chainId, protocol, a, b, fee, depth]) => {
  const ta = new Token(chainId, T[chainId][a], 18);
  const tb = new Token(chainId, T[chainId][b], 18);
  const address =
    protocol === 'uniswap-v2'
      ? computePairAddress({ factoryAddress: V2_FACTORY_ADDRESSES[chainId], tokenA: ta, tokenB: tb })
      : computePoolAddress({ factoryAddress: V3_CORE_FACTORY_ADDRESSES[chainId], tokenA: ta, tokenB: tb, fee: fee! });
  return {
    chainId,
    address: address.toLowerCase(),
    protocol,
    pair: `${a}/${b}`,
    ...(fee !== null ? { feeBps: fee / 100 } : {}),
    depth,
    source: `${protocol === 'uniswap-v2' ? '@uniswap/v2-sdk computePairAddress' : '@uniswap/v3-sdk computePoolAddress'} from @uniswap/sdk-core ${protocol === 'uniswap-v2' ? 'V2_FACTORY_ADDRESSES' : 'V3_CORE_FACTORY_ADDRESSES'}[${chainId}]; depth: order of magnitude as reviewed by hand (2024-2025 liquidity, not checked against a live source)`,
  };
});

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/scoring/established-pools.json');
writeFileSync(
  out,
  JSON.stringify(
    {
      note: 'Model 4.0.0: pool fees back DEFI_TRADING only in these pools (docs/scoring-model.md, "Conduct and backing"): deep, long-established pools where a payer cannot be most of the liquidity that earns its fee. Fees in any other verified pool still count as conduct, not as backing. Generated by scripts/established-pools.ts (CREATE2 addresses from the factories); review the pairs and depths there. The local demo chain (31337) adds its own pools at run time.',
      pools,
    },
    null,
    2,
  ) + '\n',
);
console.log(`wrote ${pools.length} pools to ${path.relative(process.cwd(), out)}`);
