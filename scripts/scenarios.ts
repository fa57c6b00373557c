// Drives wallets on a local chain through about eleven months of realistic histories, over plain JSON-RPC:
// a steady borrower who repays, a borrower who gets liquidated, an active trader, a governance voter, an NFT
// collector, a contract developer and a fresh wallet. Used by the ingestion tests and `npm run demo`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeAbiParameters, encodeDeployData, encodeFunctionData, keccak256, parseEther, toHex, type Abi } from 'viem';

const ARTIFACTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../contracts/mocks/artifacts');

interface Artifact {
  abi: Abi;
  bytecode: `0x${string}`;
}
const artifacts = new Map<string, Artifact>();
export function artifact(name: string): Artifact {
  let a = artifacts.get(name);
  if (!a) {
    a = JSON.parse(readFileSync(path.join(ARTIFACTS, `${name}.json`), 'utf8')) as Artifact;
    artifacts.set(name, a);
  }
  return a;
}

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
}

type Hex = `0x${string}`;

export function chainClient(url: string) {
  let id = 0;
  async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }) });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  }
  let transactions = 0;
  async function sendRaw(tx: Record<string, unknown>): Promise<{ contractAddress: string | null; blockNumber: string }> {
    const hash = await rpc<Hex>('eth_sendTransaction', [tx]);
    transactions++;
    const receipt = await rpc<{ status: string; contractAddress: string | null; blockNumber: string }>('eth_getTransactionReceipt', [hash]);
    if (receipt.status !== '0x1') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }
  return {
    rpc,
    get transactions() {
      return transactions;
    },
    async deploy(from: string, name: string, args: unknown[] = []): Promise<string> {
      const a = artifact(name);
      const data = encodeDeployData({ abi: a.abi, bytecode: a.bytecode, args });
      const r = await sendRaw({ from, data });
      return r.contractAddress!.toLowerCase();
    },
    async call(from: string, to: string, name: string, fn: string, args: unknown[] = [], value?: bigint) {
      const data = encodeFunctionData({ abi: artifact(name).abi, functionName: fn, args });
      return sendRaw({ from, to, data, ...(value ? { value: toHex(value) } : {}) });
    },
    /** Moves chain time forward (the next block carries the new time). */
    async advanceDays(days: number) {
      await rpc('evm_increaseTime', [Math.round(days * 86400)]);
      await rpc('evm_mine', []);
    },
  };
}

const E = (n: number) => parseEther(String(n));
const MAX = 2n ** 256n - 1n;

/**
 * Runs every history. `accounts` are unlocked accounts of the node (at least 8): the first is the operator.
 * Start the chain about 340 days in the past so the histories end near today.
 */
