// A wallet's whole history on one chain from the explorer API, in a handful of calls: the five account lists
// and the logs naming the wallet at each topic position, all decoded by the same decoder as JSON-RPC logs. What
// JSON-RPC cannot see comes from the lists: native transfers (txlist, txlistinternal), contract deployments
// (txlist rows that create a contract), and swaps routed through a router, credited to the transaction's sender:
// of the wallet's own transactions that moved one asset out and another in, a direct swap in a pool that derives
// from the factory for that pair is settled from the token list alone (directSwap); only the rest (multi-hop or
// split routes, native legs) costs a receipt.
import { bigOrNull, txFeeRecord } from '../tx-fees.js';
import { encodeAbiParameters, pad, toHex } from 'viem';
import type { Db } from '../../../platform/db/types.js';
import { decodeLog, deploymentRecord, type ActivityRecord, type RawLog } from '../decode.js';
import { EVENTS } from '../events.js';
import { borrowerMarked, walletTopic } from '../log-plan.js';
import { createCoverageRepo } from '../coverage-repo.js';
import { SWAP_TOPICS } from '../registry/pools.js';
import { cTokenInfo } from '../registry/index.js';
import { learnFromLogs, resolveIds } from '../registry/markets.js';
import { pricesForLogs } from '../pricing/index.js';
import { positionMintRecipient, positionRecords } from '../positions.js';
import type { PoolInfo } from '../registry/gate.js';
import type { IngestionRepo } from '../repo.js';
import type { SyncOptions, SyncResult } from '../sync.js';
import type { ExplorerSource, Row } from './source.js';
import { idx, lc, n, noValue, ok, time } from './rows.js';
import { candidateSwaps, directSwap, poolsFor } from './swaps.js';

const topic = (name: string) => EVENTS.find((e) => e.name === name)!.topic0;
const TRANSFER = topic('Transfer');
const TRANSFER_SINGLE = topic('TransferSingle');
/** Uniswap V4 and Balancer V2 swaps and liquidity (one contract holds every pool): read from receipts like router swaps */
const SINGLETON_TRADES = new Set(
  ['UniswapV4Swap', 'UniswapV4ModifyLiquidity', 'BalancerSwap', 'BalancerPoolBalanceChanged'].map((n) => topic(n).toLowerCase()),
);

/** Receipts over JSON-RPC (batched) when a JSON-RPC source is configured too: one round trip, not one call each. */
export type ReceiptReader = (
  hashes: string[],
) => Promise<
  Map<string, { address: string; topics: string[]; data: string; transactionHash: string; logIndex: number; blockNumber: number }[]>
>;

/** One wallet's sync on one chain: what every step reads. */
interface Run {
  db: Db;
  repo: IngestionRepo;
  src: ExplorerSource;
  receipts?: ReceiptReader;
  opts: Partial<SyncOptions>;
  chainId: number;
  wallet: string;
  from: number;
  head: number;
}

/** The wallet's account lists, and the logs naming it at topics 1 to 3 (all positions in one list). */
interface Lists {
  txs: Row[];
  internal: Row[];
  erc20: Row[];
  erc721: Row[];
  erc1155: Row[];
  byTopic: Row[];
}

/** Swaps settled without their receipt (direct) and the logs of the receipts read for the others. */
interface Swaps {
  direct: { log: RawLog; pools: Map<string, PoolInfo | null> }[];
  receiptLogs: RawLog[];
}

