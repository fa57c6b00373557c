// Coverage names the known protocols it does not read, on the L2s too: ethereum-etl exports of Base and OP Mainnet
// at the real addresses of data/registry/unread.json (Aerodrome, Velodrome, Curve's Router NG, Fluid's Liquidity), and
// Ethereum and Arbitrum One exports for Euler's vaults, imported, then the coverage block of the ingestion service. A wallet that touched one is partial and named; one
// that only moved tokens between wallets is not, nor one that supplied to Moonwell (listed here until it was read).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlExport, SIGS, type EtlLog } from '../../../test/helpers/etl-export.js';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import type { Db } from '../../platform/db/types.js';
import { createCoverageRepo } from './coverage-repo.js';
import { importEthereumEtl } from './etl/import.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { createIngestionService } from './service.js';
import { pinnedContracts, protocolsRead, unreadContracts } from './registry/index.js';

// unread.json, each from its maintainers' deployment list (the file names the commit)
const AERODROME_ROUTER = '0xcf77a3ba9a5ca399b7c97c74d54e5b1beb874e43'; // aerodrome-finance/contracts DeployCore-Base.json Router
const AERODROME_CL_NPM = '0x827922686190790b37229fd06084350e74485b72'; // aerodrome-finance/slipstream DeployCL-Base.json
const CURVE_ROUTER_BASE = '0x4f37a9d177470499a2dd084621020b023fcffc1f'; // curvefi/curve-router-ng README (Base)
const FLUID_LIQUIDITY = '0x52aa899454998be5b000ad077a46bbe360f4e497'; // Instadapp/fluid-contracts-public deployments/base
// an Aerodrome pool, never listed: aerodrome-finance/contracts script/constants/Base.json pools (DAI, USDbC, stable),
// deployed at this address (script/constants/output/DeployGaugesAndPools-Base.json), which the PoolFactory derives
const DAI_BASE = '0x50c5725949a6f0c72e6c4a641f24049a917db0cb';
const USDBC = '0xd9aaec86b65d86f6a7b5b1b0c42ffa531710b6ca';
const AERODROME_DAI_USDBC = '0x6eab8c1b93f5799dadf2c687a30230a540dbd636';
const MOONWELL_USDC = '0xedc817a28e8b93b03976fbd4a3ddbc9f7d176c22'; // moonwell-fi/moonwell-contracts-v2 chains/8453.json
const VELODROME_ROUTER = '0xa062ae8a9c5e11aaa026fc2670b0d65ccc8b2858'; // velodrome-finance/contracts deployment-addresses/optimism.json
// euler-xyz/euler-labels 1/products.json k3-prime (first vault), 1/earn-vaults.json (first), 42161/products.json
// k3-arbitrum-market (first vault)
const EULER_K3_PRIME = '0xd8b27cf359b7d15710a5be299af6e7bf904984c2';
const EULER_EARN = '0x3b4802fdb0e5d74aa37d58fd77d63e93d4f9a4af';
const EULER_K3_ARB = '0x0a1ecc5fe8c9be3c809844fcbe615b46a869b899';
// morpho-org/morpho-aave-v3 README (Morpho Proxy); dolomite-exchange/dolomite-margin migrations/deployed.json
// DolomiteMargin[42161]; exactly/protocol deployments/optimism/MarketUSDC.json
const MORPHO_AAVE_V3_OPTIMIZER = '0x33333aea097c193e66081e930c33020272b33333';
const DOLOMITE_MARGIN_ARB = '0x6bd780e7fdf01d77e4d475c821f1e7ae05409072';
const EXACTLY_USDC_OP = '0x6926b434cce9b5b7966ae1bfeef6d0a7dcf3a8bb';
const USDC_ETH = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDC_ARB = '0xaf88d065e77c8cc2239327c5edb3a432268e5831';
// the chains' USDC (Compound V3 base assets in data/registry/8453.json and the Aave address book)
const USDC_BASE = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const USDC_OP = '0x0b2c639c533813f4aa9d7837caf62653d097ff85';

