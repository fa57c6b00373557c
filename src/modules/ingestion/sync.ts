// Incremental sync of one wallet on one chain over JSON-RPC, up to the chain's final block. Logs are asked per
// window of blocks (log-plan.ts), many windows per round trip (one JSON-RPC batch); a window is as large as the
// endpoint accepts (rpc-limits.ts). Each round's complete windows are stored with the cursor in one transaction,
// so an error never loses or skips blocks. Contracts the wallet deployed are looked for afterwards, in bounded
// batches with their own cursor, so a busy sender's nonces never hold back its other evidence.
import { txFeeRecord } from './tx-fees.js';
import type { Db } from '../../platform/db/types.js';
import { decodeLog, type ActivityRecord } from './decode.js';
import { scanDeployments } from './deployments.js';
import { poolsForLogs } from './registry/pools.js';
import { cTokenInfo } from './registry/index.js';
import { learnFromLogs, resolveIds } from './registry/markets.js';
import { priceReaderFor, pricesForLogs, type PriceReader } from './pricing/index.js';
import { revalueStored } from './pricing/revalue.js';
import { positionMintRecipient, positionRecords } from './positions.js';
import {
  buildPlan,
  DELEGATE_CHANGED,
  DELEGATE_VOTES_CHANGED,
  borrowerMarked,
  topicAddress,
  TRANSFER_SELECTORS,
  walletTopic,
  type LogPlan,
  type Pinned,
} from './log-plan.js';
import type { IngestionRepo } from './repo.js';
import { createCoverageRepo } from './coverage-repo.js';
import { classify } from './rpc-errors.js';
import type { ChainLog, ChainSource, LogQuery } from './rpc-source.js';
import type { Outcome } from './rpc-transport.js';

export interface SyncOptions {
  /** blocks behind the head read when the chain's `finalized` tag is not used or not known */
  confirmations: number;
  /** read up to the `finalized` block where the node knows the tag */
  useFinalized: boolean;
  /** CREATE addresses checked per run */
  maxNoncesPerRun: number;
  /** nonces past this are not scanned for CREATE deployments; the chain still counts as complete (see
   * docs/ingestion.md, "Deployments") */
  maxNonceScan: number;
  /** windows asked per round trip */
  windowsPerRound: number;
  /** the registry's contracts for this chain; null: no registry (every known event, any emitter) */
  pinned: Pinned[] | null;
  /** oracle prices of non-stable assets (pricing/); the JSON-RPC sync reads them over its own source, the explorer
   *  over the chain's JSON-RPC source when there is one */
  prices?: PriceReader;
  signal?: AbortSignal;
}

export const DEFAULT_SYNC: Omit<SyncOptions, 'pinned'> = {
  confirmations: 12,
  useFinalized: false,
  maxNoncesPerRun: 10_000,
  maxNonceScan: 10_000,
  windowsPerRound: 64,
};

export interface SyncResult {
  chainId: number;
  newRecords: number;
  nonceChanged: boolean;
  /** the block read up to (final) */
  head: number;
  /** logs and deployments fully read up to `head` (deployments: up to the nonce bound, see `nonceScanCapped`) */
  complete: boolean;
  /** the wallet's nonce is past `maxNonceScan`: CREATE addresses of the nonces beyond it are never looked for, and
   * the chain still counts as complete (docs/ingestion.md, "Deployments") */
  nonceScanCapped?: boolean;
}

type Window = { from: number; to: number; queries: LogQuery[] };

export async function safeBlock(
  source: Pick<ChainSource, 'tip'>,
  opts: Pick<SyncOptions, 'confirmations' | 'useFinalized'>,
): Promise<number> {
  const tip = await source.tip();
  if (opts.useFinalized && tip.finalized !== null) return Math.min(tip.head, tip.finalized);
  return Math.max(0, tip.head - opts.confirmations);
}

/** One wallet's sync on one chain: what every step reads. `opened`: the block of the wallet's first borrow once
 *  known, which opens the liquidation query (log-plan.ts). */
interface ChainRun {
  db: Db;
  repo: IngestionRepo;
  source: ChainSource;
  wallet: string;
  chainId: number;
  opts: SyncOptions;
  plan: LogPlan;
  head: number;
  opened: { lending_borrow?: number };
}

/** A window that was refused, and its size */
type Failure = { error: unknown; window: Window; span: number };

