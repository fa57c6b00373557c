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
import { EVENTS, EVENTS_BY_TOPIC } from '../events.js';
import { walletTopic } from '../log-plan.js';
import { createCoverageRepo } from '../coverage-repo.js';
import { derivePool, poolsForLogs, SWAP_TOPICS } from '../registry/pools.js';
import { cTokenInfo } from '../registry/index.js';
import { learnFromLogs, resolveIds } from '../registry/markets.js';
import { pricesForLogs } from '../pricing/index.js';
import { positionMintRecipient, positionRecords } from '../positions.js';
import type { PoolInfo } from '../registry/gate.js';
import type { IngestionRepo } from '../repo.js';
import type { SyncOptions, SyncResult } from '../sync.js';
import type { ExplorerSource, Row } from './source.js';

const topic = (name: string) => EVENTS.find((e) => e.name === name)!.topic0;
const TRANSFER = topic('Transfer');
const TRANSFER_SINGLE = topic('TransferSingle');
/** Uniswap V4 and Balancer V2 swaps and liquidity (one contract holds every pool): read from receipts like router swaps */
const SINGLETON_TRADES = new Set(
  ['UniswapV4Swap', 'UniswapV4ModifyLiquidity', 'BalancerSwap', 'BalancerPoolBalanceChanged'].map((n) => topic(n).toLowerCase()),
);
const ok = (r: Row) => r.isError !== '1' && r.txreceipt_status !== '0';
const lc = (s: string | undefined) => (s ?? '').toLowerCase();
const time = (r: Row) => (r.timeStamp ? new Date(Number(r.timeStamp === '0x' ? 0 : r.timeStamp) * 1000) : null);
/** Etherscan writes zero as "0x" in log rows */
const n = (v: string | undefined) => (v === '0x' ? 0 : Number(v));
const idx = (v: string | undefined, fallback: number) => (v === undefined || v === '' ? fallback : n(v));

/** Receipts over JSON-RPC (batched) when a JSON-RPC source is configured too: one round trip, not one call each. */
export type ReceiptReader = (
  hashes: string[],
) => Promise<
  Map<string, { address: string; topics: string[]; data: string; transactionHash: string; logIndex: number; blockNumber: number }[]>
