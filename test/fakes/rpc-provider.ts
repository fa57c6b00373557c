// A JSON-RPC provider simulator on 127.0.0.1 serving a simulated chain (rpc-provider-chain.ts), shaped like the
// hosted providers: the same error codes and messages for eth_getLogs ranges and result sets that are too large,
// HTTP 429 with Retry-After, JSON-RPC batches (each item answered and counted on its own), a `finalized` tag,
// and an optional round-trip latency. Profiles:
//   infura     -32602 "query exceeds limit of 10000 blocks"; -32005 "query returned more than 10000 results.
//              Try with this block range [0x.., 0x..]." with data {from, to, limit}
//   quicknode  -32614 "eth_getLogs is limited to a 10,000 range"
//   cap10k     -32000 "exceed maximum block range: 10000" (publicnode / nodereal wording)
//   cap500     -32600 "Under the Free tier plan, you can make eth_getLogs requests with up to a 500 block range.
//              Based on your parameters, this block range should work: [0x.., 0x..]" (Alchemy free-tier wording)
//   results    no block cap; -32602 "Log response size exceeded. You can make eth_getLogs requests with up to a 2K
//              block range and no limit on the response size, or you can request any block range with a cap of
//              10K logs in the response. Based on your parameters, this block range should work: [0x.., 0x..]"
//   ankr       -32062 "block range is too wide" (no cap stated), at 3,000 blocks
//   ratelimit  no block cap; HTTP 429 {"code":-32005,"message":"project ID request rate exceeded"} with
//              Retry-After: 0 for every third HTTP request
//   timeout    no block cap, but an eth_getLogs over more than 50,000 blocks answers -32000 "query timeout
//              exceeded" (geth/Erigon wording: the node gives up, whatever the result size)
//   down       every request answered HTTP 401 {"code":-32002,"message":"rejected due to project ID settings"}
//              (a revoked key: the provider always errors, nothing is worth a retry)
// Option `stateBlocks`: a full (non-archive) node keeping state for the newest N blocks only: a state read
// (eth_call, eth_getCode, eth_getBalance, eth_getTransactionCount) of an older block answers geth's -32000
// "missing trie node <root> (path )". eth_call answers come from chain.calls by `${to}:${data}` (the whole call
// data, e.g. an oracle's getAssetPrice(asset)), else by `${to}:${selector}`; anything else reverts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimChain, SimLog } from './rpc-provider-chain.js';

export type ProviderProfile = 'infura' | 'quicknode' | 'cap10k' | 'cap500' | 'results' | 'ankr' | 'ratelimit' | 'timeout' | 'down' | 'open';

