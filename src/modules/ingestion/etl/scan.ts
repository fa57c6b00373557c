// The passes over an export's logs that come before its batches: what decoding a log needs to know of the whole
// export (scanLogs).
import type { ActivityRecord, RawLog } from '../decode.js';
import { EVENTS } from '../events.js';
import type { PoolInfo } from '../registry/gate.js';
import { derivePool, SWAP_TOPICS } from '../registry/pools.js';
import { LEARNED_FROM, learnFromLogs } from '../registry/markets.js';
import { positionMintRecipient, positionRecords } from '../positions.js';
import { isPositionManager } from '../registry/index.js';
import { num, readRows, str, stringField, topicsOf, type Row } from './reader.js';
import type { Lookup } from './export-index.js';

export const KINDS = ['blocks', 'transactions', 'logs', 'token_transfers'] as const;
export type FileKind = (typeof KINDS)[number];
export const TRANSFER_TOPIC = EVENTS.find((e) => e.name === 'Transfer')!.topic0;
// the keys the passes read from a line's text (reader.ts stringField)
const TOPICS = '"topics"';
const ADDRESS = '"address"';
const TX_HASH = '"transaction_hash"';

/** A logs row as the log it is (null without its transaction or emitter) */
export function rawLog(r: Row, timeOf: (r: Row) => Date | null) {
  const txHash = str(r.transaction_hash);
  const address = str(r.address);
  if (!txHash || !address) return null;
  return {
    address,
    topics: topicsOf(r.topics),
    data: str(r.data) ?? '0x',
    transactionHash: txHash,
    logIndex: Number(r.log_index),
    blockNumber: Number(r.block_number),
    timestamp: timeOf(r),
  };
}

/** What the passes over the logs find (ScanResult is posted between threads as it is: maps and plain objects). */
export interface ScanResult {
  pools: Map<string, PoolInfo | null>;
  /** the logs of each transaction in which the position manager minted (block times from the rows that have one) */
  minted: [string, RawLog[]][];
  learned: RawLog[];
}

/**
 * What must be known of the whole export before its logs are decoded, in two passes over the logs (and
 * token_transfers) whatever their number; the passes read only ids, addresses and topics (no exact big integers):
 * - Morpho markets and V4 pool keys by id, cToken exchange rates: learned from the export's own CreateMarket,
 *   Initialize, Mint and Redeem logs (registry/markets.ts).
 * - The swap emitters that are real Uniswap pools. A pool's pair is not in its Swap event: it is inferred from the
 *   same transaction's token transfers into or out of the pool, and the pool counts only if the factory's CREATE2
 *   address for that pair (and a V3 fee tier) is the pool's own address.
 * - The transactions in which the pinned position manager minted a position, with all of their logs: their
 *   `lp_position` records (positions.ts) are made by mintedPositions once the transactions' senders are known.
 * The second pass keeps in memory only the transactions that swapped or minted. The logs the registry learned from
 * are returned too (`learned`): the other thread of the import learns them as well (batches.ts, thread.ts).
 */
