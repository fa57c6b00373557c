// Drives wallets on a local chain through about eleven months of realistic histories, over plain JSON-RPC:
// a steady borrower who repays, a borrower who gets liquidated, an active trader, a governance voter, an NFT
// collector, a contract developer and a fresh wallet. Used by the ingestion tests and `npm run demo`.
// The model holds a category's conduct to its backing, what the wallet lost and cannot get back ($1,000 backs 600),
// so the honest histories are sized as a real year that pays its way: every transaction pays a mainnet-like base fee
// (HISTORY_BASE_FEE_GWEI), the borrower's loans accrue interest and are repaid with it (BORROW_APR), the trader pays
// over $2,000 of pool fees. Capital held (the borrower's $60k on Compound) and voting power held (the voter's 20,000
// UNI) come back: conduct, not backing. On chain 1 an Aave oracle mock prices WETH (WETH_USD); on 31337 WETH has no
// price (a market never priced counts at most $1,000 at a time). `runScenarios` calls a hook at the start of each
// month, so a reader can follow the histories as they happen (the demo scores them month by month).
// Evidence counts only from the registry's pinned contracts, so the protocol mocks must be pinned:
//  - on a chain that runs as chain 1 they are placed at the real mainnet addresses the registry pins
//    (hardhat_setCode + their storage): Aave V3 Pool, cUSDCv3, the Uniswap V2/V3 USDC/WETH pools (the factories'
//    CREATE2 addresses), Uniswap Governor Bravo and UNI, the ENS controller, EAS, and USDC/WETH themselves (so USDC
//    amounts are valued at 1 USD with USDC's 6 decimals); the chain is first mined past the registry's deployment
//    blocks (see MAINNET_LIKE_BLOCK);
//  - on the local chain id 31337 they stay where they were deployed and are registered as operator entries for
//    that chain only (useLocalRegistry), so a short chain from block 0 is enough.
// Contracts anywhere else count for nothing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeAbiParameters, keccak256, parseEther, parseUnits, toHex } from 'viem';
import { contractInfo, LOCAL_CHAIN_ID, poolDerives, useLocalRegistry } from '../src/modules/ingestion/registry/index.js';
import { oracleFor } from '../src/modules/ingestion/pricing/oracle.js';
import { chainClient } from './chain-client.js';

// the tests and scripts that drive a local chain take these from here too
export { artifact, chainClient } from './chain-client.js';

export const ROLES = ['borrower', 'liquidated', 'trader', 'voter', 'collector', 'developer', 'fresh'] as const;
export type Role = (typeof ROLES)[number];

export interface ScenarioResult {
  wallets: Record<Role, string>;
  /** the protocol deployer, liquidity provider, liquidator and attester */
  operator: string;
  contracts: Record<string, string>;
  /** contracts the developer deployed */
  developerContracts: string[];
  transactions: number;
  headBlock: number;
  /** the first block of the histories (the blocks before it are empty: see MAINNET_LIKE_BLOCK) */
  firstBlock: number;
}

/**
 * The registry asks eth_getLogs for each pinned contract from its mainnet deployment block (e.g. the Aave V3 Pool
 * from block 16,000,000), so the histories start past them. Mining the empty blocks is instant, but each takes a
 * second of chain time (~197 days): start the chain SCENARIO_START_DAYS_AGO days in the past so the histories
 * still end near today.
 */
export const MAINNET_LIKE_BLOCK = 17_000_000;
export const SCENARIO_START_DAYS_AGO = 540;

type Hex = `0x${string}`;

const E = (n: number) => parseEther(String(n));
/** USDC has 6 decimals */
const U = (n: number) => parseUnits(String(n), 6);

/** The mainnet addresses the mocks take (each must be pinned by the registry: checked below). */
export const PINNED = {
  weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  gov: '0x1f9840a85d5af5bf1d1762f925bdaddc4201f984', // UNI
  aave: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2', // Aave V3 Pool
  comet: '0xc3d688b66703497daa19211eedff47f25384cdc3', // cUSDCv3
  pairV2: '0xb4e16d0168e52d35cacd2c6185b44281ec28c9dc', // Uniswap V2 USDC/WETH
  poolV3: '0x8ad599c3a0ff1de082011efddc58f1908eb6e6d8', // Uniswap V3 USDC/WETH 0.3%
  governor: '0x408ed6354d4973f66138c91495f2f2fcbd8724c3', // Uniswap Governor Bravo
  ens: '0x253553366da8546fc250f225fe3d25d0c782303b', // ENS ETHRegistrarController
  eas: '0xa1207f3bba224e2c9c3c6d5af63d0eb1582ce587',
} as const;

