// A simulated chain for the provider simulators: a head of 20,000,000 blocks (none materialized; block b is dated
// genesis + 12 s x b) and one wallet's history generated deterministically at the registry's pinned contracts:
// Aave supplies, borrows and repays, Comet, governor votes, delegations (given and received), ENS, EAS and swaps in
// pools that derive from the Uniswap factories. Logs are kept sorted by block so a getLogs is a binary search.
import { computePairAddress } from '@uniswap/v2-sdk';
import { computePoolAddress } from '@uniswap/v3-sdk';
import { Token } from '@uniswap/sdk-core';
import { encodeAbiParameters, encodeEventTopics, getContractAddress, pad, parseAbi, type Hex } from 'viem';
import { EVENT_ABI } from '../../src/modules/ingestion/events.js';
import { pinnedContracts } from '../../src/modules/ingestion/registry/index.js';
import { seeded } from '../../src/platform/seeded-random.js';

export interface SimLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  transactionHash: string;
  logIndex: number;
}

export interface SimChain {
  chainId: number;
  head: number;
  genesis: number;
  wallet: string;
  nonce: number;
  logs: SimLog[];
  /** contract address -> block from which it has code */
  code: Map<string, number>;
  /** eth_call answers: `${to}:${selector}` -> 32-byte hex */
  calls: Map<string, string>;
  /** evidence records the wallet should end up with, per kind */
  expected: Record<string, number>;
  /** eth_getTransactionReceipt answers (tx hash -> logs) */
  receipts?: Map<string, SimLog[]>;
  /** eth_getTransactionByHash senders (tx hash -> from); absent: the wallet */
  senders?: Map<string, string>;
}

const EXTRA = parseAbi(['event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)']);
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';

const ev = (name: string, n = 0) => EVENT_ABI.filter((e) => e.name === name)[n];

