// One JSON-RPC source per configured chain. Logs are asked in batches of block ranges (each range within what
// the endpoint was seen to accept, see rpc-limits.ts); block times come from batched eth_getBlockByNumber calls
// (cached, one call per block, never per log); the head and the `finalized` block come in one round trip.
import { keccak_256 } from '@noble/hashes/sha3';
import type { RawLog } from './decode.js';
import type { RpcError } from './rpc-errors.js';
import { limitsFor, type RangeLimits } from './rpc-limits.js';
import { createTransport, type Outcome, type TransportOptions } from './rpc-transport.js';

export type ChainLog = Omit<RawLog, 'timestamp'>;

export interface LogQuery {
  /** emitting contracts (null: any emitter) */
  address: string[] | null;
  topics: (string | string[] | null)[];
  fromBlock: number;
  toBlock: number;
}

/** Where a chain's evidence comes from: JSON-RPC (`rpc`) or an explorer API (`explorer`, see explorer/). */
export interface SourceBase {
  chainId: number;
  kind: 'rpc' | 'explorer';
  /** the head, and the newest block the chain calls final (null when the node does not know the tag) */
  tip(): Promise<{ head: number; finalized: number | null }>;
  /** calls made per method (batch items one by one) */
  readonly calls: Map<string, number>;
  close(): Promise<void>;
}

export interface ChainSource extends SourceBase {
  kind: 'rpc';
  /** what this endpoint accepts (shared by every source of the same URL) */
  limits: RangeLimits;
  head(): Promise<number>;
  account(wallet: string, block: number): Promise<{ nonce: number; balance: string }>;
  nonceAt(wallet: string, block: number): Promise<number>;
  /** Many eth_getLogs at once; each answered or refused on its own. */
  getLogs(queries: LogQuery[]): Promise<Outcome<ChainLog[]>[]>;
  blockTimes(blocks: number[]): Promise<Map<number, Date>>;
  hasCode(address: string, block: number): Promise<boolean>;
  /** eth_getCode of many addresses in one round trip */
  hasCodes(addresses: string[], block: number): Promise<boolean[]>;
  createAddress(deployer: string, nonce: number): string;
  /** logs of many transactions' receipts in one round trip (the explorer's router swaps, when both are configured) */
  receiptLogs(hashes: string[]): Promise<Map<string, ChainLog[]>>;
  /** many transactions' senders in one round trip (eth_getTransactionByHash): who sent what the wallet's logs are in */
  senders(hashes: string[]): Promise<Map<string, string | null>>;
  /** senders and what each transaction paid, from their receipts (as many calls as senders): the gas that backs
   *  the evidence (tx-fees.ts); sources without receipts leave it out */
  senderFees?(hashes: string[]): Promise<Map<string, TxCost>>;
  /** a block's base fee per gas, when blockTimes read it (null: not known) */
  baseFeeOf?(block: number): bigint | null;
  /** many transactions' senders and logs in one round trip (a Uniswap V3 position's minting transaction) */
  receipts(hashes: string[]): Promise<Map<string, { from: string | null; logs: ChainLog[] }>>;
  /** eth_call (registry checks) */
  call(to: string, data: string, block?: number | 'latest'): Promise<string>;
  /** many eth_call at their own blocks in one round trip, each answered or refused on its own (price reads) */
  callMany(calls: { to: string; data: string; block: number }[]): Promise<Outcome<string>[]>;
}

export interface RpcSourceOptions extends Partial<TransportOptions> {
  /** most blocks asked of eth_getLogs at once, whatever the endpoint accepts */
  maxRange?: number;
}

const hex = (n: number) => `0x${n.toString(16)}`;

export interface TxCost {
  from: string | null;
  blockNumber: number;
  gasUsed: bigint | null;
  /** effectiveGasPrice of the receipt */
  gasPrice: bigint | null;
  /** an OP-stack L2's data fee */
  l1Fee: bigint | null;
}
const big = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-fA-F]+$/.test(v) ? BigInt(v) : null);

type WireLog = {
  address: string;
  topics: string[];
  data: string;
  transactionHash: string;
  logIndex: string;
  blockNumber: string;
  removed?: boolean;
};
/** A node's log with its hex numbers read */
const chainLog = (l: WireLog): ChainLog => ({
  address: l.address,
  topics: l.topics,
  data: l.data,
  transactionHash: l.transactionHash,
  logIndex: Number(l.logIndex),
  blockNumber: Number(l.blockNumber),
});