const W = {
  aeroEth: randomAddress(),
  aeroLp: randomAddress(),
  aeroSwap: randomAddress(),
  curve: randomAddress(),
  euler: randomAddress(),
  eulerArb: randomAddress(),
  eulerEarn: randomAddress(),
  dolomite: randomAddress(),
  exactly: randomAddress(),
  fluid: randomAddress(),
  morphoOptimizer: randomAddress(),
  moonwell: randomAddress(),
  plain: randomAddress(),
  velo: randomAddress(),
};
/** the one unread protocol each wallet below touched, by name (the others touched none) */
const NAMED: Partial<Record<keyof typeof W, string>> = {
  aeroEth: 'aerodrome',
  aeroLp: 'aerodrome',
  aeroSwap: 'aerodrome',
  curve: 'curve',
  euler: 'euler',
  eulerArb: 'euler',
  eulerEarn: 'euler-earn',
  dolomite: 'dolomite',
  exactly: 'exactly',
  morphoOptimizer: 'morpho-optimizers',
  fluid: 'fluid',
  velo: 'velodrome',
};
const at = (d: number) => new Date(Date.UTC(2025, 0, 1 + d));
const transfer = (token: string, from: string, to: string, value: bigint): EtlLog => ({
  address: token,
  event: SIGS.transfer,
  args: { from, to, value },
});

function baseExport(): string {
  const x = new EtlExport(25_000_000);
  const pool = randomAddress(); // an Aerodrome pool (derived, never listed): the router names the wallet's ether only
  // ether for USDC through the Aerodrome Router: the ether goes to the router, the USDC comes from the pool
  x.tx({ from: W.aeroEth, to: AERODROME_ROUTER, at: at(1), value: 10n ** 17n, logs: [transfer(USDC_BASE, pool, W.aeroEth, 300_000_000n)] });
  // a Slipstream position: the tokens go to the pool, the position NFT comes from the manager
  x.tx({
    from: W.aeroLp,
    to: AERODROME_CL_NPM,
    at: at(2),
    logs: [
      transfer(USDC_BASE, W.aeroLp, pool, 1_000_000_000n),
      {
        address: AERODROME_CL_NPM,
        event: SIGS.nftTransfer,
        args: { from: '0x0000000000000000000000000000000000000000', to: W.aeroLp, tokenId: 4242n },
      },
    ],
  });
  // DAI for USDbC in the Aerodrome pool itself (no router, no ether): the pool derives from the listed PoolFactory
  x.tx({
    from: W.aeroSwap,
    to: AERODROME_ROUTER,
    at: at(2),
    logs: [transfer(DAI_BASE, W.aeroSwap, AERODROME_DAI_USDBC, 10n ** 21n), transfer(USDBC, AERODROME_DAI_USDBC, W.aeroSwap, 999_000_000n)],
  });
  // Curve's Router NG pulls the USDC it swaps
  x.tx({ from: W.curve, to: CURVE_ROUTER_BASE, at: at(3), logs: [transfer(USDC_BASE, W.curve, CURVE_ROUTER_BASE, 500_000_000n)] });
  // a Fluid deposit: the fToken's callback moves the USDC from the wallet straight to the Liquidity contract
  x.tx({ from: W.fluid, to: randomAddress(), at: at(4), logs: [transfer(USDC_BASE, W.fluid, FLUID_LIQUIDITY, 2_000_000_000n)] });
  // a Moonwell supply (read since Moonwell is pinned: it touches no unread contract): USDC into the market, its mUSDC
  // minted to the wallet
  x.tx({
    from: W.moonwell,
    to: MOONWELL_USDC,
    at: at(4),
    logs: [
      transfer(USDC_BASE, W.moonwell, MOONWELL_USDC, 1_000_000_000n),
      {
        address: MOONWELL_USDC,
        event: 'event Mint(address minter, uint256 mintAmount, uint256 mintTokens)',
        args: { minter: W.moonwell, mintAmount: 1_000_000_000n, mintTokens: 4_900_000_000_000n },
      },
      transfer(MOONWELL_USDC, MOONWELL_USDC, W.moonwell, 4_900_000_000_000n),
    ],
  });
  // USDC to another wallet and back, and DAI for USDbC with it in one transaction (the shape of a pool swap, at an
  // address no factory derives for the pair): no protocol at all
  const friend = randomAddress();
  x.tx({ from: W.plain, to: USDC_BASE, at: at(5), logs: [transfer(USDC_BASE, W.plain, friend, 100_000_000n)] });
  x.tx({ from: friend, to: USDC_BASE, at: at(6), logs: [transfer(USDC_BASE, friend, W.plain, 100_000_000n)] });
  x.tx({
    from: W.plain,
    to: friend,
    at: at(7),
    logs: [transfer(DAI_BASE, W.plain, friend, 10n ** 20n), transfer(USDBC, friend, W.plain, 100_000_000n)],
  });
  return x.write('credence-etl-unread-base-');
}

