// What a JSON-RPC provider's refusal means. Providers say "this range is too big" in many ways (codes -32602,
// -32614, -32005, -32000, -32600, -32062 ...) and rate-limit with HTTP 429 or codes -32005/-32007/-32016/429;
// some tell the block cap ("query exceeds limit of 10000 blocks") or a range that will work
// ("this block range should work: [0x.., 0x..]", Infura's error.data {from, to}). Each message below is one a
// real provider sends (docs/ingestion.md lists them with their providers).
// A range refusal says why (`cause`): `span` (the block span itself is over the endpoint's limit: learned for the
// endpoint, see rpc-limits.ts), `results` (too many logs in this span: depends on how busy the blocks are) or
// `timeout` (the node gave up on the query: depends on its load as much as on the span). Only `span` teaches a
// cap; the other two shrink the span for the current sync only.

export class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly data: unknown = undefined,
    readonly httpStatus: number | null = null,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

export type RangeCause = 'span' | 'results' | 'timeout';

export type Refusal =
  /** the range (or its result set) is too large, or took too long; `cause`: why (see above); `blockCap`: the
   * provider's stated maximum span in blocks (only for `span`); `suggested`: a range the provider says will work,
   * starting at the asked `from` */
  | { kind: 'range'; cause: RangeCause; blockCap: number | null; suggested: { from: number; to: number } | null; message: string }
  | { kind: 'rate'; retryAfterMs: number | null; message: string }
  | { kind: 'transient'; message: string }
  /** the call itself failed (a revert): asking again gives the same answer */
  | { kind: 'reverted'; message: string }
  /** the node keeps no state (or no header) for the asked block: a pruned, non-archive node */
  | { kind: 'no-state'; message: string }
  | { kind: 'fatal'; message: string };

/** A reverted call: geth code 3 / -32000 "execution reverted", Hardhat -32603 "VM Exception while processing
 * transaction: reverted with reason string ...", Nethermind/Erigon "execution reverted: ...". */
const REVERTED = /execution reverted|\breverted\b|\brevert\b|vm exception/i;

/** No state for the asked block on this node (state reads of old blocks on a full, non-archive node): geth
 * "missing trie node <hash> (path )" (hash scheme), "historical state not available in path scheme yet" /
 * "... state 0x.. is not available, not found" (path scheme, also Bor and op-geth), Infura and load-balanced
 * nodes "header not found", Nethermind "No state available for block", Erigon/Reth "state ... pruned",
 * Infura "project ID does not have access to archive state". */
const NO_STATE =
  /missing trie node|historical state|header not found|no state available|state (is )?(not available|unavailable)|(state|history|block).{0,40}\bpruned\b|pruned (state|history|block)|access to archive state|archive (node|state) (is )?required/i;

/** Messages that mean "the span or the result set is too big" (any code). */
const RANGE =
  /block range|blocks range|range (is )?too (large|big|wide)|too (large|wide) (block )?range|exceeds? (the )?(max(imum)?|limit|range)|limited to|more than [\d,]+ (results|logs)|returned more than|response size|max(imum)? (block )?range|log response size|too many (results|logs|blocks)|range over|ranges over|range limit|range should work|block range of/i;

/** The node (or a gateway, or our own request timer) gave up on the query: geth/Erigon -32000 "query timeout
 * exceeded", "request timed out", "context deadline exceeded", HTTP 504 "Gateway Timeout", fetch's "The operation
 * was aborted due to timeout". A heavy eth_getLogs is worth asking again over a smaller span; it says nothing
 * lasting about the endpoint's limit. */