export async function syncWalletFromExplorer(
  db: Db,
  repo: IngestionRepo,
  src: ExplorerSource,
  wallet: string,
  opts: Partial<SyncOptions>,
  receipts?: ReceiptReader,
): Promise<SyncResult> {
  const chainId = src.chainId;
  const state = (await repo.syncStates(wallet)).find((s) => s.chainId === chainId);
  const tip = await src.tip();
  // the explorer indexes canonical blocks but the newest can still be reorganized: stay behind the head
  const head = Math.max(0, tip.head - (opts.confirmations ?? 12));
  const from = (state?.lastBlock ?? -1) + 1;
  if (from > head) return { chainId, newRecords: 0, nonceChanged: false, head, complete: true };
  const run: Run = { db, repo, src, receipts, opts, chainId, wallet, from, head };

  const lists = await readLists(run);
  const { records, nonce } = nativeRecords(run, lists, state?.nonce ?? 0);
  const logs = listedLogs(lists);
  const swaps = await routerSwaps(run, lists, logs);
  const compound = await compoundLogs(run, lists, logs, swaps.receiptLogs);
  records.push(...(await decodeEvidence(run, lists, logs, swaps, compound)));
  records.push(...(await positionsMinted(chainId, wallet, logs, lists.txs, src, receipts)));
  // who sent each transaction: the txlist holds every transaction the wallet sent (and those sent to it) with its
  // sender; a log in any other transaction was not sent by the wallet (sender unknown: null)
  const sentBy = new Map(lists.txs.map((t) => [lc(t.hash), lc(t.from)]));
  for (const r of records) r.txFrom ??= sentBy.get(r.txHash.toLowerCase()) || null;

  const stored = await storeRecords(run, records, nonce);
  return { chainId, newRecords: stored, nonceChanged: nonce !== (state?.nonce ?? 0), head, complete: true };
}

async function readLists({ src, wallet, from, head }: Run): Promise<Lists> {
  const [txs, internal, erc20, erc721, erc1155, ...byTopic] = await Promise.all([
    src.list('txlist', wallet, from, head),
    src.list('txlistinternal', wallet, from, head),
    src.list('tokentx', wallet, from, head),
    src.list('tokennfttx', wallet, from, head),
    src.list('token1155tx', wallet, from, head),
    ...([1, 2, 3] as const).map((p) => src.logs({ topics: { [p]: walletTopic(wallet) }, fromBlock: from, toBlock: head })),
  ]);
  return { txs, internal, erc20, erc721, erc1155, byTopic: byTopic.flat() };
}

/** Fees of the transactions the wallet sent, contracts it deployed and native transfers (txlist, txlistinternal),
 *  and its nonce as the txlist shows it. */
function nativeRecords({ chainId, wallet }: Run, { txs, internal }: Lists, nonce: number) {
  const records: ActivityRecord[] = [];
  for (const t of txs) {
    const f = lc(t.from);
    const to = lc(t.to);
    if (f === wallet && t.nonce !== undefined) nonce = Math.max(nonce, Number(t.nonce) + 1);
    const block = Number(t.blockNumber);
    // the fee of a transaction the wallet sent (tx-fees.ts): txlist has no base fee, so tips count up to the cap
    const gasUsed = bigOrNull(t.gasUsed);
    const gasPrice = bigOrNull(t.gasPrice);
    if (f === wallet && t.hash && gasUsed !== null && gasPrice !== null) {
      const fee = txFeeRecord({ chainId, hash: t.hash, from: wallet, blockNumber: block, occurredAt: time(t), gasUsed, gasPrice });
      if (fee) records.push(fee);
    }
    if (!ok(t)) continue;
    if (!to && t.contractAddress && f === wallet) {
      records.push(deploymentRecord(chainId, wallet, t.contractAddress, block, time(t), true));
      continue;
    }
    if (noValue(t.value)) continue;
    records.push(native(chainId, t, -1, f === wallet ? 'out' : 'in', f === wallet ? to : f, wallet));
  }
  for (const t of internal) {
    if (!ok(t) || noValue(t.value)) continue;
    const f = lc(t.from);
    // internal transfers have no log index: -2 keeps them apart from the transaction's own value transfer
    records.push(native(chainId, t, -2, f === wallet ? 'out' : 'in', f === wallet ? lc(t.to) : f, wallet));
  }
  return { records, nonce };
}

/** The logs naming the wallet: token lists are the decoded form of Transfer / TransferSingle logs, re-encoded to be
 *  decoded like any log, then the logs by topic; a transfer in both is kept once (dropListedTwice). */