function opExport(): string {
  const x = new EtlExport(130_000_000);
  x.tx({
    from: W.velo,
    to: VELODROME_ROUTER,
    at: at(1),
    value: 10n ** 17n,
    logs: [transfer(USDC_OP, randomAddress(), W.velo, 300_000_000n)],
  });
  // an Exactly borrow: the market pays out the USDC it holds
  x.tx({ from: W.exactly, to: EXACTLY_USDC_OP, at: at(2), logs: [transfer(USDC_OP, EXACTLY_USDC_OP, W.exactly, 400_000_000n)] });
  return x.write('credence-etl-unread-op-');
}

// Euler: a supply to a vault and a borrow from it (the vault holds its own cash: the tokens move between it and the
// wallet), a deposit to an EulerEarn vault, and an Arbitrum One borrow
function eulerExports(): { ethereum: string; arbitrum: string } {
  const eth = new EtlExport(23_000_000);
  eth.tx({ from: W.euler, to: EULER_K3_PRIME, at: at(1), logs: [transfer(USDC_ETH, W.euler, EULER_K3_PRIME, 5_000_000_000n)] });
  eth.tx({ from: W.euler, to: randomAddress(), at: at(2), logs: [transfer(USDC_ETH, EULER_K3_PRIME, W.euler, 1_000_000_000n)] });
  eth.tx({ from: W.eulerEarn, to: EULER_EARN, at: at(3), logs: [transfer(USDC_ETH, W.eulerEarn, EULER_EARN, 2_000_000_000n)] });
  // a supply through Morpho's Aave V3 optimizer: the proxy pulls the USDC (and supplies it to Aave in its own name)
  eth.tx({
    from: W.morphoOptimizer,
    to: MORPHO_AAVE_V3_OPTIMIZER,
    at: at(4),
    logs: [transfer(USDC_ETH, W.morphoOptimizer, MORPHO_AAVE_V3_OPTIMIZER, 3_000_000_000n)],
  });
  const arb = new EtlExport(380_000_000);
  // a Dolomite deposit: DolomiteMargin holds it
  arb.tx({
    from: W.dolomite,
    to: DOLOMITE_MARGIN_ARB,
    at: at(2),
    logs: [transfer(USDC_ARB, W.dolomite, DOLOMITE_MARGIN_ARB, 900_000_000n)],
  });
  arb.tx({ from: W.eulerArb, to: randomAddress(), at: at(1), logs: [transfer(USDC_ARB, EULER_K3_ARB, W.eulerArb, 700_000_000n)] });
  return { ethereum: eth.write('credence-etl-unread-eth-'), arbitrum: arb.write('credence-etl-unread-arb-') };
}

let db: Db;
beforeAll(async () => {
  db = await testDatabase();
  const repo = createIngestionRepo(db);
  await importEthereumEtl({ db, repo }, baseExport(), { chainId: 8453 });
  await importEthereumEtl({ db, repo }, opExport(), { chainId: 10 });
  const euler = eulerExports();
  await importEthereumEtl({ db, repo }, euler.ethereum, { chainId: 1 });
  await importEthereumEtl({ db, repo }, euler.arbitrum, { chainId: 42161 });
}, 180_000);
afterAll(async () => {
  await db?.close();
});