export async function runScenarios(url: string, accounts: string[]): Promise<ScenarioResult> {
  const c = chainClient(url);
  const [operator, borrower, liquidated, trader, voter, collector, developer, fresh] = accounts.map((a) => a.toLowerCase());
  const op = operator;

  // Protocols and liquidity.
  const weth = await c.deploy(op, 'MockERC20', ['Wrapped Ether', 'WETH']);
  const usdc = await c.deploy(op, 'MockERC20', ['USD Coin', 'USDC']);
  const gov = await c.deploy(op, 'MockVotesToken', ['Governance', 'GOV']);
  const aave = await c.deploy(op, 'MockAavePool');
  const comet = await c.deploy(op, 'MockComet', [usdc]);
  const pairV2 = await c.deploy(op, 'MockUniswapV2Pair', [weth, usdc]);
  const poolV3 = await c.deploy(op, 'MockUniswapV3Pool', [weth, usdc]);
  const governor = await c.deploy(op, 'MockGovernor', [gov]);
  const art = await c.deploy(op, 'MockERC721', ['Credence Art']);
  const punks = await c.deploy(op, 'MockERC721', ['Pixel Punks']);
  const items = await c.deploy(op, 'MockERC1155');
  const ens = await c.deploy(op, 'MockENSRegistrarController');
  const eas = await c.deploy(op, 'MockEAS');
  for (const pool of [aave, comet, pairV2, poolV3]) {
    await c.call(op, weth, 'MockERC20', 'mint', [pool, E(10_000)]);
    await c.call(op, usdc, 'MockERC20', 'mint', [pool, E(20_000_000)]);
  }
  await c.call(op, pairV2, 'MockUniswapV2Pair', 'sync');
  await c.call(op, weth, 'MockERC20', 'mint', [op, E(1_000)]);
  await c.call(op, usdc, 'MockERC20', 'mint', [op, E(1_000_000)]);
  for (const t of [weth, usdc]) for (const p of [aave, comet]) await c.call(op, t, 'MockERC20', 'approve', [p, MAX]);

  // Each wallet's starting balances and approvals.
  for (const w of [borrower, liquidated]) {
    await c.call(op, weth, 'MockERC20', 'mint', [w, E(50)]);
    await c.call(op, usdc, 'MockERC20', 'mint', [w, E(20_000)]);
    for (const t of [weth, usdc]) for (const p of [aave, comet]) await c.call(w, t, 'MockERC20', 'approve', [p, MAX]);
  }
  await c.call(op, weth, 'MockERC20', 'mint', [trader, E(100)]);
  await c.call(op, usdc, 'MockERC20', 'mint', [trader, E(200_000)]);
  for (const t of [weth, usdc]) for (const p of [pairV2, poolV3]) await c.call(trader, t, 'MockERC20', 'approve', [p, MAX]);
  await c.call(op, gov, 'MockVotesToken', 'mint', [voter, E(5_000)]);
  await c.call(voter, gov, 'MockVotesToken', 'delegate', [voter]);
  await c.call(op, gov, 'MockVotesToken', 'mint', [op, E(1_000)]);
  await c.call(op, gov, 'MockVotesToken', 'delegate', [voter]); // the voter also receives a delegation

  const developerContracts: string[] = [];
  let punkForCollector = 0n;
  for (let month = 0; month < 11; month++) {
    await c.advanceDays(20);
    // Steady borrower: supply collateral, borrow, repay in full a week later.
    await c.call(borrower, aave, 'MockAavePool', 'supply', [weth, E(2), borrower, 0]);
    await c.call(borrower, aave, 'MockAavePool', 'borrow', [usdc, E(1_500), 2, 0, borrower]);
    if (month % 3 === 0) await c.call(borrower, comet, 'MockComet', 'supply', [usdc, E(500)]);
    // Liquidated borrower: borrows to the limit; liquidated in months 2, 5 and 8; Comet debt absorbed once.
    if (month % 3 === 0) {
      await c.call(liquidated, aave, 'MockAavePool', 'supply', [weth, E(3), liquidated, 0]);
      await c.call(liquidated, aave, 'MockAavePool', 'borrow', [usdc, E(4_500), 2, 0, liquidated]);
    }
    if (month === 1) await c.call(liquidated, comet, 'MockComet', 'withdraw', [usdc, E(2_000)]);
    // Trader: swaps on several days of the month, both venues, both directions.
    for (let d = 0; d < 3; d++) {
      await c.call(trader, pairV2, 'MockUniswapV2Pair', 'swapExactIn', [d % 2 ? usdc : weth, d % 2 ? E(3_000) : E(1), trader]);
      await c.call(trader, poolV3, 'MockUniswapV3Pool', 'swap', [trader, d % 2 === 0, d % 2 === 0 ? E(1) : E(2)]);
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
      punkForCollector++;
      await c.call(op, punks, 'MockERC721', 'transferFrom', [op, collector, punkForCollector]);
    }
    if (month === 4) await c.call(collector, items, 'MockERC1155', 'mint', [collector, 7n, 3n]);
    if (month === 9) await c.call(collector, art, 'MockERC721', 'transferFrom', [collector, trader, 1n]);
    // Developer: ships a contract every few months.
    if (month % 3 === 1) developerContracts.push(await c.deploy(developer, 'MockERC20', [`Dev Token ${month}`, `DEV${month}`]));
    if (month === 7) developerContracts.push(await c.deploy(developer, 'MockEAS'));
    await c.advanceDays(7);
    await c.call(borrower, aave, 'MockAavePool', 'repay', [usdc, E(1_500), 2, borrower]);
    if (month % 3 === 2) await c.call(op, aave, 'MockAavePool', 'liquidationCall', [weth, usdc, liquidated, E(4_500), false]);
    if (month === 3) await c.call(op, comet, 'MockComet', 'absorb', [op, [liquidated]]);
  }
  // Identity: ENS names and attestations. Registrations pay nothing here: a native-value transfer is visible to
  // the bulk import but not to the JSON-RPC path (no log), and the tests compare the two.
  await c.call(voter, ens, 'MockENSRegistrarController', 'register', ['steady-voter', voter, 365 * 86400]);
  await c.call(developer, ens, 'MockENSRegistrarController', 'register', ['dev-builds', developer, 365 * 86400]);
  const schema = keccak256(toHex('string role'));
  await c.call(op, eas, 'MockEAS', 'attest', [schema, developer, toHex('developer')]);
  await c.call(op, eas, 'MockEAS', 'attest', [schema, voter, toHex('delegate')]);

  const head = Number(await c.rpc<string>('eth_blockNumber'));
  return {
    wallets: { borrower, liquidated, trader, voter, collector, developer, fresh },
    operator,
    contracts: { weth, usdc, gov, aave, comet, pairV2, poolV3, governor, art, punks, items, ens, eas },
    developerContracts,
    transactions: c.transactions,
    headBlock: head,
  };
}

/** abi.encode(address(governor), count, description), as MockGovernor hashes it for proposal ids. */
function encodeAbiProposal(governor: string, count: number, description: string): Hex {
  return encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'string' }], [governor as Hex, BigInt(count), description]);
}
