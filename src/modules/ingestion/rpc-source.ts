// One JSON-RPC client per configured chain (viem over HTTP, batched). Transient errors are retried with
// exponential backoff; "range too large" answers surface as RangeTooLargeError so the caller can split the range.
import { createPublicClient, getContractAddress, http, webSocket, type PublicClient } from 'viem';
import type { RawLog } from './decode.js';

export class RangeTooLargeError extends Error {}

/** Messages providers use when a getLogs range or its result set is too big (Alchemy, Infura, QuickNode, geth...). */
const RANGE_ERROR =
  /block range|range (is )?too (large|big|wide)|too many (results|logs|blocks)|more than \d+ (results|logs)|returned more than|response size|max(imum)? results|query timeout|timed? ?out|took too long|exceeds? (the )?(max|maximum|range|block)/i;

export interface ChainSource {
  chainId: number;
  head(): Promise<number>;
  account(wallet: string, block: number): Promise<{ nonce: number; balance: string }>;
  /** Logs whose topic at `position` is the wallet, for any of the selectors. */
  logs(selectors: string[], position: number, wallet: string, fromBlock: number, toBlock: number): Promise<Omit<RawLog, 'timestamp'>[]>;
  blockTimes(blocks: number[]): Promise<Map<number, Date>>;
  hasCode(address: string, block: number): Promise<boolean>;
  createAddress(deployer: string, nonce: number): string;
  /** Closes a WebSocket connection (HTTP holds none). */
  close(): Promise<void>;
}

export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
}

export async function withRetry<T>(fn: () => Promise<T>, opts: RetryOptions, isRange = false): Promise<T> {
  let last: unknown;
  for (let i = 0; i < opts.attempts; i++) {
    try {
      return await fn();
    } catch (e) {
      const msg = errorText(e);
      if (isRange && RANGE_ERROR.test(msg)) throw new RangeTooLargeError(msg);
      last = e;
      if (i < opts.attempts - 1) await new Promise((r) => setTimeout(r, opts.baseDelayMs * 2 ** i));
    }
  }
  throw last;
}

function errorText(e: unknown): string {
  const err = e as { details?: string; shortMessage?: string; message?: string; cause?: { message?: string } };
  return [err?.details, err?.shortMessage, err?.message, err?.cause?.message].filter(Boolean).join(' | ');
}

const hex = (n: number) => `0x${n.toString(16)}`;

export function createRpcSource(chainId: number, url: string, retry: RetryOptions = { attempts: 4, baseDelayMs: 250 }): ChainSource {
  const ws = url.startsWith('ws');
  const transport = ws ? webSocket(url, { retryCount: 0 }) : http(url, { batch: { batchSize: 50, wait: 0 }, retryCount: 0, timeout: 30_000 });
  const client: PublicClient = createPublicClient({ transport });
  let used = false;
  const times = new Map<number, Date>();
  const rpc = <T>(method: string, params: unknown[], isRange = false) =>
    withRetry(() => (used = true) && client.request({ method: method as 'eth_chainId', params: params as never }) as Promise<T>, retry, isRange);

  return {
    chainId,
    async head() {
      return Number(await rpc<string>('eth_blockNumber', []));
    },
    async account(wallet, block) {
      const [nonce, balance] = await Promise.all([
        rpc<string>('eth_getTransactionCount', [wallet, hex(block)]),
        rpc<string>('eth_getBalance', [wallet, hex(block)]),
      ]);
      return { nonce: Number(nonce), balance: BigInt(balance).toString() };
    },
    async logs(selectors, position, wallet, fromBlock, toBlock) {
      const topics: (string | string[] | null)[] = [selectors, null, null, null].slice(0, position + 1);
      topics[position] = `0x${wallet.slice(2).toLowerCase().padStart(64, '0')}`;
      const logs = await rpc<{ address: string; topics: string[]; data: string; transactionHash: string; logIndex: string; blockNumber: string; removed?: boolean }[]>(
        'eth_getLogs',
        [{ fromBlock: hex(fromBlock), toBlock: hex(toBlock), topics }],
        true,
      );
      return logs
        .filter((l) => !l.removed)
        .map((l) => ({
          address: l.address,
          topics: l.topics,
          data: l.data,
          transactionHash: l.transactionHash,
          logIndex: Number(l.logIndex),
          blockNumber: Number(l.blockNumber),
        }));
    },
    async blockTimes(blocks) {
      const out = new Map<number, Date>();
      const missing = [...new Set(blocks)].filter((b) => {
        const t = times.get(b);
        if (t) out.set(b, t);
        return !t;
      });
      const fetched = await Promise.all(missing.map((b) => rpc<{ timestamp: string } | null>('eth_getBlockByNumber', [hex(b), false])));
      missing.forEach((b, i) => {
        const blk = fetched[i];
        if (!blk) throw new Error(`block ${b} not found`);
        const t = new Date(Number(blk.timestamp) * 1000);
        if (times.size > 20_000) times.clear();
        times.set(b, t);
        out.set(b, t);
      });
      return out;
    },
    async hasCode(address, block) {
      const code = await rpc<string>('eth_getCode', [address, hex(block)]);
      return !!code && code !== '0x';
    },
    createAddress(deployer, nonce) {
      return getContractAddress({ from: deployer as `0x${string}`, nonce: BigInt(nonce) }).toLowerCase();
    },
    async close() {
      if (!ws || !used) return;
      const socket = await (client.transport as unknown as { getRpcClient(): Promise<{ close(): void }> }).getRpcClient();
      socket.close();
    },
  };
}