export interface FakeProvider {
  url: string;
  calls: Map<string, number>;
  /** HTTP requests (a batch is one) */
  requests: number;
  refusals: number;
  /** Holds every answer until resume() (a provider that is slow for as long as a test needs). */
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

const hex = (n: number) => `0x${n.toString(16)}`;
type Req = { id: number; method: string; params: unknown[] };
type Filter = { address?: string | string[]; fromBlock: string; toBlock: string; topics?: (string | string[] | null)[] };

export async function startFakeProvider(
  chain: SimChain,
  profile: ProviderProfile,
  opts: { latencyMs?: number; resultCap?: number; finalizedLag?: number; stateBlocks?: number } = {},
): Promise<FakeProvider> {
  const resultCap = opts.resultCap ?? 10_000;
  const finalized = chain.head - (opts.finalizedLag ?? 64);
  const calls = new Map<string, number>();
  let held: (() => void)[] | null = null;
  const fake: FakeProvider = {
    url: '',
    calls,
    requests: 0,
    refusals: 0,
    pause: () => void (held ??= []),
    resume: () => {
      const h = held ?? [];
      held = null;
      h.forEach((f) => f());
    },
    close: async () => undefined,
  };
  const blocks = chain.logs.map((l) => l.blockNumber);

  function lowerBound(b: number) {
    let lo = 0;
    let hi = blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (blocks[mid] < b) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  function match(l: SimLog, f: Filter) {
    if (f.address) {
      const as = (Array.isArray(f.address) ? f.address : [f.address]).map((a) => a.toLowerCase());
      if (!as.includes(l.address)) return false;
    }
    return (f.topics ?? []).every(
      (t, i) =>
        t === null ||
        t === undefined ||
        (Array.isArray(t) ? t.map((x) => x.toLowerCase()).includes(l.topics[i]) : t.toLowerCase() === l.topics[i]),
    );
  }

  const refuse = (code: number, message: string, data?: unknown) => {
    fake.refusals++;
    return { error: { code, message, ...(data ? { data } : {}) } };
  };

  function getLogs(f: Filter): { result?: unknown; error?: unknown } {
    const from = Number(f.fromBlock);
    const to = Math.min(Number(f.toBlock), chain.head);
    const span = to - from + 1;
    if (profile === 'infura' && span > 10_000) return refuse(-32602, 'query exceeds limit of 10000 blocks');
    if (profile === 'quicknode' && span > 10_000) return refuse(-32614, 'eth_getLogs is limited to a 10,000 range');
    if (profile === 'cap10k' && span > 10_000) return refuse(-32000, 'exceed maximum block range: 10000');
    if (profile === 'cap500' && span > 500)
      return refuse(
        -32600,
        `Under the Free tier plan, you can make eth_getLogs requests with up to a 500 block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(from + 499)}]`,
      );
    if (profile === 'ankr' && span > 3000) return refuse(-32062, 'block range is too wide');
    if (profile === 'timeout' && span > 50_000) return refuse(-32000, 'query timeout exceeded');
    const out: SimLog[] = [];
    for (let i = lowerBound(from); i < chain.logs.length && chain.logs[i].blockNumber <= to; i++)
      if (match(chain.logs[i], f)) out.push(chain.logs[i]);
    if (out.length > resultCap) {
      const ok = out[resultCap - 1].blockNumber - 1;
      if (profile === 'infura')
        return refuse(-32005, `query returned more than ${resultCap} results. Try with this block range [${hex(from)}, ${hex(ok)}].`, {
          from: hex(from),
          to: hex(ok),
          limit: resultCap,
        });
      return refuse(
        -32602,
        `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters, this block range should work: [${hex(from)}, ${hex(ok)}]`,
      );
    }
    return {
      result: out.map((l) => ({
        address: l.address,
        topics: l.topics,
        data: l.data,
        blockNumber: hex(l.blockNumber),
        transactionHash: l.transactionHash,
        logIndex: hex(l.logIndex),
        blockHash: `0x${'b'.repeat(64)}`,
        transactionIndex: '0x0',
        removed: false,
      })),
    };
  }

  const STATE_READS: Record<string, number> = { eth_call: 1, eth_getCode: 1, eth_getBalance: 1, eth_getTransactionCount: 1 };

  function answer(r: Req): { result?: unknown; error?: unknown } {
    calls.set(r.method, (calls.get(r.method) ?? 0) + 1);
    const p = r.params ?? [];
    const at = STATE_READS[r.method] !== undefined ? p[STATE_READS[r.method]] : undefined;
    if (opts.stateBlocks !== undefined && typeof at === 'string' && at.startsWith('0x') && Number(at) < chain.head - opts.stateBlocks) {
      fake.refusals++;
      return { error: { code: -32000, message: `missing trie node ${Number(at).toString(16).padStart(64, 'c')} (path )` } };
    }
    switch (r.method) {
      case 'eth_chainId':
        return { result: hex(chain.chainId) };
      case 'eth_blockNumber':
        return { result: hex(chain.head) };
      case 'eth_getBlockByNumber': {
        const n = p[0] === 'finalized' || p[0] === 'safe' ? finalized : p[0] === 'latest' ? chain.head : Number(p[0]);
        if (n > chain.head) return { result: null };
        return { result: { number: hex(n), hash: `0x${n.toString(16).padStart(64, '0')}`, timestamp: hex(chain.genesis + 12 * n) } };
      }
      case 'eth_getTransactionCount':
        return { result: hex(p[0] && String(p[0]).toLowerCase() === chain.wallet ? chain.nonce : 0) };
      case 'eth_getBalance':
        return { result: '0xde0b6b3a7640000' };
      case 'eth_getCode': {
        const since = chain.code.get(String(p[0]).toLowerCase());
        return { result: since !== undefined && Number(p[1]) >= since ? '0x6080' : '0x' };
      }
      case 'eth_call': {
        const c = p[0] as { to: string; data: string };
        const v =
          chain.calls.get(`${c.to.toLowerCase()}:${c.data.toLowerCase()}`) ??
          chain.calls.get(`${c.to.toLowerCase()}:${c.data.slice(0, 10).toLowerCase()}`);
        return v ? { result: v } : { error: { code: -32000, message: 'execution reverted' } };
      }
      case 'eth_getLogs':
        return getLogs(p[0] as Filter);
      case 'eth_getTransactionByHash': {
        // the simulated wallet sent its transactions unless the chain names another sender
        const hash = String(p[0]).toLowerCase();
        return { result: { hash, from: chain.senders?.get(hash) ?? chain.wallet } };
      }
      case 'eth_getTransactionReceipt': {
        const logs = chain.receipts?.get(String(p[0]).toLowerCase());
        if (!logs) return { result: null };
        return {
          result: {
            transactionHash: p[0],
            status: '0x1',
            logs: logs.map((l) => ({ ...l, blockNumber: hex(l.blockNumber), logIndex: hex(l.logIndex) })),
          },
        };
      }
      default:
        return { error: { code: -32601, message: `the method ${r.method} does not exist/is not available` } };
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      fake.requests++;
      const reply = () => {
        if (profile === 'down') {
          fake.refusals++;
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32002, message: 'rejected due to project ID settings' } }));
          return;
        }
        if (profile === 'ratelimit' && fake.requests % 3 === 0) {
          fake.refusals++;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
          res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32005, message: 'project ID request rate exceeded' } }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Req | Req[];
        const one = (r: Req) => ({ jsonrpc: '2.0', id: r.id, ...answer(r) });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)));
      };
      const go = () => (opts.latencyMs ? setTimeout(reply, opts.latencyMs) : reply());
      if (held) held.push(go);
      else go();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3/test-project`;
  fake.close = () => new Promise<void>((r) => server.close(() => r()));
  return fake;
}
