// A simulated chain for the provider simulator (test/fakes/rpc-provider.ts) made of whole transactions: each
// transaction's logs are answered by eth_getLogs and held as its receipt, and WETH has a price at the chain's Aave V3
// oracle. Then one wallet synced from it over JSON-RPC, and its lending rows.
import { encodeFunctionData, pad, parseAbi, type Hex } from 'viem';
import type { Db } from '../../src/platform/db/types.js';
import { oracleFor } from '../../src/modules/ingestion/pricing/oracle.js';
import { pinnedContracts } from '../../src/modules/ingestion/registry/index.js';
import { createIngestionRepo } from '../../src/modules/ingestion/repo.js';
import { createRpcSource } from '../../src/modules/ingestion/rpc-source.js';
import { syncWalletOnChain } from '../../src/modules/ingestion/sync.js';
import type { SimChain, SimLog } from '../fakes/rpc-provider-chain.js';
import { startFakeProvider, type FakeProvider } from '../fakes/rpc-provider.js';
import { testDatabase } from './db.js';
import { encodeLog } from './etl-export.js';
import { lendingRows } from './lending-rows.js';

type Entry = { address: string; event: string; args: Record<string, unknown> };
const ORACLE = parseAbi(['function getAssetPrice(address asset) view returns (uint256)']);

export function receiptChain(o: { chainId: number; genesis: number; wallet: string; weth: string; wethUsd: bigint }) {
  const logs: SimLog[] = [];
  const receipts = new Map<string, SimLog[]>();
  /** transaction `n` in `block`, its logs in order */
  const tx = (n: number, block: number, entries: Entry[]) => {
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
  const chain = (): SimChain => {
    logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
    // the simulator answers every block alike
    const price = `${oracleFor(o.chainId)!.address}:${encodeFunctionData({ abi: ORACLE, functionName: 'getAssetPrice', args: [o.weth as Hex] }).toLowerCase()}`;
    return {
      chainId: o.chainId,
      head: 20_000_000,
      genesis: o.genesis,
      wallet: o.wallet,
      nonce: 0,
      logs,
      code: new Map(),
      calls: new Map([[price, pad(`0x${(o.wethUsd * 10n ** 8n).toString(16)}`)]]),
      expected: {},
      receipts,
    };
  };
  return { tx, chain };
}

/** The wallet synced from the chain over JSON-RPC (the real source), into a new database; its lending rows as
 *  [kind, protocol, contract, counterparty, amount, USD to the cent]. The provider and database go into `opened`. */
export async function syncedLendingRows(chain: SimChain, wallet: string, opened: { fakes: FakeProvider[]; dbs: Db[] }) {
  const provider = await startFakeProvider(chain, 'open');
  opened.fakes.push(provider);
  const db = await testDatabase();
  opened.dbs.push(db);
  const res = await syncWalletOnChain(db, createIngestionRepo(db), createRpcSource(chain.chainId, provider.url), wallet, {
    pinned: pinnedContracts(chain.chainId),
    useFinalized: true,
  });
  const rows = async (w: string) =>
    (await lendingRows(db, w)).map((r) => [
      r.kind,
      r.protocol,
      r.contract,
      r.counterparty,
      r.amount,
      Math.round(Number(r.value_usd) * 100) / 100,
    ]);
  return { complete: res.complete, rows };
}
