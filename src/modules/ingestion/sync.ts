// Incremental sync of one wallet on one chain: account state, the logs where the wallet is an indexed topic
// (block ranges chunked, halved on "range too large", grown back after successes), and contracts it deployed.
// Each chunk's records and the cursor move in one transaction, so an RPC error never loses or skips blocks.
import type { Db } from '../../platform/db/types.js';
import { decodeLog, deploymentRecord, type ActivityRecord } from './decode.js';
import { selectorsByWalletTopic } from './events.js';
import type { IngestionRepo } from './repo.js';
import { RangeTooLargeError, type ChainSource } from './rpc-source.js';

export interface SyncOptions {
  /** Largest block span asked of eth_getLogs at once (providers that refuse it make the range shrink). */
  maxBlockRange: number;
  /** CREATE addresses checked per run (a wallet with a huge nonce is covered over several runs). */
  maxNoncesPerRun: number;
  /** Blocks behind the head to stay: everything (logs, nonce, code) is read as of head - confirmations. */
  confirmations: number;
  signal?: AbortSignal;
}

export interface SyncResult {
  chainId: number;
  newRecords: number;
  nonceChanged: boolean;
  head: number;
}

const POSITIONS = [...selectorsByWalletTopic()];

export async function syncWalletOnChain(db: Db, repo: IngestionRepo, source: ChainSource, wallet: string, opts: SyncOptions): Promise<SyncResult> {
  const chainId = source.chainId;
  const state = (await repo.syncStates(wallet)).find((s) => s.chainId === chainId);
  // Read as of a block deep enough not to be reorganized, so stored activity never has to be taken back.
  const head = Math.max(0, (await source.head()) - opts.confirmations);
  const account = await source.account(wallet, head);
  let newRecords = 0;

  let from = (state?.lastBlock ?? -1) + 1;
  let span = opts.maxBlockRange;
  while (from <= head && !opts.signal?.aborted) {
    const to = Math.min(head, from + span - 1);
    let logs: Awaited<ReturnType<ChainSource['logs']>>;
    try {
      logs = (await Promise.all(POSITIONS.map(([pos, sels]) => source.logs(sels, pos, wallet, from, to)))).flat();
    } catch (e) {
      if (e instanceof RangeTooLargeError && to > from) {
        span = Math.max(1, Math.floor((to - from + 1) / 2));
        continue;
      }
      throw e;
    }
    const times = await source.blockTimes(logs.map((l) => l.blockNumber));
    const seen = new Set<string>();
    const records: ActivityRecord[] = [];
    for (const l of logs) {
      const key = `${l.transactionHash}:${l.logIndex}`;
      if (seen.has(key)) continue; // a log can match at two positions (a transfer to oneself)
      seen.add(key);
      for (const r of decodeLog({ ...l, timestamp: times.get(l.blockNumber)! }, { chainId })) if (r.wallet === wallet) records.push(r);
    }
    const end = to;
    newRecords += await db.tx(async (q) => {
      const changed = await repo.insertActivity(records, q);
      await repo.advanceCursor(wallet, chainId, end, q);
      return changed.size ? records.length : 0;
    });
    from = to + 1;
    span = Math.min(opts.maxBlockRange, span * 2);
  }

  // Contracts it deployed: the CREATE address of each nonce not checked yet, confirmed by eth_getCode.
  const checked = state?.deployNonceChecked ?? 0;
  const upto = Math.min(account.nonce, checked + opts.maxNoncesPerRun);
  const deployments: ActivityRecord[] = [];
  let lo = 0;
  for (let nonce = checked; nonce < upto && !opts.signal?.aborted; nonce++) {
    const address = source.createAddress(wallet, nonce);
    if (!(await source.hasCode(address, head))) continue;
    const block = await creationBlock(source, address, lo, head);
    lo = block;
    const t = (await source.blockTimes([block])).get(block)!;
    deployments.push(deploymentRecord(chainId, wallet, address, block, t, true));
  }
  const nonceChanged = account.nonce !== (state?.nonce ?? 0);
  const deployed = await db.tx(async (q) => {
    const changed = await repo.insertActivity(deployments, q);
    await repo.recordAccount(wallet, chainId, { nonce: account.nonce, balance: account.balance, deployNonceChecked: opts.signal?.aborted ? checked : upto }, q);
    return changed.size ? deployments.length : 0;
  });
  return { chainId, newRecords: newRecords + deployed, nonceChanged, head };
}

/** First block at which the address has code (binary search; needs historical state). Falls back to the head
 * block on nodes that keep no history, so the deployment is still counted. */
async function creationBlock(source: ChainSource, address: string, lo: number, head: number): Promise<number> {
  try {
    let a = lo;
    let b = head;
    if (await source.hasCode(address, a)) return a;
    while (b - a > 1) {
      const mid = Math.floor((a + b) / 2);
      if (await source.hasCode(address, mid)) b = mid;
      else a = mid;
    }
    return b;
  } catch {
    return head;
  }
}
