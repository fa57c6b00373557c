// Compound V2's cETH over JSON-RPC, as from an ethereum-etl import: its Borrow and RepayBorrow move ether, so no
// Transfer names the borrower and its events name it only in their data. The Comptroller's DistributedBorrowerComp
// (borrower indexed) finds those transactions; their receipts give cETH's own events, valued as WETH at the Aave
// oracle's price. The provider simulator (test/fakes/rpc-provider.ts) answers through the real RPC source.
import { afterAll, describe, expect, it } from 'vitest';
import { parseEther } from 'viem';
import { randomAddress } from '../../../test/helpers/app.js';
import { SIGS } from '../../../test/helpers/etl-export.js';
import { receiptChain, syncedLendingRows } from '../../../test/helpers/receipt-chain.js';
import type { SimChain } from '../../../test/fakes/rpc-provider-chain.js';
import type { FakeProvider } from '../../../test/fakes/rpc-provider.js';
import type { Db } from '../../platform/db/types.js';
import { buildPlan, DISTRIBUTED_BORROWER_COMP } from './log-plan.js';
import { pinnedContracts } from './registry/index.js';

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

const dbs: Db[] = [];
const fakes: FakeProvider[] = [];
afterAll(async () => {
  for (const f of fakes) await f.close();
  for (const d of dbs) await d.close();
});

/** A chain whose wallet supplied 10 ETH to cETH, borrowed 2 ETH and repaid 2.01 ETH; another wallet borrowed too. */
function chainOf(wallet: string, other: string): SimChain {
  // WETH at $2,500 from the Aave V3 oracle
  const { tx, chain } = receiptChain({ chainId: 1, genesis: 1_438_269_973, wallet, weth: WETH, wethUsd: 2500n });
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
  return chain();
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
    const { complete, rows: rowsOf } = await syncedLendingRows(chainOf(wallet, other), wallet, { fakes, dbs });
    expect(complete).toBe(true);
    const rows = await rowsOf(wallet);
    expect(rows).toEqual([
      ['lending_supply', 'compound-v2', CETH, WETH, parseEther('10').toString(), 25_000],
      ['lending_borrow', 'compound-v2', CETH, WETH, parseEther('2').toString(), 5_000],
      ['lending_repay', 'compound-v2', CETH, WETH, parseEther('2.01').toString(), 5_025],
    ]);
    // another borrower's cETH borrow is not the wallet's
    expect(await rowsOf(other)).toEqual([]);
  });
});