export function simulateChain(opts: {
  wallet: string;
  events?: number;
  head?: number;
  chainId?: number;
  nonce?: number;
  seed?: number;
  firstBorrowBlock?: number;
}): SimChain {
  const chainId = opts.chainId ?? 1;
  const head = opts.head ?? 20_000_000;
  const wallet = opts.wallet.toLowerCase();
  const total = opts.events ?? 2000;
  const rand = seeded(opts.seed ?? 42);
  const pinned = pinnedContracts(chainId);
  if (total === 0 && chainId !== 1)
    return {
      chainId,
      head,
      genesis: 1_438_269_973,
      wallet,
      nonce: opts.nonce ?? 0,
      logs: [],
      code: new Map(),
      calls: new Map(),
      expected: {},
    };
  const by = (role: string, protocol?: string) => pinned.filter((c) => c.role === role && (!protocol || c.protocol === protocol));
  const pool = by('lending-pool', 'aave-v3').sort((a, b) => b.fromBlock - a.fromBlock)[0];
  const comet = by('comet')[0];
  const governor = by('governor')[0];
  const token = by('votes-token')[0];
  const ens = by('ens-controller').sort((a, b) => b.fromBlock - a.fromBlock)[0];
  const eas = by('eas')[0];
  const v2 = by('dex-factory', 'uniswap-v2')[0];
  const v3 = by('dex-factory', 'uniswap-v3')[0];
  const tA = new Token(chainId, USDC, 6);
  const tB = new Token(chainId, WETH, 18);
  const pair = computePairAddress({ factoryAddress: v2.address, tokenA: tA, tokenB: tB }).toLowerCase();
  const pool3 = computePoolAddress({ factoryAddress: v3.address, tokenA: tA, tokenB: tB, fee: 500 }).toLowerCase();
  const calls = new Map<string, string>();
  const word = (a: string) => pad(a as Hex).toLowerCase();
  for (const p of [pair, pool3]) {
    calls.set(`${p}:0x0dfe1681`, word(USDC));
    calls.set(`${p}:0xd21220a7`, word(WETH));
  }
  calls.set(`${pool3}:0xddca3f43`, pad('0x1f4'));

  const W = wallet as Hex;
  const other = '0x00000000000000000000000000000000000000aa' as Hex;
  const kinds: { weight: number; kind: string; at: number; make: (b: number) => { address: string; topics: Hex[]; data: Hex } }[] = [
    {
      weight: 4,
      kind: 'lending_supply',
      at: pool.fromBlock,
      make: () => log(pool.address, ev('Supply', 0), { reserve: USDC, onBehalfOf: W, referralCode: 0 }, [W, 10n ** 9n]),
    },
    {
      weight: 3,
      kind: 'lending_borrow',
      at: Math.max(pool.fromBlock, opts.firstBorrowBlock ?? 17_500_000),
      make: () => log(pool.address, ev('Borrow', 0), { reserve: USDC, onBehalfOf: W, referralCode: 0 }, [W, 10n ** 8n, 2, 0n]),
    },
    {
      weight: 3,
      kind: 'lending_repay',
      at: Math.max(pool.fromBlock, opts.firstBorrowBlock ?? 17_500_000),
      make: () => log(pool.address, ev('Repay', 0), { reserve: USDC, user: W, repayer: W }, [10n ** 8n, false]),
    },
    {
      weight: 2,
      kind: 'lending_supply',
      at: comet.fromBlock,
      make: () => log(comet.address, ev('Supply', 1), { from: W, dst: W }, [10n ** 9n]),
    },
    {
      weight: 2,
      kind: 'gov_vote',
      at: governor.fromBlock,
      make: (b) => log(governor.address, ev('VoteCast'), { voter: W }, [BigInt(b), 1, 10n ** 18n, '']),
    },
    {
      weight: 1,
      kind: 'gov_delegate',
      at: token.fromBlock,
      make: () => log(token.address, ev('DelegateChanged'), { delegator: W, fromDelegate: other, toDelegate: other }, []),
    },
    {
      weight: 1,
      kind: 'ens_register',
      at: ens.fromBlock,
      make: (b) =>
        log(ens.address, ev('NameRegistered', 1), { label: pad(`0x${b.toString(16)}`), owner: W }, [`name${b}`, 1n, 0n, 2n ** 40n]),
    },
    {
      weight: 1,
      kind: 'attestation_received',
      at: eas.fromBlock,
      make: (b) =>
        log(eas.address, ev('Attested'), { recipient: W, attester: other, schemaUID: pad('0x01') }, [pad(`0x${b.toString(16)}`)]),
    },
    {
      weight: 3,
      kind: 'swap',
      at: v2.fromBlock,
      make: () => log(pair, ev('Swap', 0), { sender: other, to: W }, [10n ** 6n, 0n, 0n, 10n ** 15n]),
    },
    {
      weight: 3,
      kind: 'swap',
      at: v3.fromBlock,
      make: () => log(pool3, ev('Swap', 1), { sender: other, recipient: W }, [10n ** 6n, -(10n ** 15n), 2n ** 96n, 10n ** 18n, 0]),
    },
  ];
  const sum = kinds.reduce((s, k) => s + k.weight, 0);
  const logs: SimLog[] = [];
  const expected: Record<string, number> = {};
  for (let i = 0; i < total; i++) {
    let r = rand() * sum;
    const k = kinds.find((x) => (r -= x.weight) < 0) ?? kinds[0];
    const block = k.at + 1 + Math.floor(rand() * (head - 200 - k.at));
    logs.push({ ...k.make(block), blockNumber: block, transactionHash: pad(`0x${(i + 1).toString(16)}`), logIndex: 0 });
    expected[k.kind] = (expected[k.kind] ?? 0) + 1;
  }
  // one delegation to the wallet: DelegateChanged names it at topic 3, DelegateVotesChanged at topic 1
  const db = token.fromBlock + 777_777;
  logs.push({
    ...log(token.address, ev('DelegateChanged'), { delegator: other, fromDelegate: other, toDelegate: W }, []),
    blockNumber: db,
    transactionHash: pad('0xde1e'),
    logIndex: 0,
  });
  logs.push({
    ...log(token.address, EXTRA[0], { delegate: W }, [0n, 10n ** 18n]),
    blockNumber: db,
    transactionHash: pad('0xde1e'),
    logIndex: 1,
  });
  expected.gov_delegated_to = 1;
  logs.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);

  const nonce = opts.nonce ?? 3;
  const code = new Map<string, number>();
  // the wallet deployed a contract with its first transaction
  code.set(getContractAddress({ from: W, nonce: 0n }).toLowerCase(), 12_345_678);
  expected.contract_deploy = 1;
  return { chainId, head, genesis: 1_438_269_973, wallet, nonce, logs, code, calls, expected };
}

function log(
  address: string,
  abi: (typeof EVENT_ABI)[number] | (typeof EXTRA)[number],
  indexed: Record<string, unknown>,
  data: unknown[],
): { address: string; topics: Hex[]; data: Hex } {
  const topics = encodeEventTopics({ abi: [abi], eventName: abi.name, args: indexed } as never) as Hex[];
  const inputs = (abi.inputs as readonly { type: string; name?: string; indexed?: boolean }[]).filter((i) => !i.indexed);
  return {
    address: address.toLowerCase(),
    topics: topics.map((t) => t.toLowerCase() as Hex),
    data: encodeAbiParameters(inputs as never, data as never),
  };
}