export async function syncWalletOnChain(
  db: Db,
  repo: IngestionRepo,
  source: ChainSource,
  wallet: string,
  options: Partial<SyncOptions> & Pick<SyncOptions, 'pinned'>,
): Promise<SyncResult> {
  const opts = { ...DEFAULT_SYNC, ...options };
  const chainId = source.chainId;
  const state = (await repo.syncStates(wallet)).find((s) => s.chainId === chainId);
  const head = await safeBlock(source, opts);
  const account = await source.account(wallet, head);
  const plan = buildPlan(opts.pinned);

  const opened: { lending_borrow?: number } = {};
  const coverage = createCoverageRepo(db);
  const firstBorrow = await coverage.firstBlockOf(wallet, chainId, 'lending_borrow');
  if (firstBorrow !== null) opened.lending_borrow = firstBorrow;
  const run: ChainRun = { db, repo, source, wallet, chainId, opts, plan, head, opened };
  const logs = await syncLogs(run, Math.max((state?.lastBlock ?? -1) + 1, plan.start));
  let newRecords = logs.records;

  // lending rows stored unvalued earlier (no price source then, or a node without that block's state) are valued
  // now if this endpoint can price them; a failed read leaves them for the next sync
  if (!opts.signal?.aborted) newRecords += await revalueStored(db, priceReaderFor(source), wallet).catch(() => 0);
  const dep = await scanDeployments(db, repo, source, wallet, head, account, state?.deployNonceChecked ?? 0, opts);
  const nonceChanged = account.nonce !== (state?.nonce ?? 0);
  const complete = !opts.signal?.aborted && logs.from > head && dep.complete;
  await coverage.recordChainState(wallet, chainId, { source: 'rpc', finalizedBlock: head, complete });
  return { chainId, newRecords: newRecords + dep.records, nonceChanged, head, complete, nonceScanCapped: dep.capped };
}

/** The wallet's logs from `from` up to the head, round by round; the records stored, and the block it stopped at. */
async function syncLogs(run: ChainRun, from: number): Promise<{ records: number; from: number }> {
  const { source, opts, head } = run;
  let records = 0;
  // a refusal for the size of the result set (or a timeout) teaches this run a span not to exceed
  const spans = { softMax: Number.MAX_SAFE_INTEGER, span: 0 };
  spans.span = Math.min(source.limits.span(), spans.softMax);
  while (from <= head && !opts.signal?.aborted) {
    const windows = roundWindows(run, from, spans.span);
    const { done, failure } = answered(source, windows, await source.getLogs(windows.flatMap((w) => w.queries)));
    // a first borrow found in a window opens the liquidation query from there on: windows after it in this round
    // were asked without it, so they are asked again
    const gate = await commitRound(run, done);
    records += gate.records;
    from = gate.nextFrom ?? from;
    if (gate.reopened) continue;
    if (failure) {
      narrowSpan(source, failure, spans);
      continue;
    }
    // never grow past a size refused in this run, nor past what the endpoint accepts
    spans.span = Math.min(spans.span * 2, spans.softMax, source.limits.span());
  }
  return { records, from };
}

/** This round's windows of `span` blocks from `from`. */
function roundWindows({ source, opts, plan, wallet, head, opened }: ChainRun, from: number, span: number): Window[] {
  const windows: Window[] = [];
  // a span the endpoint has not answered yet is tried with one window first: a refusal then costs one round of
  // queries, not a whole batch of refused windows
  const known = source.limits.snapshot();
  const probing = !(known.statedCap !== null && span <= known.statedCap) && span > (known.okMax ?? 0);
  const perRound = probing ? 1 : opts.windowsPerRound;
  for (let a = from; a <= head && windows.length < perRound;) {
    const b = Math.min(head, a + span - 1);
    windows.push({ from: a, to: b, queries: plan.queries(wallet, a, b, opened) });
    a = b + 1;
  }
  return windows;
}

/** The windows answered in full up to the first refused one (the endpoint learns each size it accepted). */
function answered(source: ChainSource, windows: Window[], answers: Outcome<ChainLog[]>[]) {
  let k = 0;
  const done: { window: Window; logs: ChainLog[] }[] = [];
  let failure: Failure | null = null;
  for (const w of windows) {
    const mine = answers.slice(k, k + w.queries.length);
    k += w.queries.length;
    const bad = mine.find((o) => !o.ok);
    if (bad && !bad.ok) {
      failure = { error: bad.error, window: w, span: w.to - w.from + 1 };
      break;
    }
    done.push({ window: w, logs: mine.flatMap((o) => (o.ok ? o.value : [])) });
    source.limits.accepted(w.to - w.from + 1);
  }
  return { done, failure };
}

