// A simulator of the Etherscan API V2 on 127.0.0.1: GET /v2/api?chainid=..&module=..&action=..&apikey=..
// shaped like the real one: the {status, message, result} envelope with every number a string, "No transactions
// found" / "No records found" as status "0" with an empty list, "Invalid API Key", the per-key rate limit answer
// "Max calls per sec rate limit reached (5/sec)", the 10,000-row window ("Result window is too large, PageNo x
// Offset size must be less than or equal to 10000"), logs with hex numbers ("0x" for zero), and the proxy module's
// JSON-RPC answers. History for one wallet per chain comes from explorerHistory().
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { computePairAddress } from '@uniswap/v2-sdk';
import { Token } from '@uniswap/sdk-core';
import { encodeAbiParameters, encodeEventTopics, getContractAddress, pad, parseAbi, type Hex } from 'viem';
import { pinnedContracts } from '../../src/modules/ingestion/registry/index.js';
import { encodeLog, SIGS } from '../helpers/etl-export.js';

type Row = Record<string, string>;
export interface LogRow {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  timeStamp: number;
  transactionHash: string;
  logIndex: number;
}
export interface ChainHistory {
  head: number;
  txlist: Row[];
  txlistinternal: Row[];
  tokentx: Row[];
  tokennfttx: Row[];
  token1155tx: Row[];
  logs: LogRow[];
  receipts: Map<string, LogRow[]>;
  /** records the wallet should end up with on this chain, per kind */
  expected: Record<string, number>;
}

const ABI = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Supply(address indexed reserve, address user, address indexed onBehalfOf, uint256 amount, uint16 indexed referralCode)',
  'event VoteCast(address indexed voter, uint256 proposalId, uint8 support, uint256 weight, string reason)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);
const ev = (name: string) => ABI.find((e) => e.name === name)!;
function log(
  address: string,
  name: string,
  args: Record<string, unknown>,
  data: unknown[],
): { address: string; topics: string[]; data: string } {
  const abi = ev(name);
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args } as never) as string[];
  const inputs = (abi.inputs as readonly { type: string; indexed?: boolean }[]).filter((i) => !i.indexed);
  return {
    address: address.toLowerCase(),
    topics: topics.map((t) => t.toLowerCase()),
    data: encodeAbiParameters(inputs as never, data as never),
  };
}

