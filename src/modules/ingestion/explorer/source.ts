// Client of the Etherscan API V2 (one key for every chain, `chainid` per request): the account lists (txlist,
// txlistinternal, tokentx, tokennfttx, token1155tx), logs by topics, and the proxy module (block number, receipts,
// eth_call). Answers come in Etherscan's envelope {status, message, result}; status "0" with "No transactions
// found"/"No records found" is an empty list, "Max calls per sec rate limit reached (5/sec)" is waited out. Lists
// are paged (page x offset <= 10,000, Etherscan's window): past the window the next request starts at the last
// block seen, and rows already seen are skipped. One rate limiter per API key serves every chain.
import type { SourceBase } from '../rpc-source.js';

export type Row = Record<string, string>;
export type ListAction = 'txlist' | 'txlistinternal' | 'tokentx' | 'tokennfttx' | 'token1155tx';

export interface ExplorerSource extends SourceBase {
  kind: 'explorer';
  /** every row of an account list for the wallet in [startBlock, endBlock], oldest first */
  list(action: ListAction, wallet: string, startBlock: number, endBlock: number): Promise<Row[]>;
  /** every log with these topics (topic0..3, any emitter unless address) in [fromBlock, toBlock] */
  logs(q: { address?: string; topics: Partial<Record<0 | 1 | 2 | 3, string>>; fromBlock: number; toBlock: number }): Promise<Row[]>;
  receipt(txHash: string): Promise<{
    logs: { address: string; topics: string[]; data: string; logIndex: string; blockNumber: string; transactionHash: string }[];
  } | null>;
  call(to: string, data: string): Promise<string>;
}

export interface ExplorerOptions {
  url: string;
  apiKey: string;
  /** calls per second for the key (shared by every chain) */
  rps: number;
  /** rows per page (Etherscan allows page x offset <= 10,000) */
  pageSize?: number;
  attempts?: number;
  timeoutMs?: number;
}

export class ExplorerError extends Error {}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const WINDOW = 10_000;
const EMPTY = /^no (transactions|records|internal transactions|token transfers)? ?found/i;
const RATE = /rate limit|max calls per sec|too many/i;

/** One limiter per key: requests spaced 1/rps apart; a rate-limit answer pauses the key for a second. */
function keyLimiter(rps: number) {
  let next = 0;
  return {
    async take() {
      const now = Date.now();
      const at = Math.max(now, next);
      next = at + 1000 / rps;
      if (at > now) await sleep(at - now);
    },
    pause(ms: number) {
      next = Math.max(next, Date.now() + ms);
    },
  };
}

export function createExplorerClient(opts: ExplorerOptions) {
  const limiter = keyLimiter(opts.rps);
  const pageSize = Math.min(opts.pageSize ?? 1000, WINDOW);
  return {
    source(chainId: number): ExplorerSource {
      const calls = new Map<string, number>();
      async function get<T>(params: Record<string, string | number>): Promise<T> {
        const u = new URL(opts.url);
        for (const [k, v] of Object.entries({ chainid: chainId, ...params, apikey: opts.apiKey })) u.searchParams.set(k, String(v));
        const name = `${params.module}.${params.action}`;
        let last = '';
        for (let attempt = 0; attempt < (opts.attempts ?? 8); attempt++) {
          await limiter.take();
          calls.set(name, (calls.get(name) ?? 0) + 1);
          let body: { status?: string; message?: string; result?: unknown; error?: { message?: string } };
          try {
            const res = await fetch(u, { signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000) });
            if (res.status === 429 || res.status >= 500) {
              last = `HTTP ${res.status}`;
              limiter.pause(Number(res.headers.get('retry-after') ?? 1) * 1000);
              continue;
            }
            body = (await res.json()) as typeof body;
          } catch (e) {
            last = String((e as Error)?.message ?? e);
            await sleep(250 * 2 ** attempt);
            continue;
          }
          if (params.module === 'proxy') {
            if (body.error) throw new ExplorerError(`${name}: ${body.error.message}`);
            if (typeof body.result === 'string' && RATE.test(body.result) && body.status === '0') {
              limiter.pause(1000);
              continue;
            }
            return body.result as T;
          }
          if (body.status === '1') return body.result as T;
          const text = typeof body.result === 'string' ? body.result : (body.message ?? '');
          if (EMPTY.test(body.message ?? '') && Array.isArray(body.result)) return [] as T;
          if (RATE.test(text)) {
            limiter.pause(1000);
            last = text;
            continue;
          }
          throw new ExplorerError(`${name}: ${body.message ?? 'NOTOK'}: ${text}`);
        }
        throw new ExplorerError(`${name}: gave up after retries (${last})`);
      }

      /** All pages of a list, walking past the 10,000-row window by restarting at the last block seen. */
      async function paged(
        params: Record<string, string | number>,
        startKey: string,
        endKey: string,
        start: number,
        end: number,
      ): Promise<Row[]> {
        const out: Row[] = [];
        const seen = new Set<string>();
        let from = start;
        for (;;) {
          let lastBlock = from;
          let windowFull = false;
          for (let page = 1; page * pageSize <= WINDOW; page++) {
            const rows = await get<Row[]>({ ...params, [startKey]: from, [endKey]: end, page, offset: pageSize, sort: 'asc' });
            for (const r of rows) {
              const id = JSON.stringify(r);
              if (seen.has(id)) continue;
              seen.add(id);
              out.push(r);
            }
            if (rows.length) lastBlock = Number(rows[rows.length - 1].blockNumber);
            if (rows.length < pageSize) return out;
            windowFull = page * pageSize === WINDOW;
          }
          if (!windowFull) return out;
          // the last block may continue on the next window: start there, seen rows are skipped
          if (lastBlock <= from && out.length >= WINDOW) throw new ExplorerError(`more than ${WINDOW} rows in block ${from}`);
          from = lastBlock;
        }
      }

      return {
        chainId,
        kind: 'explorer',
        calls,
        async tip() {
          return { head: Number(await get<string>({ module: 'proxy', action: 'eth_blockNumber' })), finalized: null };
        },
        list: (action, wallet, startBlock, endBlock) =>
          paged({ module: 'account', action, address: wallet }, 'startblock', 'endblock', startBlock, endBlock),
        logs(q) {
          const params: Record<string, string | number> = { module: 'logs', action: 'getLogs' };
          if (q.address) params.address = q.address;
          const present = ([0, 1, 2, 3] as const).filter((i) => q.topics[i]);
          for (const i of present) params[`topic${i}`] = q.topics[i]!;
          for (let a = 0; a < present.length; a++)
            for (let b = a + 1; b < present.length; b++) params[`topic${present[a]}_${present[b]}_opr`] = 'and';
          return paged(params, 'fromBlock', 'toBlock', q.fromBlock, q.toBlock);
        },
        receipt: (txHash) => get({ module: 'proxy', action: 'eth_getTransactionReceipt', txhash: txHash }),
        call: (to, data) => get<string>({ module: 'proxy', action: 'eth_call', to, data, tag: 'latest' }),
        async close() {},
      };
    },
  };
}