/** A smaller span after a refused window, or its error when the refusal is not for the range. */
function narrowSpan(source: ChainSource, failure: Failure, spans: { softMax: number; span: number }): void {
  const c = classify(failure.error);
  if (c.kind !== 'range' || failure.span <= 1) throw failure.error;
  if (c.cause === 'span') {
    source.limits.refused(failure.span, c.blockCap);
    spans.span = Math.min(source.limits.span(), spans.softMax, failure.span - 1);
  } else {
    // too many results here, or the node timed out: a smaller span for the rest of this run, nothing learned
    // for the endpoint (the next run, or a quieter stretch of the chain, may take the full span again)
    spans.softMax = Math.min(spans.softMax, failure.span - 1);
    const suggested = c.suggested && c.suggested.from === failure.window.from ? c.suggested.to - c.suggested.from + 1 : 0;
    spans.span = Math.max(1, suggested > 0 && suggested < failure.span ? suggested : Math.floor(failure.span / 2));
  }
}

const TRANSFER_TOPIC = TRANSFER_SELECTORS[0].toLowerCase();
/** Transactions in which a Transfer naming the wallet was a cToken's own or moved an asset to or from a cToken, or
 *  that a borrower mark names the wallet in (cETH's borrows and repays move ether, as mWETH's payouts and WETH-router
 *  repays do: no Transfer names the wallet). */