describe('the unread list', () => {
  it("names Aerodrome on Base and Velodrome on OP Mainnet (V2 and Slipstream), Curve, Fluid and Euler's vaults, none of them read", () => {
    const byChain = (chainId: number) =>
      new Set(
        unreadContracts()
          .filter((u) => u.chainId === chainId)
          .map((u) => u.protocol),
      );
    expect([...byChain(8453)].sort()).toEqual(['aerodrome', 'curve', 'dolomite', 'euler', 'euler-earn', 'exactly', 'fluid']);
    expect([...byChain(10)].sort()).toEqual(['curve', 'exactly', 'velodrome']);
    expect([...byChain(1)].sort()).toEqual([
      'curve',
      'euler',
      'euler-earn',
      'exactly',
      'fluid',
      'morpho-optimizers',
      'morpho-vaults',
      'sky-maker',
    ]);
    expect([...byChain(42161)].sort()).toEqual(['curve', 'dolomite', 'euler', 'euler-earn', 'fluid']);
    for (const chainId of [1, 137, 42161])
      expect(byChain(chainId).has('curve') && byChain(chainId).has('fluid'), String(chainId)).toBe(true);
    // Euler's labels list its vaults on Ethereum, Base and Arbitrum One (none on OP Mainnet or Polygon)
    for (const chainId of [1, 8453, 42161])
      expect(byChain(chainId).has('euler') && byChain(chainId).has('euler-earn'), String(chainId)).toBe(true);
    // the Router, PoolFactory and Voter of each
    const on = (chainId: number, protocol: string) =>
      unreadContracts()
        .filter((u) => u.chainId === chainId && u.protocol === protocol)
        .map((u) => u.address);
    expect(on(8453, 'aerodrome')).toEqual(
      expect.arrayContaining([
        AERODROME_ROUTER,
        '0x420dd381b31aef6683db6b902084cb0ffece40da',
        '0x16613524e02ad97edfef371bc883f2f5d6c480a5',
      ]),
    );
    expect(on(10, 'velodrome')).toEqual(
      expect.arrayContaining([
        VELODROME_ROUTER,
        '0xf1046053aa5682b4f9a81b5481394da16be5ff5a',
        '0x41c914ee0c7e1a5edcd0295623e6dc557b5abf3c',
      ]),
    );
    // each contract is listed once on its chain (one protocol names it)
    expect(new Set(unreadContracts().map((u) => `${u.chainId}:${u.address}`)).size).toBe(unreadContracts().length);
    // an unread contract is never one the registry reads, and an unread protocol is never listed as read there
    for (const u of unreadContracts()) {
      expect(
        pinnedContracts(u.chainId).some((c) => c.address === u.address),
        `${u.chainId} ${u.address}`,
      ).toBe(false);
      expect(protocolsRead(u.chainId), `${u.chainId} ${u.protocol}`).not.toContain(u.protocol);
      expect(u.address).toMatch(/^0x[0-9a-f]{40}$/);
    }
  });
});

describe('coverage through the ethereum-etl import', () => {
  it('each wallet that touched an unread protocol is named by it, on its own chain; the plain wallet is not', async () => {
    const touched = await createCoverageRepo(db).unreadTouched(Object.values(W), unreadContracts());
    expect(Object.fromEntries(touched)).toEqual(Object.fromEntries(Object.entries(NAMED).map(([k, p]) => [W[k as keyof typeof W], [p]])));
  });

  it("the service's coverage block: partial with UNREAD_PROTOCOL:<name> for those wallets, no such reason for the plain one", async () => {
    // the configured chains are those with a source; nothing here is asked of the (unreachable) node
    const eng = createIngestionService({
      db,
      repo: createIngestionRepo(db),
      sources: [1, 10, 8453, 42161].map((chainId) => createRpcSource(chainId, 'http://127.0.0.1:9')),
      log: console as never,
      concurrency: 1,
      ingestOnRead: false,
      sync: { useFinalized: true },
      pinned: (id) => pinnedContracts(id),
    });
    try {
      const cov = await eng.coverageFor(Object.values(W));
      const reason = (w: string) => cov.get(w.toLowerCase())!.reason;
      for (const [k, protocol] of Object.entries(NAMED)) {
        const w = W[k as keyof typeof W];
        expect(reason(w), k).toBe(`UNREAD_PROTOCOL:${protocol}`);
        expect(cov.get(w.toLowerCase())!.status, k).toBe('partial');
      }
      expect(reason(W.plain)).toBeNull();
      // Moonwell is read: its supplier is not partial for it, and Base and OP Mainnet list it
      expect(reason(W.moonwell)).toBeNull();
      for (const chainId of [8453, 10])
        expect(cov.get(W.moonwell.toLowerCase())!.chains.find((c) => c.chainId === chainId)!.protocols).toContain('moonwell');
      // each chain still lists what is read there (Aerodrome is not)
      const base = cov.get(W.aeroEth.toLowerCase())!.chains.find((c) => c.chainId === 8453)!;
      expect(base.protocols).toEqual(expect.arrayContaining(['aave-v3', 'uniswap-v3', 'compound-v3']));
      expect(base.protocols).not.toContain('aerodrome');
    } finally {
      await eng.stop();
    }
  });

  it('only the chain a contract is listed on counts: the Velodrome Router address on Base is nobody', async () => {
    const baseOnly = unreadContracts().filter((u) => u.chainId === 8453);
    const touched = await createCoverageRepo(db).unreadTouched([W.velo], baseOnly);
    expect(touched.get(W.velo)).toBeUndefined();
  });

  it('a pool is recognised only while its factory is in the list asked: without Base, the DAI/USDbC swap names nothing', async () => {
    const opOnly = unreadContracts().filter((u) => u.chainId === 10);
    const touched = await createCoverageRepo(db).unreadTouched([W.aeroSwap, W.plain], opOnly);
    expect(touched.size).toBe(0);
  });
});
