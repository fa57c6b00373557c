// The shapes of decoding: a log in (RawLog, DecodeContext), activity records out (ActivityRecord), what each event's
// decoder is handed (LogScope), and how records are added. decode.ts re-exports the shapes: import them from there.
import { ZERO_ADDRESS, type ActivityKind, type EventName } from '../events.js';
import { contractInfo } from '../registry/index.js';
import type { DropCounter, PoolInfo } from '../registry/gate.js';
import type { PriceLookup } from '../pricing/reader.js';

export interface ActivityRecord {
  chainId: number;
  /** For contract deployments: the deployed address (the RPC path finds deployments from nonces, not transactions). */
  txHash: string;
  /** -1 for transaction-level records (native transfers, deployments). */
  logIndex: number;
  wallet: string;
  kind: ActivityKind;
  blockNumber: number;
  /** null when a bulk import knows no time for the block */
  occurredAt: Date | null;
  /** emitting contract (token, pool, pair, governor, registrar, EAS) or the deployed contract */
  contract: string | null;
  counterparty: string | null;
  tokenId: string | null;
  amount: string | null;
  direction: 'in' | 'out' | null;
  protocol: string | null;
  /** proposal id, ENS label hash, attestation uid, or 'code' for a deployed contract that has code */
  ref: string | null;
  /** USD value at ingestion (stablecoins at 1); null when no price is known */
  valueUsd?: number | null;
  /** the transaction's sender, lowercase; null when unknown. Only what the wallet sent earns credit (scoring/features/sql.ts). */
  txFrom?: string | null;
}

export interface RawLog {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  logIndex: number;
  blockNumber: number;
  timestamp: Date | null;
}

export interface DecodeContext {
  chainId: number;
  /** The transaction's sender when known: stored on every record (tx_from), and credited with the swaps its
   *  transaction made. */
  txFrom?: string | null;
  /** Swap emitters checked against the factory derivation (registry/pools.ts); a swap from any other is dropped. */
  pools?: ReadonlyMap<string, PoolInfo | null>;
  /** Where dropped logs are counted (diagnostics only). */
  dropped?: DropCounter;
  /** Oracle prices of non-stable assets at the log's block (pricing/: the pre-pass reads what this decode asks). */
  prices?: PriceLookup;
}

/** Adds a record for a wallet (not for the zero address, a protocol contract, or a wallet already given that kind). */
export type Add = (wallet: string | null, kind: ActivityKind, f?: Partial<ActivityRecord>) => void;

/** One log that passed the registry's gate and decoded as its event, as that event's decoder sees it. */
export interface LogScope {
  log: RawLog;
  ctx: DecodeContext;
  name: EventName;
  /** the emitter, lowercase */
  contract: string;
  /** the protocol the gate found the emitter pinned to (undefined for events any contract may emit) */
  protocol: string | undefined;
  args: Record<string, unknown>;
  add: Add;
  /** an argument lowercased (addresses), null when absent */
  a: (k: string) => string | null;
  /** an argument as a decimal string, null when absent */
  n: (k: string) => string | null;
  /** the oracle's USD price of a token at the log's block, null when unknown */
  price: (token: string | null) => number | null;
  /** USD value of a raw amount of a token (stablecoins at 1, others at the oracle's price) */
  usd: (token: string | null, raw: string | null) => number | null;
}

export type Decoder = (s: LogScope) => void;
export type Decoders = Partial<Record<EventName, Decoder>>;

/** Also credits the transaction's sender (when known) with the record. */
export function addForSender(s: LogScope, kind: ActivityKind, f: Partial<ActivityRecord>): void {
  if (s.ctx.txFrom) s.add(s.ctx.txFrom.toLowerCase(), kind, f);
}

/** The Add of one log: its records go to out. */
export function recorder(log: RawLog, ctx: DecodeContext, contract: string, out: ActivityRecord[]): Add {
  return (wallet, kind, f = {}) => {
    if (!wallet || wallet === ZERO_ADDRESS) return;
    // protocol contracts (routers, pools, the registry's own) are not people: they get no records
    if (contractInfo(ctx.chainId, wallet) || ctx.pools?.get(wallet)) return;
    if (out.some((r) => r.wallet === wallet && r.kind === kind)) return;
    out.push({
      chainId: ctx.chainId,
      txHash: log.transactionHash.toLowerCase(),
      logIndex: log.logIndex,
      wallet,
      kind,
      blockNumber: log.blockNumber,
      occurredAt: log.timestamp,
      contract,
      counterparty: null,
      tokenId: null,
      amount: null,
      direction: null,
      protocol: null,
      ref: null,
      valueUsd: null,
      txFrom: ctx.txFrom?.toLowerCase() ?? null,
      ...f,
    });
  };
}