function compoundTransactions(chainId: number, wallet: string, logs: readonly ChainLog[]): string[] {
  const out = new Set<string>();
  for (const l of logs) {
    if (borrowerMarked(chainId, wallet, l)) {
      out.add(l.transactionHash.toLowerCase());
      continue;
    }
    if (l.topics.length !== 3 || l.topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
    const from = topicAddress(l.topics[1]);
    const to = topicAddress(l.topics[2]);
    if (from !== wallet && to !== wallet) continue;
    if (cTokenInfo(chainId, l.address) || cTokenInfo(chainId, from === wallet ? to : from)) out.add(l.transactionHash.toLowerCase());
  }
  return [...out];
}

type Done = { window: { from: number; to: number }; logs: ChainLog[] };

/** A round's answered windows decoded and stored with the cursor in one transaction. */
async function commitRound(run: ChainRun, done: Done[]) {
  if (!done.length) return { records: 0, nextFrom: null as number | null, reopened: false };
  const { chainId, source, wallet } = run;
  const kept = done.map((d) => ({ ...d, logs: d.logs.filter((l) => run.plan.keep(l)) }));
  await addDelegations(run, kept);
  const all = kept.flatMap((d) => d.logs);
  await addCompoundLogs(run, all);
  // Morpho markets and V4 pools by id, cToken exchange rates: from these logs, else asked of the chain (markets.ts)
  learnFromLogs(chainId, all);
  await resolveIds(chainId, all, (to, data) => source.call(to, data));
  const times = await source.blockTimes(all.map((l) => l.blockNumber));
  // evidence registry: a swap counts only from a pool that derives from the Uniswap factory (token0/token1/fee read over RPC)
  const pools = await poolsForLogs(chainId, all, (to, data) => source.call(to, data));
  // oracle prices of the non-stable amounts at their blocks (pricing/), over this same endpoint
  const prices = await pricesForLogs(priceReaderFor(source), all, { chainId, pools });
  const seen = new Set<string>();
  const records: ActivityRecord[] = [];
  for (const l of all) {
    const key = `${l.transactionHash}:${l.logIndex}`;
    if (seen.has(key)) continue; // a log can match at two positions (a transfer to oneself)
    seen.add(key);
    for (const r of decodeLog({ ...l, timestamp: times.get(l.blockNumber)! }, { chainId, pools, prices }))
      if (r.wallet === wallet) records.push(r);
  }
  // Uniswap V3 positions minted to the wallet: which pool, and who paid, is in the minting transaction's receipt
  const minted = [...new Set(all.filter((l) => positionMintRecipient(chainId, l) === wallet).map((l) => l.transactionHash.toLowerCase()))];
  if (minted.length) {
    for (const [hash, tx] of await source.receipts(minted)) {
      const logs = tx.logs.map((l) => ({ ...l, timestamp: times.get(l.blockNumber) ?? null }));
      for (const r of positionRecords(chainId, { hash, from: tx.from, logs })) if (r.wallet === wallet) records.push(r);
    }
  }
  await addSenders(run, records, times);
  return storeRound(run, records, done[done.length - 1].window.to);
}

/** Delegations to the wallet: DelegateVotesChanged(delegate = wallet) marks the blocks to ask DelegateChanged for;
 *  each found goes with its window's logs. */
async function addDelegations({ source, wallet }: ChainRun, kept: Done[]): Promise<void> {
  const votes = kept.flatMap((d) => d.logs.filter((l) => l.topics[0]?.toLowerCase() === DELEGATE_VOTES_CHANGED));
  if (!votes.length) return;
  const seen = new Set<string>();
  const point = votes
    .filter((l) => !seen.has(`${l.address}:${l.blockNumber}`) && seen.add(`${l.address}:${l.blockNumber}`))
    .map((l): LogQuery => ({
      address: [l.address],
      topics: [DELEGATE_CHANGED, null, null, walletTopic(wallet)],
      fromBlock: l.blockNumber,
      toBlock: l.blockNumber,
    }));
  const answers = await source.getLogs(point);
  for (const a of answers) if (!a.ok) throw a.error;
  const extra = answers.flatMap((a) => (a.ok ? a.value : []));
  for (const l of extra) kept.find((d) => d.window.from <= l.blockNumber && l.blockNumber <= d.window.to)?.logs.push(l);
}

/** Compound V2's events name the wallet only in their data: the transactions in which the wallet's Transfer
 *  involved a cToken (a mint, redeem or move of cTokens; a borrow or repay of the underlying) are read whole, and
 *  their cTokens' own logs decoded with the rest (added to `all`). */
async function addCompoundLogs({ chainId, wallet, source }: ChainRun, all: ChainLog[]): Promise<void> {
  const cTxs = compoundTransactions(chainId, wallet, all);
  if (!cTxs.length) return;
  const have = new Set(all.map((l) => `${l.transactionHash.toLowerCase()}:${l.logIndex}`));
  for (const logs of (await source.receiptLogs(cTxs)).values())
    for (const l of logs) if (cTokenInfo(chainId, l.address) && !have.has(`${l.transactionHash.toLowerCase()}:${l.logIndex}`)) all.push(l);
}

/** Who sent each transaction: only what the wallet sent earns credit (scoring/features/sql.ts); from the receipts
 *  where the source has them (the same number of calls), with what each transaction the wallet sent paid: its gas
 *  backs its evidence (fee records added to `records`). */
async function addSenders({ source, chainId, wallet }: ChainRun, records: ActivityRecord[], times: Map<number, Date>): Promise<void> {
  const hashes = [...new Set(records.map((r) => r.txHash.toLowerCase()))];
  if (!source.senderFees) {
    const senders = await source.senders(hashes);
    for (const r of records) r.txFrom ??= senders.get(r.txHash.toLowerCase()) ?? null;
    return;
  }
  const costs = await source.senderFees(hashes);
  for (const r of records) r.txFrom ??= costs.get(r.txHash.toLowerCase())?.from ?? null;
  for (const [hash, c] of costs) {
    if (c.from !== wallet || c.gasUsed === null || c.gasPrice === null) continue;
    const fee = txFeeRecord({
      chainId,
      hash,
      from: wallet,
      blockNumber: c.blockNumber,
      occurredAt: times.get(c.blockNumber) ?? null,
      gasUsed: c.gasUsed,
      gasPrice: c.gasPrice,
      baseFee: source.baseFeeOf?.(c.blockNumber) ?? null,
      l1Fee: c.l1Fee,
    });
    if (fee) records.push(fee);
  }
}

/** The round's records and the cursor up to `end` in one transaction. A first borrow opens the liquidation query:
 *  only what is before it is kept (known complete), and the rest is asked again with the gate open (`reopened`). */
async function storeRound({ db, repo, wallet, chainId, opened }: ChainRun, records: ActivityRecord[], end: number) {
  let reopened = false;
  if (opened.lending_borrow === undefined) {
    const borrow = records.filter((r) => r.kind === 'lending_borrow').sort((a, b) => a.blockNumber - b.blockNumber)[0];
    if (borrow) {
      opened.lending_borrow = borrow.blockNumber;
      end = borrow.blockNumber - 1;
      records = records.filter((r) => r.blockNumber <= end);
      reopened = true;
    }
  }
  const stored = await db.tx(async (q) => {
    const changed = await repo.insertActivity(records, q);
    if (end >= 0) await repo.advanceCursor(wallet, chainId, end, q);
    return changed.size ? records.length : 0;
  });
  return { records: stored, nextFrom: end + 1, reopened };
}