const TIMEOUT = /time[ds]?[ -]?out|took too long|deadline exceeded|execution aborted \(timeout/i;

/** Rate limiting (Infura -32005 "request rate exceeded", QuickNode -32007 "x/second request limit reached",
 * Alchemy 429 "exceeded its compute units per second capacity", Ankr "Too many requests"). */
const RATE =
  /rate limit|rate exceeded|request limit reached|too many requests|compute units per second|capacity|throughput|exceeded .*limit.*per second|daily request count/i;

const NUMBER = String.raw`(\d+(?:[,_]\d{3})*(?:\.\d+)?)\s*(k|K)?`;
/** "limit of 10000 blocks", "limited to a 10,000 range", "up to a 2K block range", "maximum block range: 50000",
 * "Max range is 5000", "block range of 1000", "ranges over 10000 blocks are not supported". */
const CAP_PATTERNS = [
  new RegExp(String.raw`limit of ${NUMBER} blocks`, 'i'),
  new RegExp(String.raw`limited to (?:a |an )?${NUMBER}(?:[- ]block)? range`, 'i'),
  new RegExp(String.raw`up to (?:a |an )?${NUMBER}[- ]block range`, 'i'),
  new RegExp(String.raw`max(?:imum)? (?:block )?range(?: is|:| of)? ${NUMBER}`, 'i'),
  new RegExp(String.raw`block range (?:of|is|limit(?: is)?:?) ${NUMBER}`, 'i'),
  new RegExp(String.raw`ranges? over ${NUMBER} blocks`, 'i'),
  new RegExp(String.raw`range greater than ${NUMBER}`, 'i'),
  new RegExp(String.raw`${NUMBER} blocks? (?:max|maximum|limit)`, 'i'),
];

function num(s: string, k?: string): number {
  return Math.round(Number(s.replace(/[,_]/g, '')) * (k ? 1000 : 1));
}

export function statedBlockCap(message: string): number | null {
  for (const re of CAP_PATTERNS) {
    const m = re.exec(message);
    if (m) {
      const n = num(m[1], m[2]);
      if (n >= 1) return n;
    }
  }
  return null;
}

const hexOrDec = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^(0x[0-9a-f]+|\d+)$/i.test(v)) return Number(v);
  return null;
};

/** A range the provider proposes, from error.data ({from, to}) or the message ("[0x1, 0x2]"). */
export function suggestedRange(message: string, data: unknown): { from: number; to: number } | null {
  const d = data as { from?: unknown; to?: unknown } | null | undefined;
  if (d && typeof d === 'object') {
    const from = hexOrDec(d.from);
    const to = hexOrDec(d.to);
    if (from !== null && to !== null && to >= from) return { from, to };
  }
  const m = /\[\s*(0x[0-9a-f]+|\d+)\s*,\s*(0x[0-9a-f]+|\d+)\s*\]/i.exec(message);
  if (m) {
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (to >= from) return { from, to };
  }
  return null;
}

export function classify(e: unknown): Refusal {
  if (e instanceof RpcError) {
    const message = e.message;
    if (
      e.httpStatus === 429 ||
      e.code === 429 ||
      e.code === -32007 ||
      e.code === -32016 ||
      e.code === -32090 ||
      (RATE.test(message) && !RANGE.test(message) && !TIMEOUT.test(message))
    ) {
      return { kind: 'rate', retryAfterMs: e.retryAfterMs, message };
    }
    if (REVERTED.test(message) || e.code === 3) return { kind: 'reverted', message };
    if (NO_STATE.test(message)) return { kind: 'no-state', message };
    if (RANGE.test(message) || TIMEOUT.test(message)) return rangeRefusal(message, e.data);
    // a gateway that gave up waiting for the node (504), whatever its page says
    if (e.httpStatus === 504) return { kind: 'range', cause: 'timeout', blockCap: null, suggested: null, message };
    if (e.httpStatus !== null && e.httpStatus >= 500) return { kind: 'transient', message };
    if (e.code === -32603 || e.code === -32000 || e.code === -32005 || e.code === null) return { kind: 'transient', message };
    return { kind: 'fatal', message };
  }
  const message = String((e as Error)?.message ?? e);
  if (RANGE.test(message) || TIMEOUT.test(message)) return rangeRefusal(message, undefined);
  // network errors, aborted requests, bad JSON: worth another try
  return { kind: 'transient', message };
}

/** A result-size refusal (Alchemy "Log response size exceeded ... any block range with a cap of 10K logs",
 * "query returned more than 10000 results") depends on how busy the range is, not on its span: it teaches no
 * block cap, only that this span was too big here. */
const RESULT_SIZE = /response size|results|logs in the response|too many logs/i;

function rangeRefusal(message: string, data: unknown): Refusal {
  const suggested = suggestedRange(message, data);
  const cap = statedBlockCap(message);
  // "query timeout exceeded, consider reducing your block range" is a timeout; only a stated block limit beats it
  if (TIMEOUT.test(message) && cap === null) return { kind: 'range', cause: 'timeout', blockCap: null, suggested, message };
  if (RESULT_SIZE.test(message)) return { kind: 'range', cause: 'results', blockCap: null, suggested, message };
  return { kind: 'range', cause: 'span', blockCap: cap, suggested, message };
}