export function createRpcSource(chainId: number, url: string, options: RpcSourceOptions = {}): ChainSource {
  const transport = createTransport(url, options);
  const limits = limitsFor(url, options.maxRange);
  const times = new Map<number, Date>();
  const baseFees = new Map<number, bigint>();
  const rpc = <T>(method: string, params: unknown[]) => transport.request<T>(method, params);
  let finalizedTag: boolean | null = null;

  const receipts = async (hashes: string[]) => {
    const out = await transport.batch<{ from?: string; logs: WireLog[] } | null>(
      hashes.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })),
    );
    const map = new Map<string, { from: string | null; logs: ChainLog[] }>();
    out.forEach((o, i) => {
      if (!o.ok) throw o.error;
      const logs = (o.value?.logs ?? []).map(chainLog);
      map.set(hashes[i].toLowerCase(), { from: o.value?.from?.toLowerCase() ?? null, logs });
    });
    return map;
  };

  return {
    chainId,
    kind: 'rpc',
    limits,
    calls: transport.calls,
    async head() {
      return Number(await rpc<string>('eth_blockNumber', []));
    },
    async tip() {
      if (finalizedTag === false) return { head: Number(await rpc<string>('eth_blockNumber', [])), finalized: null };
      const [h, f] = await transport.batch<unknown>([
        { method: 'eth_blockNumber', params: [] },
        { method: 'eth_getBlockByNumber', params: ['finalized', false] },
      ]);
      if (!h.ok) throw h.error;
      const block = f.ok ? (f.value as { number?: string } | null) : null;
      // nodes without the tag answer an error ("unknown block", "invalid block tag") or null: remember, ask no more
      finalizedTag = !!block?.number;
      return { head: Number(h.value), finalized: block?.number ? Number(block.number) : null };
    },
    async account(wallet, block) {
      const [nonce, balance] = await transport.batch<string>([
        { method: 'eth_getTransactionCount', params: [wallet, hex(block)] },
        { method: 'eth_getBalance', params: [wallet, hex(block)] },
      ]);
      if (!nonce.ok) throw nonce.error;
      if (!balance.ok) throw balance.error;
      return { nonce: Number(nonce.value), balance: BigInt(balance.value).toString() };
    },
    async nonceAt(wallet, block) {
      return Number(await rpc<string>('eth_getTransactionCount', [wallet, hex(block)]));
    },
    async getLogs(queries) {
      const out = await transport.batch<WireLog[]>(
        queries.map((q) => ({
          method: 'eth_getLogs',
          params: [
            {
              ...(q.address ? { address: q.address.length === 1 ? q.address[0] : q.address } : {}),
              fromBlock: hex(q.fromBlock),
              toBlock: hex(q.toBlock),
              topics: q.topics,
            },
          ],
        })),
      );
      return out.map((o): Outcome<ChainLog[]> =>
        !o.ok
          ? (o as { ok: false; error: RpcError })
          : {
              ok: true,
              value: (o.value ?? []).filter((l) => !l.removed).map(chainLog),
            },
      );
    },
    async blockTimes(blocks) {
      const out = new Map<number, Date>();
      const missing = [...new Set(blocks)].filter((b) => {
        const t = times.get(b);
        if (t) out.set(b, t);
        return !t;
      });
      if (!missing.length) return out;
      const fetched = await transport.batch<{ timestamp: string; baseFeePerGas?: string } | null>(
        missing.map((b) => ({ method: 'eth_getBlockByNumber', params: [hex(b), false] })),
      );
      missing.forEach((b, i) => {
        const r = fetched[i];
        if (!r.ok) throw r.error;
        if (!r.value) throw new Error(`block ${b} not found`);
        const t = new Date(Number(r.value.timestamp) * 1000);
        if (times.size > 50_000) {
          times.clear();
          baseFees.clear();
        }
        times.set(b, t);
        const fee = big(r.value.baseFeePerGas);
        if (fee !== null) baseFees.set(b, fee);
        out.set(b, t);
      });
      return out;
    },
    async hasCode(address, block) {
      const code = await rpc<string>('eth_getCode', [address, hex(block)]);
      return !!code && code !== '0x';
    },
    async hasCodes(addresses, block) {
      const out = await transport.batch<string>(addresses.map((a) => ({ method: 'eth_getCode', params: [a, hex(block)] })));
      return out.map((o) => {
        if (!o.ok) throw o.error;
        return !!o.value && o.value !== '0x';
      });
    },
    createAddress(deployer, nonce) {
      return createAddress(deployer, nonce);
    },
    async receiptLogs(hashes) {
      return new Map([...(await receipts(hashes))].map(([h, r]) => [h, r.logs]));
    },
    receipts,
    baseFeeOf: (block) => baseFees.get(block) ?? null,
    async senderFees(hashes) {
      const out = new Map<string, TxCost>();
      for (let i = 0; i < hashes.length; i += 500) {
        const chunk = hashes.slice(i, i + 500);
        const answers = await transport.batch<{
          from?: string;
          blockNumber?: string;
          gasUsed?: string;
          effectiveGasPrice?: string;
          l1Fee?: string;
        } | null>(chunk.map((h) => ({ method: 'eth_getTransactionReceipt', params: [h] })));
        const unknown: string[] = [];
        answers.forEach((o, k) => {
          if (!o.ok) throw o.error;
          const r = o.value;
          if (!r?.from) unknown.push(chunk[k]);
          else
            out.set(chunk[k].toLowerCase(), {
              from: r.from.toLowerCase(),
              blockNumber: Number(r.blockNumber ?? 0),
              gasUsed: big(r.gasUsed),
              gasPrice: big(r.effectiveGasPrice),
              l1Fee: big(r.l1Fee),
            });
        });
        // a node that answers no receipt (or one without its sender) still names the sender of the transaction
        if (unknown.length)
          for (const [h, from] of await this.senders(unknown))
            out.set(h, { from, blockNumber: 0, gasUsed: null, gasPrice: null, l1Fee: null });
      }
      return out;
    },
    async senders(hashes) {
      const out = new Map<string, string | null>();
      for (let i = 0; i < hashes.length; i += 500) {
        const chunk = hashes.slice(i, i + 500);
        const answers = await transport.batch<{ from?: string } | null>(
          chunk.map((h) => ({ method: 'eth_getTransactionByHash', params: [h] })),
        );
        answers.forEach((o, k) => {
          if (!o.ok) throw o.error;
          out.set(chunk[k].toLowerCase(), o.value?.from?.toLowerCase() ?? null);
        });
      }
      return out;
    },
    async call(to, data, block = 'latest') {
      return rpc<string>('eth_call', [{ to, data }, typeof block === 'number' ? hex(block) : block]);
    },
    callMany(calls) {
      return transport.batch<string>(calls.map((c) => ({ method: 'eth_call', params: [{ to: c.to, data: c.data }, hex(c.block)] })));
    },
    close: () => transport.close(),
  };
}