export const TOKENS: Record<number, { usdc: string; weth: string }> = {
  1: { usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', weth: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
  10: { usdc: '0x0b2c639c533813f4aa9d7837caf62653d097ff85', weth: '0x4200000000000000000000000000000000000006' },
  137: { usdc: '0x3c499c542cef5e3811e1192ce70d8cc03d5c3359', weth: '0x7ceb23fd6bc0add59e62ac25578270cff1b9f619' },
  8453: { usdc: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913', weth: '0x4200000000000000000000000000000000000006' },
  42161: { usdc: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', weth: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1' },
};

/** One wallet's history on a chain: `events` items spread over transfers, Aave, votes and router swaps. */
export function explorerHistory(chainId: number, wallet: string, events: number, headBlock?: number): ChainHistory {
  const W = wallet.toLowerCase();
  const other = '0x00000000000000000000000000000000000000bb';
  const pinned = pinnedContracts(chainId);
  const pool = pinned.find((c) => c.role === 'lending-pool' && c.protocol === 'aave-v3')!;
  // a head past the chain's Aave V3 deployment (Polygon's is at 25,824,300, data/registry/137.json)
  const head = headBlock ?? Math.max(20_000_000, pool.fromBlock + 5_000_000);
  const governor = pinned.find((c) => c.role === 'governor');
  const { usdc } = TOKENS[chainId];
  const h: ChainHistory = {
    head,
    txlist: [],
    txlistinternal: [],
    tokentx: [],
    tokennfttx: [],
    token1155tx: [],
    logs: [],
    receipts: new Map(),
    expected: {},
  };
  const count = (k: string, n = 1) => (h.expected[k] = (h.expected[k] ?? 0) + n);
  let nonce = 0;
  const base = Math.max(pool.fromBlock, 1_000_000) + 10;
  const step = Math.max(1, Math.floor((head - 1000 - base) / (events + 2)));
  const tx = (i: number, f: Partial<Row>): Row => {
    const block = base + i * step;
    return {
      blockNumber: String(block),
      timeStamp: String(1_600_000_000 + block * 2),
      hash: pad(`0x${(chainId * 1_000_000 + i).toString(16)}`),
      nonce: '0',
      blockHash: pad('0x1'),
      transactionIndex: '0',
      from: W,
      to: other,
      value: '0',
      gas: '21000',
      gasPrice: '1',
      isError: '0',
      txreceipt_status: '1',
      input: '0x',
      contractAddress: '',
      cumulativeGasUsed: '21000',
      gasUsed: '21000',
      confirmations: '100',
      methodId: '0x',
      functionName: '',
      ...f,
    };
  };
  // the first transaction deploys a contract
  h.txlist.push(
    tx(0, { to: '', nonce: String(nonce), contractAddress: getContractAddress({ from: W as Hex, nonce: BigInt(nonce++) }).toLowerCase() }),
  );
  count('contract_deploy');
  for (let i = 1; i <= events; i++) {
    const t = tx(i, {});
    const block = Number(t.blockNumber);
    const lr = (l: { address: string; topics: string[]; data: string }, logIndex = 0): LogRow => ({
      ...l,
      blockNumber: block,
      timeStamp: Number(t.timeStamp),
      transactionHash: t.hash,
      logIndex,
    });
    switch (i % 5) {
      case 0: // native transfer out
        h.txlist.push({ ...t, nonce: String(nonce++), value: '1000000000000000' });
        count('transfer_native');
        break;
      case 1: // ERC-20 received (a token list row)
        h.tokentx.push({
          ...t,
          from: other,
          to: W,
          contractAddress: usdc,
          value: '5000000',
          tokenName: 'USD Coin',
          tokenSymbol: 'USDC',
          tokenDecimal: '6',
        });
        count('transfer_erc20');
        break;
      case 2: // Aave supply on the pinned pool (found by logs, topic 2 = wallet)
        h.logs.push(lr(log(pool.address, 'Supply', { reserve: usdc, onBehalfOf: W, referralCode: 0 }, [W, 10n ** 9n])));
        count('lending_supply');
        break;
      case 3: // a governor vote, or an internal value transfer where the chain has no pinned governor
        if (governor) {
          h.logs.push(lr(log(governor.address, 'VoteCast', { voter: W }, [BigInt(i), 1, 10n ** 18n, ''])));
          count('gov_vote');
        } else {
          h.txlistinternal.push({
            blockNumber: t.blockNumber,
            timeStamp: t.timeStamp,
            hash: t.hash,
            from: other,
            to: W,
            value: '7',
            contractAddress: '',
            input: '',
            type: 'call',
            gas: '0',
            gasUsed: '0',
            traceId: '0',
            isError: '0',
            errCode: '',
          });
          count('transfer_native');
        }
        break;
      case 4: {
        // a swap through the router: the pool pays the router, the router pays the wallet (recipient != wallet)
        const s = routerSwap(chainId, W, { ...t, nonce: String(nonce++) });
        h.txlist.push(s.tx);
        h.tokentx.push(...s.tokentx);
        h.receipts.set(t.hash, s.receipt);
        count('swap');
        count('transfer_erc20', 2);
        break;
      }
    }
  }
  return h;
}

/**
 * A chain history written transaction by transaction from the logs each emitted (as an ethereum-etl export is):
 * `tx` adds the transaction to txlist, its logs to the logs a topic query returns (with their indexes), and each
 * ERC-20 Transfer among them to the token list as Etherscan lists it (decoded, without its log index).
 */
export function historyOfLogs(
  head: number,
  firstBlock: number,
): {
  h: ChainHistory;
  tx: (
    from: string,
    to: string,
    at: Date,
    logs: { address: string; event: string; args: Record<string, unknown> }[],
    value?: string,
  ) => void;
} {
  const h: ChainHistory = {
    head,
    txlist: [],
    txlistinternal: [],
    tokentx: [],
    tokennfttx: [],
    token1155tx: [],
    logs: [],
    receipts: new Map(),
    expected: {},
  };
  let block = firstBlock;
  const tx = (
    from: string,
    to: string,
    at: Date,
    logs: { address: string; event: string; args: Record<string, unknown> }[],
    value = '0',
  ) => {
    block += 10;
    const hash = `0x${block.toString(16).padStart(64, '0')}`;
    const ts = Math.floor(at.getTime() / 1000);
    h.txlist.push({
      blockNumber: String(block),
      timeStamp: String(ts),
      hash,
      nonce: String(h.txlist.filter((t) => t.from === from).length),
      blockHash: hash,
      transactionIndex: '0',
      from,
      to,
      value,
      gas: '21000',
      gasPrice: '1',
      isError: '0',
      txreceipt_status: '1',
      input: '0x',
      contractAddress: '',
      cumulativeGasUsed: '21000',
      gasUsed: '21000',
      confirmations: '100',
      methodId: '0x',
      functionName: '',
    });
    // the transaction's receipt holds all its logs, as the proxy's eth_getTransactionReceipt answers it
    const receipt: LogRow[] = [];
    h.receipts.set(hash, receipt);
    logs.forEach((l, i) => {
      const { topics, data } = encodeLog(l.event, l.args);
      const row = {
        address: l.address,
        topics: topics.map((t) => t.toLowerCase()),
        data,
        blockNumber: block,
        timeStamp: ts,
        transactionHash: hash,
        logIndex: i,
      };
      h.logs.push(row);
      receipt.push(row);
      if (l.event === SIGS.transfer) {
        const args = l.args as { from: string; to: string; value: bigint };
        h.tokentx.push({
          blockNumber: String(block),
          timeStamp: String(ts),
          hash,
          nonce: '0',
          blockHash: hash,
          from: args.from,
          contractAddress: l.address,
          to: args.to,
          value: String(args.value),
          tokenName: 'x',
          tokenSymbol: 'x',
          tokenDecimal: '6',
          transactionIndex: '0',
          gas: '0',
          gasPrice: '0',
          gasUsed: '0',
          cumulativeGasUsed: '0',
          input: 'deprecated',
          confirmations: '100',
        });
      }
    });
  };
  return { h, tx };
}

const TRANSFER_TOPIC = encodeEventTopics({
  abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
  eventName: 'Transfer',
})[0].toLowerCase();
const word = (x: string | bigint) => pad((typeof x === 'bigint' ? `0x${x.toString(16)}` : x) as Hex).toLowerCase();
/**
 * The Transfer logs behind the token list rows, as the real getLogs returns them to a topic query (the list rows carry
 * no log index; each log does, numbered here after the transaction's other logs). A history that already holds a
 * transfer among its logs (with its real index) is not given a second copy.
 */
function transferLogs(h: ChainHistory): LogRow[] {
  const have = new Set(h.logs.map((l) => `${l.transactionHash}|${l.address}|${l.topics.join(',')}|${l.data}`));
  const out: LogRow[] = [];
  const next = new Map<string, number>();
  const rows: [Row, string[], string][] = [
    ...h.tokentx.map((r): [Row, string[], string] => [r, [TRANSFER_TOPIC, word(r.from), word(r.to)], word(BigInt(r.value || '0'))]),
    ...h.tokennfttx.map((r): [Row, string[], string] => [
      r,
      [TRANSFER_TOPIC, word(r.from), word(r.to), word(BigInt(r.tokenID || '0'))],
      '0x',
    ]),
  ];
  for (const [r, topics, data] of rows) {
    const address = (r.contractAddress ?? '').toLowerCase();
    if (have.has(`${r.hash}|${address}|${topics.join(',')}|${data}`)) continue;
    const index = next.get(r.hash) ?? 100;
    next.set(r.hash, index + 1);
    out.push({
      address,
      topics,
      data,
      blockNumber: Number(r.blockNumber),
      timeStamp: Number(r.timeStamp),
      transactionHash: r.hash,
      logIndex: index,
    });
  }
  return out;
}

const META: Record<string, Row> = {
  USDC: { tokenName: 'USD Coin', tokenSymbol: 'USDC', tokenDecimal: '6' },
  WETH: { tokenName: 'Wrapped Ether', tokenSymbol: 'WETH', tokenDecimal: '18' },
};

/** The chain's factory V2 pair for two tokens. */
export function v2Pair(chainId: number, a: string, b: string): string {
  const factory = pinnedContracts(chainId).find((c) => c.role === 'dex-factory' && c.protocol === 'uniswap-v2')!;
  return computePairAddress({
    factoryAddress: factory.address,
    tokenA: new Token(chainId, a, 18),
    tokenB: new Token(chainId, b, 18),
  }).toLowerCase();
}

/**
 * The wallet's transaction `t` swapping through the chain's router along `path` (default USDC -> WETH), one pool
 * per hop (default the factory's V2 pairs): the wallet pays the first pool, each pool pays the next, the last pays
 * the router and the router pays the wallet, so no Swap log names the wallet. Returns the txlist row, the wallet's
 * tokentx rows and the receipt's logs (amounts in each Swap in the pool's token0/token1 order).
 */
export function routerSwap(
  chainId: number,
  wallet: string,
  t: Row,
  opts: { path?: string[]; pools?: string[]; amounts?: bigint[] } = {},
): { tx: Row; tokentx: Row[]; receipt: LogRow[] } {
  const W = wallet.toLowerCase();
  const router = pinnedContracts(chainId)
    .find((c) => c.role === 'router')!
    .address.toLowerCase();
  const { usdc, weth } = TOKENS[chainId];
  const path = (opts.path ?? [usdc, weth]).map((x) => x.toLowerCase());
  const amounts = opts.amounts ?? [1_000_000n, 4n * 10n ** 14n];
  const pools = (opts.pools ?? path.slice(1).map((b, k) => v2Pair(chainId, path[k], b))).map((x) => x.toLowerCase());
  const meta = (token: string) =>
    META[token === usdc ? 'USDC' : token === weth ? 'WETH' : ''] ?? { tokenName: '', tokenSymbol: '', tokenDecimal: '18' };
  const block = Number(t.blockNumber);
  const lr = (l: { address: string; topics: string[]; data: string }, logIndex: number): LogRow => ({
    ...l,
    blockNumber: block,
    timeStamp: Number(t.timeStamp),
    transactionHash: t.hash,
    logIndex,
  });
  const receipt: LogRow[] = [lr(log(path[0], 'Transfer', { from: W, to: pools[0] }, [amounts[0]]), 0)];
  pools.forEach((pool, k) => {
    const to = pools[k + 1] ?? router;
    const inIs0 = path[k] < path[k + 1];
    const [a, b] = [amounts[k], amounts[k + 1]];
    receipt.push(lr(log(pool, 'Swap', { sender: router, to }, inIs0 ? [a, 0n, 0n, b] : [0n, a, b, 0n]), receipt.length));
    receipt.push(lr(log(path[k + 1], 'Transfer', { from: pool, to }, [b]), receipt.length));
  });
  const last = path.length - 1;
  receipt.push(lr(log(path[last], 'Transfer', { from: router, to: W }, [amounts[last]]), receipt.length));
  return {
    tx: { ...t, to: router, functionName: 'execute(bytes commands,bytes[] inputs,uint256 deadline)' },
    tokentx: [
      { ...t, from: W, to: pools[0], contractAddress: path[0], value: String(amounts[0]), ...meta(path[0]) },
      { ...t, from: router, to: W, contractAddress: path[last], value: String(amounts[last]), ...meta(path[last]) },
    ],
    receipt,
  };
}

export interface FakeExplorer {
  url: string;
  apiKey: string;
  calls: Map<string, number>;
  rateLimited: number;
  close(): Promise<void>;
}

export async function startFakeExplorer(
  histories: Record<number, ChainHistory>,
  opts: { latencyMs?: number; rps?: number } = {},
): Promise<FakeExplorer> {
  const apiKey = 'TESTKEY' + Math.random().toString(36).slice(2, 10).toUpperCase();
  const rps = opts.rps ?? 5;
  const calls = new Map<string, number>();
  const fake: FakeExplorer = { url: '', apiKey, calls, rateLimited: 0, close: async () => undefined };
  const recent: number[] = [];
  const hex = (n: number) => (n === 0 ? '0x' : `0x${n.toString(16)}`);

  function answer(q: URLSearchParams): unknown {
    const now = Date.now();
    while (recent.length && recent[0] <= now - 1000) recent.shift();
    if (q.get('apikey') !== apiKey) return { status: '0', message: 'NOTOK', result: 'Invalid API Key' };
    if (recent.length >= rps) {
      fake.rateLimited++;
      return { status: '0', message: 'NOTOK', result: `Max calls per sec rate limit reached (${rps}/sec)` };
    }
    recent.push(now);
    const h = histories[Number(q.get('chainid'))];
    if (!h)
      return {
        status: '0',
        message: 'NOTOK',
        result:
          'Missing or unsupported chainid parameter (required for v2 api), please see https://api.etherscan.io/v2/chainlist for the list of supported chainids',
      };
    const module = q.get('module');
    const action = q.get('action') ?? '';
    calls.set(`${module}.${action}`, (calls.get(`${module}.${action}`) ?? 0) + 1);
    if (module === 'proxy') {
      if (action === 'eth_blockNumber') return { jsonrpc: '2.0', id: 83, result: `0x${h.head.toString(16)}` };
      if (action === 'eth_getTransactionReceipt') {
        const logs = h.receipts.get(q.get('txhash') ?? '') ?? [];
        return {
          jsonrpc: '2.0',
          id: 1,
          result: {
            transactionHash: q.get('txhash'),
            status: '0x1',
            logs: logs.map((l) => ({ ...l, blockNumber: `0x${l.blockNumber.toString(16)}`, logIndex: `0x${l.logIndex.toString(16)}` })),
          },
        };
      }
      if (action === 'eth_call') return { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'execution reverted' } };
      return { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'unsupported' } };
    }
    const page = Number(q.get('page') ?? 1);
    const offset = Number(q.get('offset') ?? 10_000);
    if (page * offset > 10_000)
      return {
        status: '0',
        message: 'NOTOK',
        result: 'Result window is too large, PageNo x Offset size must be less than or equal to 10000',
      };
    let rows: unknown[];
    if (module === 'account' && ['txlist', 'txlistinternal', 'tokentx', 'tokennfttx', 'token1155tx'].includes(action)) {
      const a = (q.get('address') ?? '').toLowerCase();
      const from = Number(q.get('startblock') ?? 0);
      const to = Number(q.get('endblock') ?? 99_999_999);
      rows = (h[action as 'txlist'] as Row[]).filter(
        (r) => (r.from === a || r.to === a) && Number(r.blockNumber) >= from && Number(r.blockNumber) <= to,
      );
    } else if (module === 'logs' && action === 'getLogs') {
      const from = Number(q.get('fromBlock') ?? 0);
      const to = q.get('toBlock') === 'latest' ? h.head : Number(q.get('toBlock') ?? h.head);
      const address = q.get('address')?.toLowerCase();
      rows = [...h.logs, ...transferLogs(h)]
        .filter(
          (l) =>
            l.blockNumber >= from &&
            l.blockNumber <= to &&
            (!address || l.address === address) &&
            [0, 1, 2, 3].every((i) => !q.get(`topic${i}`) || l.topics[i] === q.get(`topic${i}`)!.toLowerCase()),
        )
        .map((l) => ({
          address: l.address,
          topics: l.topics,
          data: l.data,
          blockNumber: hex(l.blockNumber),
          timeStamp: hex(l.timeStamp),
          gasPrice: '0x1',
          gasUsed: '0x5208',
          logIndex: hex(l.logIndex),
          transactionHash: l.transactionHash,
          transactionIndex: '0x',
        }));
    } else return { status: '0', message: 'NOTOK', result: 'Error! Missing Or invalid Action name' };
    const slice = rows.slice((page - 1) * offset, page * offset);
    if (!slice.length) return { status: '0', message: module === 'logs' ? 'No records found' : 'No transactions found', result: [] };
    return { status: '1', message: 'OK', result: slice };
  }

  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reply = () => {
      res.writeHead(u.pathname === '/v2/api' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(u.pathname === '/v2/api' ? answer(u.searchParams) : { status: '0', message: 'NOTOK', result: 'not found' }));
    };
    if (opts.latencyMs) setTimeout(reply, opts.latencyMs);
    else reply();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/api`;
  fake.close = () => new Promise<void>((r) => server.close(() => r()));
  return fake;
}