>;

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

  const [txs, internal, erc20, erc721, erc1155, ...byTopic] = await Promise.all([
    src.list('txlist', wallet, from, head),
    src.list('txlistinternal', wallet, from, head),
    src.list('tokentx', wallet, from, head),
    src.list('tokennfttx', wallet, from, head),
    src.list('token1155tx', wallet, from, head),
    ...([1, 2, 3] as const).map((p) => src.logs({ topics: { [p]: walletTopic(wallet) }, fromBlock: from, toBlock: head })),
  ]);

  const records: ActivityRecord[] = [];
  let nonce = state?.nonce ?? 0;
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
    if (!t.value || /^0+$/.test(t.value)) continue;
    records.push(native(chainId, t, -1, f === wallet ? 'out' : 'in', f === wallet ? to : f, wallet));
  }
  for (const t of internal) {
    if (!ok(t) || !t.value || /^0+$/.test(t.value)) continue;
    const f = lc(t.from);
    // internal transfers have no log index: -2 keeps them apart from the transaction's own value transfer
    records.push(native(chainId, t, -2, f === wallet ? 'out' : 'in', f === wallet ? lc(t.to) : f, wallet));
  }

  // token lists are the decoded form of Transfer / TransferSingle logs: re-encoded and decoded like any log
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
  for (const r of byTopic.flat())
    logs.push(raw(r, (r.topics as unknown as string[]) ?? [r.topic0, r.topic1, r.topic2, r.topic3].filter(Boolean), r.data, 0));
  dropListedTwice(logs);

  // router swaps: the wallet's own transactions that sent one asset and received another
  const swapTxs = new Set(logs.filter((l) => SWAP_TOPICS.has(l.topics[0]?.toLowerCase())).map((l) => l.transactionHash.toLowerCase()));
  const receiptLogs: RawLog[] = [];
  // a direct swap (one pool, from the factory, for the pair the wallet sent and received) is settled from the token
  // list alone; only what that cannot settle (multi-hop, split routes, native legs) needs the receipt
  const direct: { log: RawLog; pools: Map<string, PoolInfo | null> }[] = [];
  const candidates: string[] = [];
  for (const c of candidateSwaps(wallet, txs, internal, erc20)) {
    if (swapTxs.has(c.hash)) continue;
    const d = c.gotNative ? null : directSwap(chainId, wallet, c.tx, c.moves);
    if (d) direct.push(d);
    else candidates.push(c.hash);
  }
  const at = (hash: string) => time(txs.find((t) => lc(t.hash) === hash)!);
  if (candidates.length)
    for (const [hash, ls] of await receiptLogsOf(src, candidates, receipts))
      for (const l of ls) receiptLogs.push({ ...l, timestamp: at(hash) });

  // Compound V2's events name the wallet only in their data: the receipts of the wallet's transactions to a cToken,
  // and of those in which its token list moved an asset to or from one (a borrow, a repay), hold them
  const cTxs = new Set<string>();
  for (const t of txs) if (ok(t) && lc(t.from) === wallet && cTokenInfo(chainId, lc(t.to))) cTxs.add(lc(t.hash));
  for (const r of erc20)
    if (cTokenInfo(chainId, lc(r.from)) || cTokenInfo(chainId, lc(r.to)) || cTokenInfo(chainId, lc(r.contractAddress)))
      cTxs.add(lc(r.hash));
  const fetched = new Set(receiptLogs.map((l) => lc(l.transactionHash)));
  const cWanted = [...cTxs].filter((h) => !fetched.has(h));
  const known = new Set(logs.map((l) => `${lc(l.transactionHash)}:${l.logIndex}`));
  const cLogs: RawLog[] = [];
  const when = (hash: string) => {
    const row = txs.find((t) => lc(t.hash) === hash) ?? erc20.find((t) => lc(t.hash) === hash);
    return row ? time(row) : null;
  };
  if (cWanted.length)
    for (const [hash, ls] of await receiptLogsOf(src, cWanted, receipts)) for (const l of ls) cLogs.push({ ...l, timestamp: when(hash) });
  for (const l of receiptLogs) if (cTxs.has(lc(l.transactionHash))) cLogs.push(l);
  const compound = cLogs.filter((l) => cTokenInfo(chainId, l.address) && !known.has(`${lc(l.transactionHash)}:${l.logIndex}`));
  // Morpho markets and V4 pools by id, cToken rates: from these logs, else asked through the explorer (markets.ts)
  learnFromLogs(chainId, [...logs, ...receiptLogs, ...cLogs]);
  await resolveIds(chainId, [...logs, ...receiptLogs], (to, data) => src.call(to, data));
  const pools = await poolsFor(chainId, [...logs, ...receiptLogs], erc20, src);
  // oracle prices of non-stable amounts, over the chain's JSON-RPC source when one is configured (pricing/)
  const swaps = [
    ...receiptLogs.filter((l) => SWAP_TOPICS.has(l.topics[0]?.toLowerCase()) || SINGLETON_TRADES.has(l.topics[0]?.toLowerCase())),
    ...compound,
  ];
  const prices = await pricesForLogs(opts.prices, [...logs, ...swaps, ...direct.map((d) => d.log)], {
    chainId,
    pools: new Map([...pools, ...direct.flatMap((d) => [...d.pools])]),
  });
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
  records.push(...(await positionsMinted(chainId, wallet, logs, txs, src, receipts)));
  // who sent each transaction: the txlist holds every transaction the wallet sent (and those sent to it) with its
  // sender; a log in any other transaction was not sent by the wallet (sender unknown: null)
  const sentBy = new Map(txs.map((t) => [lc(t.hash), lc(t.from)]));
  for (const r of records) r.txFrom ??= sentBy.get(r.txHash.toLowerCase()) || null;

  const coverage = createCoverageRepo(db);
  const stored = await db.tx(async (q) => {
    const changed = await repo.insertActivity(records, q);
    await repo.advanceCursor(wallet, chainId, head, q);
    await repo.recordAccount(wallet, chainId, { nonce }, q);
    await coverage.recordChainState(wallet, chainId, { source: 'explorer', finalizedBlock: head, complete: true }, q);
    return changed.size ? records.length : 0;
  });
  return { chainId, newRecords: stored, nonceChanged: nonce !== (state?.nonce ?? 0), head, complete: true };
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

/** The wallet's own successful transactions that sent an asset and received a different one. */
function candidateSwaps(
  wallet: string,
  txs: Row[],
  internal: Row[],
  erc20: Row[],
): { hash: string; tx: Row; moves: Row[]; gotNative: boolean }[] {
  const out: { hash: string; tx: Row; moves: Row[]; gotNative: boolean }[] = [];
  for (const t of txs) {
    if (lc(t.from) !== wallet || !ok(t)) continue;
    const hash = lc(t.hash);
    const moves = erc20.filter((r) => lc(r.hash) === hash);
    const sent = new Set(moves.filter((r) => lc(r.from) === wallet).map((r) => lc(r.contractAddress)));
    const got = new Set(moves.filter((r) => lc(r.to) === wallet).map((r) => lc(r.contractAddress)));
    const gotNative = internal.some((r) => lc(r.hash) === hash && lc(r.to) === wallet);
    if (t.value && !/^0+$/.test(t.value)) sent.add('native');
    if (gotNative) got.add('native');
    if ([...got].some((g) => [...sent].some((s) => s !== g))) out.push({ hash, tx: t, moves, gotNative });
  }
  return out;
}

const only = <T>(xs: T[]): T | null => (xs.length && xs.every((x) => x === xs[0]) ? xs[0] : null);
const PROBE = 2n ** 200n;