/**
 * The address a CREATE by `deployer` at `nonce` deploys to: keccak256(rlp([deployer, nonce])), last 20 bytes,
 * lowercase (as viem's getContractAddress, which no longer loads at every start for it).
 */
export function createAddress(deployer: string, nonce: number): string {
  const from = Buffer.from(deployer.slice(2), 'hex');
  if (from.length !== 20 || !Number.isSafeInteger(nonce) || nonce < 0) throw new TypeError(`invalid CREATE input: ${deployer}, ${nonce}`);
  // RLP of the nonce: 0 is the empty string (0x80), 1-127 the byte itself, else 0x80 + length and its big-endian bytes
  const n =
    nonce === 0 ? Buffer.alloc(0) : Buffer.from(nonce.toString(16).padStart(Math.ceil(nonce.toString(16).length / 2) * 2, '0'), 'hex');
  const nonceRlp = n.length === 1 && n[0]! < 0x80 ? n : Buffer.concat([Buffer.from([0x80 + n.length]), n]);
  const payload = Buffer.concat([Buffer.from([0x80 + 20]), from, nonceRlp]);
  const hash = keccak_256(Buffer.concat([Buffer.from([0xc0 + payload.length]), payload]));
  return `0x${Buffer.from(hash.subarray(12)).toString('hex')}`;
}