function listedLogs({ erc20, erc721, erc1155, byTopic }: Lists): RawLog[] {
  const logs: RawLog[] = [];
  erc20.forEach((r, i) =>
    logs.push(raw(r, [TRANSFER, pad(r.from as `0x${string}`), pad(r.to as `0x${string}`)], pad(toHex(BigInt(r.value || '0'))), i)),
  );
  erc721.forEach((r, i) =>
    logs.push(raw(r, [TRANSFER, pad(r.from as `0x${string}`), pad(r.to as `0x${string}`), pad(toHex(BigInt(r.tokenID || '0')))], '0x', i)),
  );
  erc1155.forEach((r, i) =>
    logs.push(
      raw(
        r,
        [TRANSFER_SINGLE, pad((r.operator || r.from) as `0x${string}`), pad(r.from as `0x${string}`), pad(r.to as `0x${string}`)],
        encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [BigInt(r.tokenID || '0'), BigInt(r.tokenValue || '1')]),
        i,
      ),
    ),
  );
  for (const r of byTopic)
    logs.push(raw(r, (r.topics as unknown as string[]) ?? [r.topic0, r.topic1, r.topic2, r.topic3].filter(Boolean), r.data, 0));
  dropListedTwice(logs);
  return logs;
}

/** Router swaps: the wallet's own transactions that sent one asset and received another, with no swap among its logs.
 *  A direct swap (one pool, from the factory, for the pair the wallet sent and received) is settled from the token
 *  list alone; only what that cannot settle (multi-hop, split routes, native legs) needs the receipt. */
async function routerSwaps(run: Run, { txs, internal, erc20 }: Lists, logs: RawLog[]): Promise<Swaps> {
  const { chainId, wallet } = run;
  const swapTxs = new Set(logs.filter((l) => SWAP_TOPICS.has(l.topics[0]?.toLowerCase())).map((l) => l.transactionHash.toLowerCase()));
  const receiptLogs: RawLog[] = [];
  const direct: Swaps['direct'] = [];
  const candidates: string[] = [];
  for (const c of candidateSwaps(wallet, txs, internal, erc20)) {
    if (swapTxs.has(c.hash)) continue;
    const d = c.gotNative ? null : directSwap(chainId, wallet, c.tx, c.moves);
    if (d) direct.push(d);
    else candidates.push(c.hash);
  }
  const at = (hash: string) => time(txs.find((t) => lc(t.hash) === hash)!);
  if (candidates.length)
    for (const [hash, ls] of await receiptLogsOf(run.src, candidates, run.receipts))
      for (const l of ls) receiptLogs.push({ ...l, timestamp: at(hash) });
  return { direct, receiptLogs };
}

/** Compound V2's events name the wallet only in their data: the receipts of the wallet's transactions to a cToken,
 *  of those in which its token list moved an asset to or from one (a borrow, a repay), and of those a borrower mark
 *  names it in (log-plan.ts), hold them. `all`: those
 *  receipts' logs; `compound`: their cTokens' logs not among the wallet's logs already. */
async function compoundLogs(run: Run, { txs, erc20 }: Lists, logs: RawLog[], receiptLogs: RawLog[]) {
  const { chainId, wallet } = run;
  const cTxs = new Set<string>();
  for (const t of txs) if (ok(t) && lc(t.from) === wallet && cTokenInfo(chainId, lc(t.to))) cTxs.add(lc(t.hash));
  for (const r of erc20)
    if (cTokenInfo(chainId, lc(r.from)) || cTokenInfo(chainId, lc(r.to)) || cTokenInfo(chainId, lc(r.contractAddress)))
      cTxs.add(lc(r.hash));
  // a Comptroller's or reward distributor's mark among the wallet's logs: a cETH or mWETH borrow or repay, perhaps
  // sent by someone else (a repay on the wallet's behalf, through Moonwell's WETH router)
  const marked = new Map<string, RawLog['timestamp']>();
  for (const l of logs) if (borrowerMarked(chainId, wallet, l)) marked.set(lc(l.transactionHash), l.timestamp);
  for (const h of marked.keys()) cTxs.add(h);
  const fetched = new Set(receiptLogs.map((l) => lc(l.transactionHash)));
  const cWanted = [...cTxs].filter((h) => !fetched.has(h));
  const known = new Set(logs.map((l) => `${lc(l.transactionHash)}:${l.logIndex}`));
  const all: RawLog[] = [];
  const when = (hash: string) => {
    const row = txs.find((t) => lc(t.hash) === hash) ?? erc20.find((t) => lc(t.hash) === hash);
    return row ? time(row) : (marked.get(hash) ?? null);
  };
  if (cWanted.length)
    for (const [hash, ls] of await receiptLogsOf(run.src, cWanted, run.receipts))
      for (const l of ls) all.push({ ...l, timestamp: when(hash) });
  for (const l of receiptLogs) if (cTxs.has(lc(l.transactionHash))) all.push(l);
  const compound = all.filter((l) => cTokenInfo(chainId, l.address) && !known.has(`${lc(l.transactionHash)}:${l.logIndex}`));
  return { all, compound };
}