export async function scanLogs(files: { file: string; kind: FileKind }[], chainId: number, signal?: AbortSignal): Promise<ScanResult> {
  const logFiles = files.filter((f) => f.kind === 'logs');
  const protocolOf = new Map<string, 'uniswap-v2' | 'uniswap-v3'>();
  const poolsInTx = new Map<string, Set<string>>();
  const minting = new Set<string>();
  const learned: RawLog[] = [];
  // the first pass parses only the logs it can learn from: a swap, a market's or rate's log, a position mint
  const firstPass = (line: string) => {
    const t0 = stringField(line, TOPICS, true)?.toLowerCase();
    if (t0 === undefined) return true; // not plainly written: parsed, to be sure
    if (t0 === null) return false;
    if (t0 === TRANSFER_TOPIC) {
      const address = stringField(line, ADDRESS);
      return address === undefined || (address !== null && isPositionManager(chainId, address));
    }
    return LEARNED_FROM.has(t0) || SWAP_TOPICS.has(t0);
  };
  for (const f of logFiles) {
    for await (const { rows } of readRows(f.file, 0, 5000, { exactIntegers: false, keep: firstPass })) {
      signal?.throwIfAborted(); // the import ended without it
      const logs = rows.flatMap((r) => rawLog(r, () => null) ?? []);
      learnFromLogs(chainId, logs);
      for (const l of logs) if (LEARNED_FROM.has(l.topics[0]?.toLowerCase() ?? '')) learned.push(l);
      for (const r of rows) {
        const topics = topicsOf(r.topics);
        const tx = str(r.transaction_hash)?.toLowerCase();
        const address = str(r.address);
        if (!tx || !address) continue;
        if (positionMintRecipient(chainId, { address, topics })) minting.add(tx);
        const t0 = topics[0]?.toLowerCase();
        const protocol = t0 ? SWAP_TOPICS.get(t0) : undefined;
        if (!protocol) continue;
        const pool = address.toLowerCase();
        protocolOf.set(pool, protocol);
        const set = poolsInTx.get(tx) ?? new Set<string>();
        set.add(pool);
        poolsInTx.set(tx, set);
      }
    }
  }
  const candidates = new Map<string, Set<string>>();
  const note = (tx: string | undefined, token: string | null, from: string | null, to: string | null) => {
    const inTx = tx ? poolsInTx.get(tx) : undefined;
    if (!inTx || !token) return;
    for (const pool of inTx) {
      if (pool !== from && pool !== to) continue;
      const set = candidates.get(pool) ?? new Set<string>();
      set.add(token);
      candidates.set(pool, set);
    }
  };
  const byTx = new Map<string, RawLog[]>();
  // the second parses only the rows of the transactions that minted, and the transfers of those that swapped
  const secondPass = (line: string) => {
    const tx = stringField(line, TX_HASH)?.toLowerCase();
    if (tx === undefined) return true;
    if (tx === null) return false;
    if (minting.has(tx)) return true;
    if (!poolsInTx.has(tx)) return false;
    const t0 = stringField(line, TOPICS, true); // a token_transfers row has none: undefined, parsed
    return t0 === undefined || t0?.toLowerCase() === TRANSFER_TOPIC;
  };
  if (poolsInTx.size || minting.size) {
    for (const f of files.filter((x) => x.kind === 'logs' || (poolsInTx.size && x.kind === 'token_transfers'))) {
      for await (const { rows } of readRows(f.file, 0, 5000, { exactIntegers: false, keep: secondPass })) {
        signal?.throwIfAborted();
        for (const r of rows) {
          const tx = str(r.transaction_hash)?.toLowerCase();
          if (f.kind === 'token_transfers') {
            note(
              tx,
              str(r.token_address)?.toLowerCase() ?? null,
              str(r.from_address)?.toLowerCase() ?? null,
              str(r.to_address)?.toLowerCase() ?? null,
            );
            continue;
          }
          const topics = topicsOf(r.topics);
          const address = str(r.address);
          if (tx && address && minting.has(tx)) {
            const list = byTx.get(tx) ?? [];
            list.push({
              address,
              topics,
              data: str(r.data) ?? '0x',
              transactionHash: tx,
              logIndex: Number(r.log_index),
              blockNumber: Number(r.block_number),
              timestamp: rowTime(r),
            });
            byTx.set(tx, list);
          }
          if (topics.length !== 3 || topics[0]?.toLowerCase() !== TRANSFER_TOPIC) continue;
          note(tx, address?.toLowerCase() ?? null, `0x${topics[1].slice(26)}`.toLowerCase(), `0x${topics[2].slice(26)}`.toLowerCase());
        }
      }
    }
  }
  const pools = new Map<string, PoolInfo | null>();
  for (const [pool, protocol] of protocolOf) pools.set(pool, derivePool(chainId, protocol, pool, candidates.get(pool) ?? []));
  return { pools, minted: [...byTx], learned };
}

/** A row's own block time (null when it has none: the export's index may know its block's) */
export const rowTime = (r: Row): Date | null => {
  const ts = num(r.block_timestamp);
  return ts !== null ? new Date(ts * 1000) : null;
};

/** The `lp_position` records of the minting transactions, their senders and block times known (the export's index). */
export function mintedPositions(
  chainId: number,
  minted: ScanResult['minted'],
  senders: Lookup<string, string>,
  times: Lookup<number, Date>,
): ActivityRecord[] {
  return minted.flatMap(([hash, logs]) =>
    positionRecords(chainId, {
      hash,
      from: senders.get(hash) ?? null,
      logs: logs.map((l) => (l.timestamp ? l : { ...l, timestamp: times.get(l.blockNumber) ?? null })),
    }),
  );
}
