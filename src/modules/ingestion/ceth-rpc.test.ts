// Compound V2's cETH over JSON-RPC, as from an ethereum-etl import: its Borrow and RepayBorrow move ether, so no
// Transfer names the borrower and its events name it only in their data. The Comptroller's DistributedBorrowerComp
// (borrower indexed) finds those transactions; their receipts give cETH's own events, valued as WETH at the Aave
// oracle's price. The provider simulator (test/fakes/rpc-provider.ts) answers through the real RPC source.
import { afterAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, pad, parseAbi, parseEther, type Hex } from 'viem';
import { randomAddress } from '../../../test/helpers/app.js';
import { testDatabase } from '../../../test/helpers/db.js';
import { encodeLog, SIGS } from '../../../test/helpers/etl-export.js';
import { lendingRows } from '../../../test/helpers/lending-rows.js';
import type { SimChain, SimLog } from '../../../test/fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../../../test/fakes/rpc-provider.js';
import type { Db } from '../../platform/db/types.js';
import { buildPlan, DISTRIBUTED_BORROWER_COMP } from './log-plan.js';
import { oracleFor } from './pricing/oracle.js';
import { pinnedContracts } from './registry/index.js';
import { createIngestionRepo } from './repo.js';
import { createRpcSource } from './rpc-source.js';
import { syncWalletOnChain } from './sync.js';

const CETH = '0x4ddc2d193948926d02f9b1fe9e1daa0718270ed5'; // compound-v2-1.json cETH
const COMPTROLLER = '0x3d9819210a31b4961b30ef54be2aed79b9c9cd3b'; // compound-v2-1.json Unitroller
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const SIG = {
  mint: 'event Mint(address minter, uint256 mintAmount, uint256 mintTokens)',
  borrow: 'event Borrow(address borrower, uint256 borrowAmount, uint256 accountBorrows, uint256 totalBorrows)',
  repay: 'event RepayBorrow(address payer, address borrower, uint256 repayAmount, uint256 accountBorrows, uint256 totalBorrows)',
  distributed:
    'event DistributedBorrowerComp(address indexed cToken, address indexed borrower, uint256 compDelta, uint256 compBorrowIndex)',
};
const ORACLE = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);

const dbs: Db[] = [];
const fakes: FakeProvider[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
  for (const d of dbs) await d.close();
});

/** A chain whose wallet supplied 10 ETH to cETH, borrowed 2 ETH and repaid 2.01 ETH; another wallet borrowed too. */
function chainOf(wallet: string, other: string): SimChain {
  const head = 20_000_000;
  const logs: SimLog[] = [];
  const receipts = new Map<string, SimLog[]>();
  const tx = (n: number, block: number, entries: { address: string; event: string; args: Record<string, unknown> }[]) => {
    const hash = pad(`0x${n.toString(16)}`).toLowerCase();
    const mine = entries.map((e, i) => ({
      address: e.address,
      ...encodeLog(e.event, e.args),
      blockNumber: block,
      transactionHash: hash,
      logIndex: i,
    }));
    for (const l of mine) l.topics = l.topics.map((t) => t.toLowerCase());
    logs.push(...mine);
    receipts.set(hash, mine);
  };
  const comp = (borrower: string) => ({
    address: COMPTROLLER,
    event: SIG.distributed,
    args: { cToken: CETH, borrower, compDelta: 0n, compBorrowIndex: 10n ** 36n },
  });
  // a mint: cETH's own Transfer(cETH, minter) names the wallet (found before this change too)
  tx(1, 15_000_000, [
    { address: CETH, event: SIG.mint, args: { minter: wallet, mintAmount: parseEther('10'), mintTokens: 50_000_000_000n } },
    { address: CETH, event: SIGS.transfer, args: { from: CETH, to: wallet, value: 50_000_000_000n } },
  ]);
  tx(2, 15_000_100, [
    comp(wallet),
    {
      address: CETH,
      event: SIG.borrow,
      args: { borrower: wallet, borrowAmount: parseEther('2'), accountBorrows: parseEther('2'), totalBorrows: parseEther('1000') },
    },
  ]);
  tx(3, 15_000_200, [
    comp(other),
    {
      address: CETH,
      event: SIG.borrow,
      args: { borrower: other, borrowAmount: parseEther('5'), accountBorrows: parseEther('5'), totalBorrows: parseEther('1005') },
    },
  ]);
  tx(4, 15_100_000, [
    comp(wallet),
    {
      address: CETH,
      event: SIG.repay,
      args: { payer: wallet, borrower: wallet, repayAmount: parseEther('2.01'), accountBorrows: 0n, totalBorrows: parseEther('1003') },
    },
  ]);
  logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
  // WETH at $2,500 from the Aave V3 oracle (the simulator answers every block alike)
  const price = `${oracleFor(1)!.address}:${encodeFunctionData({ abi: ORACLE, functionName: 'getAssetPrice', args: [WETH as Hex] }).toLowerCase()}`;
  return {
    chainId: 1,
    head,
    genesis: 1_438_269_973,
    wallet,
    nonce: 0,
    logs,
    code: new Map(),
    calls: new Map([[price, pad(`0x${(2500n * 10n ** 8n).toString(16)}`)]]),
    expected: {},
    receipts,
  };
}

describe('cETH over JSON-RPC', () => {
  it("the plan asks the Comptroller's DistributedBorrowerComp for the wallet at position 2, in a query asked anyway", () => {
    const plan = buildPlan(pinnedContracts(1));
    const w = randomAddress().toLowerCase();
    const queries = plan.queries(w, 15_000_000, 15_009_999, {});
    const two = queries.find((q) => q.topics.length === 3)!;
    expect(two.topics[0]).toContain(DISTRIBUTED_BORROWER_COMP);
    // transfers and swaps are asked from any emitter at this position: the Comptroller's log comes in the same
    // answer, and no query was added for it (positions 1 and 2 only, before Morpho Blue's deployment)
    expect(two.address).toBeNull();
    expect(queries.map((q) => q.topics.length).sort()).toEqual([2, 3]);
  });

  it("stores the wallet's cETH supply, borrow and repay, valued as WETH, and not another borrower's", async () => {
    const wallet = randomAddress().toLowerCase();
    const other = randomAddress().toLowerCase();
    const provider = await startFakeProvider(chainOf(wallet, other), 'open');
    fakes.push(provider);
    const db = await testDatabase();
    dbs.push(db);
    const res = await syncWalletOnChain(db, createIngestionRepo(db), createRpcSource(1, provider.url), wallet, {
      pinned: pinnedContracts(1),
      useFinalized: true,
    });
    expect(res.complete).toBe(true);
    const rows = (await lendingRows(db, wallet)).map((r) => [
      r.kind,
      r.protocol,
      r.contract,
      r.counterparty,
      r.amount,
      Math.round(Number(r.value_usd) * 100) / 100,
    ]);
    expect(rows).toEqual([
      ['lending_supply', 'compound-v2', CETH, WETH, parseEther('10').toString(), 25_000],
      ['lending_borrow', 'compound-v2', CETH, WETH, parseEther('2').toString(), 5_000],
      ['lending_repay', 'compound-v2', CETH, WETH, parseEther('2.01').toString(), 5_025],
    ]);
    // another borrower's cETH borrow is not the wallet's
    expect(await lendingRows(db, other)).toEqual([]);
  });
});