/** The wallet's records from its logs, its router swaps' receipts, its direct swaps and its Compound V2 logs, with
 *  what decoding them needs: markets, pools and oracle prices. */
async function decodeEvidence(
  run: Run,
  { erc20 }: Lists,
  logs: RawLog[],
  { direct, receiptLogs }: Swaps,
  compound: { all: RawLog[]; compound: RawLog[] },
): Promise<ActivityRecord[]> {
  const { chainId, wallet, src } = run;
  // Morpho markets and V4 pools by id, cToken rates: from these logs, else asked through the explorer (markets.ts)
  learnFromLogs(chainId, [...logs, ...receiptLogs, ...compound.all]);
  await resolveIds(chainId, [...logs, ...receiptLogs], (to, data) => src.call(to, data));
  const pools = await poolsFor(chainId, [...logs, ...receiptLogs], erc20, src);
  // oracle prices of non-stable amounts, over the chain's JSON-RPC source when one is configured (pricing/)
  const swaps = [
    ...receiptLogs.filter((l) => SWAP_TOPICS.has(l.topics[0]?.toLowerCase()) || SINGLETON_TRADES.has(l.topics[0]?.toLowerCase())),
    ...compound.compound,
  ];
  const prices = await pricesForLogs(run.opts.prices, [...logs, ...swaps, ...direct.map((d) => d.log)], {
    chainId,
    pools: new Map([...pools, ...direct.flatMap((d) => [...d.pools])]),
  });
  const records: ActivityRecord[] = [];
  const seen = new Set<string>();
  for (const l of logs) {
    const key = `${lc(l.transactionHash)}:${l.logIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    for (const r of decodeLog(l, { chainId, pools, prices })) {
      if (r.wallet !== wallet) continue;
      // a token list row without its log index (a stand-in index, see raw()) cannot be matched to the same
      // transfer among the logs by topic: an aToken transfer's or a Comet mint's or burn's lending row is taken from
      // the log only (the log query at topic 1 or 2 returns every Transfer naming the wallet, with the log index the
      // replay pairs a Comet Supply/Withdraw with its own mint/burn by), so a position moved counts once
      if (l.logIndex <= LIST_INDEX && r.kind.startsWith('lending_')) continue;
      records.push(r);
    }
  }
  for (const l of swaps) for (const r of decodeLog(l, { chainId, pools, txFrom: wallet, prices })) if (r.wallet === wallet) records.push(r);
  for (const d of direct)
    for (const r of decodeLog(d.log, { chainId, pools: d.pools, txFrom: wallet, prices })) if (r.wallet === wallet) records.push(r);
  return records;
}

/** The records, the cursor, the nonce and the chain's coverage in one transaction; the records stored (0 if all were
 *  stored before). */
async function storeRecords({ db, repo, wallet, chainId, head }: Run, records: ActivityRecord[], nonce: number): Promise<number> {
  const coverage = createCoverageRepo(db);
  return db.tx(async (q) => {
    const changed = await repo.insertActivity(records, q);
    await repo.advanceCursor(wallet, chainId, head, q);
    await repo.recordAccount(wallet, chainId, { nonce }, q);
    await coverage.recordChainState(wallet, chainId, { source: 'explorer', finalizedBlock: head, complete: true }, q);
    return changed.size ? records.length : 0;
  });
}

/** Uniswap V3 positions minted to the wallet (positions.ts): the minting transaction's receipt says which pool; the
 *  wallet sent it if its txlist has it as the sender. */
async function positionsMinted(
  chainId: number,
  wallet: string,
  logs: RawLog[],
  txs: Row[],
  src: ExplorerSource,
  receipts?: ReceiptReader,
): Promise<ActivityRecord[]> {
  const minted = new Map<string, Date | null>();
  for (const l of logs) if (positionMintRecipient(chainId, l) === wallet) minted.set(lc(l.transactionHash), l.timestamp);
  if (!minted.size) return [];
  const out: ActivityRecord[] = [];
  for (const [hash, ls] of await receiptLogsOf(src, [...minted.keys()], receipts)) {
    const from = txs.some((t) => lc(t.hash) === hash && lc(t.from) === wallet) ? wallet : null;
    for (const r of positionRecords(chainId, { hash, from, logs: ls.map((l) => ({ ...l, timestamp: minted.get(hash) ?? null })) }))
      if (r.wallet === wallet) out.push(r);
  }
  return out;
}

/** Logs of these transactions' receipts: over the chain's JSON-RPC in one batch when configured, else from the
 *  explorer one by one. */
async function receiptLogsOf(src: ExplorerSource, hashes: string[], receipts?: ReceiptReader): ReturnType<ReceiptReader> {
  if (receipts) return receipts(hashes);
  const out: Awaited<ReturnType<ReceiptReader>> = new Map();
  for (const h of hashes) {
    const rc = await src.receipt(h);
    out.set(
      h,
      (rc?.logs ?? []).map((l) => ({
        address: l.address,
        topics: l.topics,
        data: l.data,
        transactionHash: l.transactionHash,
        logIndex: n(l.logIndex),
        blockNumber: n(l.blockNumber),
      })),
    );
  }
  return out;
}

function native(chainId: number, t: Row, logIndex: number, direction: 'in' | 'out', counterparty: string, wallet: string): ActivityRecord {
  return {
    chainId,
    txHash: lc(t.hash),
    logIndex,
    wallet,
    kind: 'transfer_native',
    blockNumber: Number(t.blockNumber),
    occurredAt: time(t),
    contract: null,
    counterparty: counterparty || null,
    tokenId: null,
    amount: t.value,
    direction,
    protocol: null,
    ref: null,
  };
}

/** The log index given to a token list row that has none (this and below). */
const LIST_INDEX = -1000;

/** A token transfer naming the wallet is in its token list (no log index) and again among the logs the topic query
 *  returns (with its index): the list's copy goes, so the transfer is stored once (under its real log index). */
function dropListedTwice(logs: RawLog[]): void {
  const key = (l: RawLog) => `${lc(l.transactionHash)}|${lc(l.address)}|${l.topics.map(lc).join(',')}|${lc(l.data)}`;
  const logged = new Map<string, number>();
  for (const l of logs) if (l.logIndex > LIST_INDEX) logged.set(key(l), (logged.get(key(l)) ?? 0) + 1);
  for (let i = logs.length - 1; i >= 0; i--) {
    const l = logs[i];
    if (l.logIndex > LIST_INDEX) continue;
    const k = key(l);
    const left = logged.get(k) ?? 0;
    // one list row per logged copy (two identical transfers in one transaction are two logs and two rows)
    if (left > 0) {
      logged.set(k, left - 1);
      logs.splice(i, 1);
    }
  }
}

function raw(r: Row, topics: string[], data: string, i: number): RawLog {
  return {
    address: r.contractAddress || r.address,
    topics,
    data: data || '0x',
    transactionHash: r.hash || r.transactionHash,
    logIndex: idx(r.logIndex, LIST_INDEX - i),
    blockNumber: n(r.blockNumber),
    timestamp: time(r),
  };
}