function checkPinned() {
  for (const k of ['gov', 'aave', 'comet', 'governor', 'ens', 'eas'] as const)
    if (!contractInfo(1, PINNED[k])) throw new Error(`${k} ${PINNED[k]} is not in the registry`);
  if (!poolDerives(1, 'uniswap-v2', PINNED.pairV2, PINNED.usdc, PINNED.weth)) throw new Error('pairV2 does not derive from the factory');
  if (!poolDerives(1, 'uniswap-v3', PINNED.poolV3, PINNED.usdc, PINNED.weth, 3000))
    throw new Error('poolV3 does not derive from the factory');
}
const MAX = 2n ** 256n - 1n;
/** A collection of data/scoring/nft-collections.json on chain 1: the demo's art collection takes its address there. */
const LISTED_COLLECTION = (
  JSON.parse(readFileSync(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../data/scoring/nft-collections.json'), 'utf8')) as {
    collections: { chainId: number; address: string }[];
  }
).collections
  .find((x) => x.chainId === 1)!
  .address.toLowerCase();

/** Called at the start of each of the eleven months (0-10) and once after the last (11), with the chain's head. */
export type MonthHook = (month: number, head: { block: number; time: Date }) => Promise<void>;

/** The base fee the histories' blocks charge, in gwei: an ordinary mainnet day of 2024-2025, under the gas-price cap
 *  of data/scoring/backing.json, so the gas each wallet pays for its evidence is worth what it would be on mainnet. */
export const HISTORY_BASE_FEE_GWEI = 15;
/** What the steady borrower's loans pay a year: Aave V3 USDC's variable rate, about 5-8% over 2024-2025. */
export const BORROW_APR = 0.06;
/** The WETH price the demo's Aave oracle answers, USD. */
export const WETH_USD = 2_000;

type Chain = ReturnType<typeof chainClient>;
type Wallets = Record<Role, string>;
/** The protocol mocks the histories use, by name (ScenarioResult.contracts). */
type Protocols = Awaited<ReturnType<typeof deployProtocols>>;
/** What the months carry over: the developer's contracts and the last punk handed to the collector. */
interface Year {
  developerContracts: string[];
  punkForCollector: bigint;
}

const headOf = async (c: Chain) => {
  const b = await c.rpc<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
  return { block: Number(b.number), time: new Date(Number(b.timestamp) * 1000) };
};
/** A pair's tokens in the factory's order (by address). */
const ordered = (a: string, b: string) => (a < b ? [a, b] : [b, a]);

/**
 * Runs every history. `accounts` are unlocked accounts of the node (at least 8): the first is the operator.
 * `hooks.month` is called at the start of each month and after the last.
 * Start the chain SCENARIO_START_DAYS_AGO days in the past so the histories end near today.
 */
export async function runScenarios(url: string, accounts: string[], hooks: { month?: MonthHook } = {}): Promise<ScenarioResult> {
  const c = chainClient(url);
  const [operator, borrower, liquidated, trader, voter, collector, developer, fresh] = accounts.map((a) => a.toLowerCase());
  const wallets: Wallets = { borrower, liquidated, trader, voter, collector, developer, fresh };

  // Protocols and liquidity, each mock pinned (see the top of this file).
  const mainnetLike = Number(await c.rpc<string>('eth_chainId')) === 1;
  if (mainnetLike) {
    checkPinned();
    const startBlock = Number(await c.rpc<string>('eth_blockNumber'));
    if (startBlock < MAINNET_LIKE_BLOCK) await c.rpc('hardhat_mine', [toHex(MAINNET_LIKE_BLOCK - startBlock), '0x1']);
  }
  const firstBlock = Number(await c.rpc<string>('eth_blockNumber')) + 1;
  const baseFeeBefore = (await c.rpc<{ baseFeePerGas?: string }>('eth_getBlockByNumber', ['latest', false])).baseFeePerGas ?? null;
  c.setBaseFee(HISTORY_BASE_FEE_GWEI);
  const contracts = await deployProtocols(c, operator, mainnetLike);
  await fundWallets(c, operator, wallets, contracts);

  const year: Year = { developerContracts: [], punkForCollector: 0n };
  for (let month = 0; month < 11; month++) {
    await hooks.month?.(month, await headOf(c));
    await playMonth(c, operator, wallets, contracts, year, month);
  }
  await registerIdentities(c, operator, wallets, contracts);

  c.setBaseFee(null);
  if (baseFeeBefore) await c.rpc('hardhat_setNextBlockBaseFeePerGas', [baseFeeBefore]);
  await hooks.month?.(11, await headOf(c));
  return {
    wallets,
    operator,
    contracts,
    developerContracts: year.developerContracts,
    transactions: c.transactions,
    headBlock: (await headOf(c)).block,
    firstBlock,
  };
}

/** Deploys the protocol mocks: on chain 1 at the addresses the registry pins (and Aave's oracle pricing WETH),
 *  elsewhere where they land, registered for the local chain only. */
async function deployProtocols(c: Chain, op: string, mainnetLike: boolean) {
  const pin = async (name: string, args: unknown[], target: string) => {
    const deployed = await c.deploy(op, name, args);
    return mainnetLike ? c.pinAt(deployed, target) : deployed;
  };
  const weth = await pin('MockERC20', ['Wrapped Ether', 'WETH'], PINNED.weth);
  const usdc = await pin('MockERC20Six', ['USD Coin', 'USDC'], PINNED.usdc);
  const gov = await pin('MockVotesToken', ['Uniswap', 'UNI'], PINNED.gov);
  const aave = await pin('MockAavePool', [], PINNED.aave);
  const comet = await pin('MockComet', [usdc], PINNED.comet);
  const [t0, t1] = ordered(usdc, weth);
  const pairV2 = await pin('MockUniswapV2Pair', [t0, t1], PINNED.pairV2);
  const poolV3 = await pin('MockUniswapV3Pool', [t0, t1], PINNED.poolV3);
  const governor = await pin('MockGovernor', [gov], PINNED.governor);
  // on chain 1 the collector's art collection stands at a listed collection's address (data/scoring/nft-collections.json)
  const art = await pin('MockERC721', ['Credence Art'], LISTED_COLLECTION);
  const punks = await c.deploy(op, 'MockERC721', ['Pixel Punks']);
  const items = await c.deploy(op, 'MockERC1155');
  const ens = await pin('MockENSRegistrarController', [], PINNED.ens);
  const eas = await pin('MockEAS', [], PINNED.eas);
  const p = { weth, usdc, gov, aave, comet, pairV2, poolV3, governor, art, punks, items, ens, eas };
  if (!mainnetLike) registerLocally(p);
  if (mainnetLike) {
    // Aave V3's oracle (the address book's ORACLE): WETH has a price, so WETH collateral counts at its value
    const oracle = oracleFor(1)!.address;
    await c.pinAt(await c.deploy(op, 'MockAaveOracle'), oracle, 0);
    await c.call(op, oracle, 'MockAaveOracle', 'setAssetPrice', [weth, BigInt(WETH_USD) * 10n ** 8n]);
  }
  return p;
}

/** The mocks as operator entries of the local chain's registry (they count nowhere else). */
function registerLocally(p: Protocols) {
  const [t0, t1] = ordered(p.usdc, p.weth);
  const contract = (
    address: string,
    protocol: string,
    role: Parameters<typeof useLocalRegistry>[1]['contracts'][number]['role'],
    label: string,
    baseToken?: string,
  ) => ({ address, protocol, role, label, fromBlock: 0, baseToken });
  useLocalRegistry(LOCAL_CHAIN_ID, {
    contracts: [
      contract(p.aave, 'aave-v3', 'lending-pool', 'local Aave V3 Pool'),
      contract(p.comet, 'compound-v3', 'comet', 'local Comet', p.usdc),
      contract(p.governor, 'local-dao', 'governor', 'local Governor'),
      contract(p.gov, 'local-dao', 'votes-token', 'local UNI'),
      contract(p.ens, 'ens', 'ens-controller', 'local ENS controller'),
      contract(p.eas, 'eas', 'eas', 'local EAS'),
    ],
    tokens: [
      { address: p.usdc, symbol: 'USDC', decimals: 6 },
      { address: p.weth, symbol: 'WETH', decimals: 18 },
    ],
    pools: [
      { address: p.pairV2, protocol: 'uniswap-v2', token0: t0, token1: t1 },
      { address: p.poolV3, protocol: 'uniswap-v3', token0: t0, token1: t1, fee: 3000 },
    ],
    // the demo's collections count as listed ones (a collection counts when listed or widely held)
    collections: [p.art, p.punks, p.items],
  });
}

/** The pools' liquidity, then each wallet's starting balances, approvals and delegations. */
async function fundWallets(c: Chain, op: string, w: Wallets, p: Protocols) {
  const { weth, usdc, gov, aave, comet, pairV2, poolV3 } = p;
  for (const pool of [aave, comet, pairV2, poolV3]) {
    await c.call(op, weth, 'MockERC20', 'mint', [pool, E(10_000)]);
    await c.call(op, usdc, 'MockERC20', 'mint', [pool, U(20_000_000)]);
  }
  await c.call(op, pairV2, 'MockUniswapV2Pair', 'sync');
  await c.call(op, weth, 'MockERC20', 'mint', [op, E(1_000)]);
  await c.call(op, usdc, 'MockERC20', 'mint', [op, U(1_000_000)]);
  for (const t of [weth, usdc]) for (const pool of [aave, comet]) await c.call(op, t, 'MockERC20', 'approve', [pool, MAX]);

  for (const x of [w.borrower, w.liquidated]) {
    await c.call(op, weth, 'MockERC20', 'mint', [x, E(50)]);
    await c.call(op, usdc, 'MockERC20', 'mint', [x, U(x === w.borrower ? 100_000 : 20_000)]);
    for (const t of [weth, usdc]) for (const pool of [aave, comet]) await c.call(x, t, 'MockERC20', 'approve', [pool, MAX]);
  }
  await c.call(op, weth, 'MockERC20', 'mint', [w.trader, E(200)]);
  await c.call(op, usdc, 'MockERC20', 'mint', [w.trader, U(200_000)]);
  for (const t of [weth, usdc]) for (const pool of [pairV2, poolV3]) await c.call(w.trader, t, 'MockERC20', 'approve', [pool, MAX]);
  await c.call(op, gov, 'MockVotesToken', 'mint', [w.voter, E(20_000)]);
  await c.call(w.voter, gov, 'MockVotesToken', 'delegate', [w.voter]);
  await c.call(op, gov, 'MockVotesToken', 'mint', [op, E(1_000)]);
  await c.call(op, gov, 'MockVotesToken', 'delegate', [w.voter]); // the voter also receives a delegation
}

/** One month of every wallet's history (month 0-10). */
async function playMonth(c: Chain, op: string, w: Wallets, p: Protocols, year: Year, month: number) {
  const { borrower, liquidated, trader, voter, collector, developer } = w;
  const { weth, usdc, aave, comet, pairV2, poolV3, governor, art, punks, items } = p;
  const [t0] = ordered(usdc, weth);
  // Steady borrower: keeps its USDC lent on Compound all year ($60k from the first month, $5k added each quarter
  // after: capital held, which comes back and backs nothing), supplies 45 WETH of collateral on Aave in the first
  // month (never withdrawn) and borrows $40k USDC against it for a month at a time (debt at about 44% of the
  // collateral), repaid with interest at BORROW_APR at the end of the month: eleven loans.
  if (month === 0) await c.call(borrower, aave, 'MockAavePool', 'supply', [weth, E(45), borrower, 0]);
  await c.call(borrower, aave, 'MockAavePool', 'borrow', [usdc, U(LOAN_USD), 2, 0, borrower]);
  const borrowedAt = (await headOf(c)).time.getTime();
  if (month % 3 === 0) await c.call(borrower, comet, 'MockComet', 'supply', [usdc, U(month === 0 ? 60_000 : 5_000)]);
  await c.advanceDays(20);
  // Liquidated borrower: borrows to the limit; liquidated in months 2, 5 and 8; Comet debt absorbed once.
  if (month % 3 === 0) {
    await c.call(liquidated, aave, 'MockAavePool', 'supply', [weth, E(3), liquidated, 0]);
    await c.call(liquidated, aave, 'MockAavePool', 'borrow', [usdc, U(4_500), 2, 0, liquidated]);
  }
  if (month === 1) await c.call(liquidated, comet, 'MockComet', 'withdraw', [usdc, U(2_000)]);
  // Trader: swaps on several days of the month, both venues (0.3% pools), selling WETH one day and buying it back
  // another: about $24k a day, $70 of pool fees (a same-day round trip would pay nothing: the model nets it).
  for (let d = 0; d < 3; d++) {
    const tokenIn = d % 2 ? usdc : weth;
    await c.call(trader, pairV2, 'MockUniswapV2Pair', 'swapExactIn', [tokenIn, d % 2 ? U(12_000) : E(6), trader]);
    // the V3 mock swaps 1:1 in raw units: 12,000 USDC's worth of units, the same way as the V2 swap
    await c.call(trader, poolV3, 'MockUniswapV3Pool', 'swap', [trader, tokenIn === t0, U(12_000)]);
    await c.advanceDays(1);
  }
  // Governance: a proposal a month; the voter votes on each.
  await c.call(op, governor, 'MockGovernor', 'propose', [`Proposal #${month + 1}: adjust parameters`]);
  const proposalId = BigInt(keccak256(encodeAbiProposal(governor, month + 1, `Proposal #${month + 1}: adjust parameters`)));
  await c.call(voter, governor, 'MockGovernor', 'castVoteWithReason', [proposalId, month % 4 === 3 ? 0 : 1, 'considered']);
  // Collector: mints from two collections, trades some.
  await c.call(collector, art, 'MockERC721', 'mint', [collector]);
  if (month % 2 === 0) {
    await c.call(op, punks, 'MockERC721', 'mint', [op]);
    year.punkForCollector++;
    await c.call(op, punks, 'MockERC721', 'transferFrom', [op, collector, year.punkForCollector]);
  }
  if (month === 4) await c.call(collector, items, 'MockERC1155', 'mint', [collector, 7n, 3n]);
  if (month === 9) await c.call(collector, art, 'MockERC721', 'transferFrom', [collector, trader, 1n]);
  // Developer: ships a contract every few months.
  const dev = year.developerContracts;
  if (month % 3 === 1) dev.push(await c.deploy(developer, 'MockERC20', [`Dev Token ${month}`, `DEV${month}`]));
  if (month === 7) dev.push(await c.deploy(developer, 'MockEAS'));
  // ... and others use its tokens: one of the other wallets mints itself some of one of them each month (a
  // transaction to the developer's contract that the developer neither sent nor funded)
  const users = [voter, collector, borrower, liquidated];
  const tokens = dev.filter((_, i) => i !== 3);
  if (tokens.length)
    await c.call(users[month % users.length], tokens[month % tokens.length], 'MockERC20', 'mint', [users[month % users.length], E(1)]);
  await c.advanceDays(7);
  // the loan's interest accrues as Aave's variable debt does, with no event: the mock's debt grows in its storage
  const days = ((await headOf(c)).time.getTime() - borrowedAt) / 86_400_000;
  const owed = U(LOAN_USD) + (U(LOAN_USD) * BigInt(Math.round(BORROW_APR * days * 1e6))) / (365n * 1_000_000n);
  await c.rpc('hardhat_setStorageAt', [aave, aaveDebtSlot(usdc, borrower), toHex(owed, { size: 32 })]);
  await c.call(borrower, aave, 'MockAavePool', 'repay', [usdc, owed, 2, borrower]);
  if (month % 3 === 2) await c.call(op, aave, 'MockAavePool', 'liquidationCall', [weth, usdc, liquidated, U(4_500), false]);
  if (month === 3) await c.call(op, comet, 'MockComet', 'absorb', [op, [liquidated]]);
}

/** Identity: ENS names and attestations. Registrations pay nothing here: a native-value transfer is visible to the
 *  bulk import but not to the JSON-RPC path (no log), and the tests compare the two. */
async function registerIdentities(c: Chain, op: string, w: Wallets, p: Protocols) {
  await c.call(w.voter, p.ens, 'MockENSRegistrarController', 'register', ['steady-voter', w.voter, 365 * 86400]);
  await c.call(w.developer, p.ens, 'MockENSRegistrarController', 'register', ['dev-builds', w.developer, 365 * 86400]);
  const schema = keccak256(toHex('string role'));
  await c.call(op, p.eas, 'MockEAS', 'attest', [schema, w.developer, toHex('developer')]);
  await c.call(op, p.eas, 'MockEAS', 'attest', [schema, w.voter, toHex('delegate')]);
}

/** The steady borrower's monthly loan, USD. */
export const LOAN_USD = 40_000;

/** The storage slot of MockAavePool's debt[asset][user] (a mapping of mappings at slot 0). */
function aaveDebtSlot(asset: string, user: string): Hex {
  const inner = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [asset as Hex, 0n]));
  return keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [user as Hex, inner]));
}

/** abi.encode(address(governor), count, description), as MockGovernor hashes it for proposal ids. */
function encodeAbiProposal(governor: string, count: number, description: string): Hex {
  return encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'string' }], [governor as Hex, BigInt(count), description]);
}