/**
 * A router swap settled from the wallet's token list, without its receipt: every token the wallet sent in the
 * transaction is one allowlisted token, all paid to one pool that derives from the factory for the pair the wallet
 * sent and received (derivePool), and every token it received is the other one, all from one address other than
 * the pool (the router, which took the pool's output: the Swap's recipient). Returned as the Swap log the receipt
 * would show (amount in: what the wallet paid the pool; amount out: what the router paid on), to be decoded with
 * the transaction's sender like a receipt's swap logs. Null where the list cannot settle it, and the receipt is
 * read as before: a native leg, several tokens, pools or payers (multi-hop or split routes), a pool that does not
 * derive from the pair, or a value that would depend on the pool's own output, which the wallet's list does not
 * show (a router may keep a fee from it). The Swap log's own index is not in the lists: the record has log index
 * -3 (transaction-level, like -1 for the value transfer and -2 for internal transfers).
 */
function directSwap(chainId: number, wallet: string, t: Row, moves: Row[]): { log: RawLog; pools: Map<string, PoolInfo | null> } | null {
  if (t.value && !/^0+$/.test(t.value)) return null;
  const sent = moves.filter((r) => lc(r.from) === wallet);
  const got = moves.filter((r) => lc(r.to) === wallet);
  const tokenIn = only(sent.map((r) => lc(r.contractAddress)));
  const tokenOut = only(got.map((r) => lc(r.contractAddress)));
  const pool = only(sent.map((r) => lc(r.to)));
  const payer = only(got.map((r) => lc(r.from)));
  if (!tokenIn || !tokenOut || tokenIn === tokenOut || !pool || !payer || payer === pool || payer === wallet || pool === wallet)
    return null;
  const info = pairPool(chainId, pool, tokenIn, tokenOut);
  if (!info) return null;
  const pools = new Map<string, PoolInfo | null>([[pool, info]]);
  const amountIn = sent.reduce((s, r) => s + BigInt(r.value || '0'), 0n);
  const amountOut = got.reduce((s, r) => s + BigInt(r.value || '0'), 0n);
  const topic0 = [...SWAP_TOPICS].find(([, p]) => p === info.protocol)![0];
  const inputs = EVENTS_BY_TOPIC.get(topic0)!.abi.inputs.filter((i) => !i.indexed);
  const inIs0 = tokenIn === info.token0;
  const build = (out: bigint): RawLog => {
    // V2: amount0In, amount1In, amount0Out, amount1Out; V3: amount0, amount1 as the pool sees them (in > 0, out < 0)
    const values =
      info.protocol === 'uniswap-v2'
        ? inIs0
          ? [amountIn, 0n, 0n, out]
          : [0n, amountIn, out, 0n]
        : [...(inIs0 ? [amountIn, -out] : [-out, amountIn]), 0n, 0n, 0];
    const data = encodeAbiParameters(inputs, values);
    return {
      address: pool,
      topics: [topic0, pad(payer as `0x${string}`), pad(payer as `0x${string}`)],
      data,
      transactionHash: lc(t.hash),
      logIndex: -3,
      blockNumber: Number(t.blockNumber),
      timestamp: time(t),
    };
  };
  // the value must not depend on the amount out (the pool's, not seen): the same at none and at any amount
  const value = (out: bigint) => decodeLog(build(out), { chainId, pools, txFrom: wallet }).find((r) => r.wallet === wallet)?.valueUsd;
  const v = value(0n);
  if (v === undefined || v !== value(PROBE) || v !== value(amountOut)) return null;
  return { log: build(amountOut), pools };
}

/** The pool's info if it is the factory's V2 pair or V3 pool (any fee tier) for exactly this pair of tokens. */
function pairPool(chainId: number, pool: string, a: string, b: string): PoolInfo | null {
  const pair = [a, b].sort().join();
  for (const protocol of ['uniswap-v2', 'uniswap-v3'] as const) {
    const p = derivePool(chainId, protocol, pool, [a, b]);
    // derivePool answers a known pool from its cache whatever the candidates: the pair must be this one
    if (p && p.protocol === protocol && [p.token0, p.token1].sort().join() === pair) return p;
  }
  return null;
}

/** Which swap emitters are factory pools: derived from the tokens moved in the same transaction, else read. */
async function poolsFor(chainId: number, logs: RawLog[], erc20: Row[], src: ExplorerSource): Promise<Map<string, PoolInfo | null>> {
  const out = new Map<string, PoolInfo | null>();
  const unknown: RawLog[] = [];
  for (const l of logs) {
    const protocol = SWAP_TOPICS.get(l.topics[0]?.toLowerCase());
    const pool = l.address.toLowerCase();
    if (!protocol || out.has(pool)) continue;
    const hash = lc(l.transactionHash);
    const candidates = [
      ...erc20.filter((r) => lc(r.hash) === hash).map((r) => r.contractAddress),
      ...logs.filter((x) => lc(x.transactionHash) === hash && x.topics[0] === TRANSFER).map((x) => x.address),
    ];
    const info = derivePool(chainId, protocol, pool, candidates);
    if (info) out.set(pool, info);
    else unknown.push(l);
  }
  if (unknown.length) for (const [k, v] of await poolsForLogs(chainId, unknown, (to, data) => src.call(to, data))) out.set(k, v);
  return out;
}
