// Which eth_getLogs a wallet's sync asks, per block window: one query per topic position where the wallet can
// appear, over the registry's pinned contracts active in that window (address filter, from each contract's
// deployment block). Uniswap pools cannot be listed (millions, created by anyone), so swaps are asked by topic
// from any emitter, from the factory's deployment block; such a position's query then carries no address filter
// and asks only the selectors of the events it wants, and every log is kept only if its emitter is pinned or it
// is a swap (decode keeps a swap only when the registry derives the pool from the factory).
// Two positions need no scan of their own: a liquidation (position 3) can only follow a borrow, so it is asked
// from the wallet's first borrow on; a delegation to the wallet (DelegateChanged position 3) moves votes, which the
// token announces as DelegateVotesChanged(delegate) at position 1, so the delegation is fetched for those blocks
// only (a delegation that moves no votes earns no credit).
import { toEventSelector } from 'viem';
import { EVENTS, MORPHO_POSITION_EVENTS, type EventDef } from './events.js';
import type { LogQuery } from './rpc-source.js';
import { contractInfo, cTokenInfo } from './registry/index.js';

export interface Pinned {
  address: string;
  protocol: string;
  role: string;
  fromBlock: number;
}

type Position = 1 | 2 | 3;

export interface Stream {
  position: Position;
  /** null: any emitter (swaps) */
  address: string | null;
  selectors: string[];
  fromBlock: number;
  /** asked only from the wallet's first record of this kind on the chain */
  after?: 'lending_borrow';
}

export const DELEGATE_VOTES_CHANGED = toEventSelector(
  'event DelegateVotesChanged(address indexed delegate, uint256 previousBalance, uint256 newBalance)',
);
/** Compound V2's Comptroller on every borrow and repay (COMP distribution), the borrower at position 2: the only log of
 *  a cETH borrow or repay that names the wallet in a topic (ether moves without a Transfer). Not evidence itself:
 *  it marks the transactions whose receipts sync.ts reads for the cToken's own events. */
export const DISTRIBUTED_BORROWER_COMP = toEventSelector(
  'event DistributedBorrowerComp(address indexed cToken, address indexed borrower, uint256 compDelta, uint256 compBorrowIndex)',
);
/** Moonwell's MultiRewardDistributor on every borrow and repay (from its Comptroller), the borrower at position 2 and
 *  the market at 1: the only log naming the wallet in a topic when mWETH pays a borrow out as ether (through its WETH
 *  unwrapper) or its WETH router repays one. Not evidence either: it marks transactions, as DistributedBorrowerComp.
 *  Emitted once per reward stream of the market, so not for a market that has none. */
export const DISBURSED_BORROWER_REWARDS = toEventSelector(
  'event DisbursedBorrowerRewards(address indexed mToken, address indexed borrower, address indexed emissionToken, uint256 totalAccrued)',
);
/** Who emits each borrower mark (a cToken at topic 1, the borrower at topic 2, on every borrow and repay): the plan
 *  asks that contract for it at position 2 (streamsOf), and its transactions' receipts are read (borrowerMarked). */
const BORROWER_MARKS: Record<string, { role: string; protocol?: string; topics: number }> = {
  // Compound's own Comptroller (Moonwell's distributes through its reward distributor)
  [DISTRIBUTED_BORROWER_COMP]: { role: 'comptroller', protocol: 'compound-v2', topics: 3 },
  [DISBURSED_BORROWER_REWARDS]: { role: 'reward-distributor', topics: 4 },
};
const emitsMark = (c: { role: string; protocol: string } | undefined, m: { role: string; protocol?: string }) =>
  c?.role === m.role && (m.protocol === undefined || c.protocol === m.protocol);
/** The address in a topic word (lowercase), or '' when the word is not one. */
export const topicAddress = (t: string | undefined) => (t && t.length === 66 ? `0x${t.slice(26)}`.toLowerCase() : '');
/** Whether `log` is a pinned Comptroller's or reward distributor's mark of a borrow or repay by `wallet` in a pinned
 *  cToken: its transaction's receipt holds the cToken's own events. */
export function borrowerMarked(chainId: number, wallet: string, log: { address: string; topics: readonly string[] }): boolean {
  const mark = BORROWER_MARKS[log.topics[0]?.toLowerCase() ?? ''];
  return (
    mark !== undefined &&
    log.topics.length === mark.topics &&
    topicAddress(log.topics[2]) === wallet &&
    emitsMark(contractInfo(chainId, log.address), mark) &&
    cTokenInfo(chainId, topicAddress(log.topics[1])) !== undefined
  );
}
const sel = (...names: EventDef['name'][]) => EVENTS.filter((e) => names.includes(e.name)).map((e) => e.topic0 as string);
export const SWAP_SELECTORS = sel('UniswapV2Swap', 'UniswapV3Swap');
export const DELEGATE_CHANGED = sel('DelegateChanged')[0];

/** The events each registry role emits that can name a wallet (positions from events.ts). */
const ROLE_EVENTS: Record<string, EventDef['name'][]> = {
  'lending-pool': [
    'AaveSupply',
    'AaveBorrow',
    'AaveRepay',
    'AaveV2Deposit',
    'AaveV2Borrow',
    'AaveV2Repay',
    'AaveLiquidationCall',
    'AaveWithdraw',
  ],
  // an aToken's Transfer(from, to) moves collateral between holders (decode.ts): asked with the wallet as from (1) and
  // as to (2); the token transfer scan asks those positions from every emitter anyway, so this costs no query
  'a-token': ['Transfer'],
  // a Comet market is its own ERC-20 of base balances: its Transfer(src, 0) and Transfer(0, dst) move a balance (a
  // `transfer` of base emits nothing else, decode.ts); positions 1 and 2 are asked anyway, so no query of its own
  comet: ['CometSupply', 'CometWithdraw', 'CometAbsorbDebt', 'Transfer'],
  // Morpho Blue names the position's owner in a topic of every event
  'morpho-blue': [...MORPHO_POSITION_EVENTS],
  // a Compound V2 cToken names the wallet only in its data: its Transfer (positions 1 and 2, asked anyway) finds the
  // transactions of a mint, a redeem or a move, and the wallet's underlying Transfer to or from a cToken those of a
  // borrow or a repay; cETH's borrows and repays move ether, with no Transfer: the Comptroller's
  // DistributedBorrowerComp (position 2, see streamsOf) finds them; sync.ts then reads those transactions' receipts
  // for the cToken's own events
  'c-token': ['Transfer'],
  // Uniswap V4 and Balancer V2: a wallet calling the PoolManager itself (sender), or providing liquidity; a swap
  // through a router names the router (found by the explorer source or an import, as routed V2/V3 swaps)
  'v4-pool-manager': ['UniswapV4Swap', 'UniswapV4ModifyLiquidity'],
  'balancer-vault': ['BalancerPoolBalanceChanged'],
  governor: ['VoteCast', 'VoteCastWithParams'],
  // a governance token's own transfers are asked too: the same positions are asked anyway, so they cost no window
  'votes-token': ['DelegateChanged', 'DelegateVotesChanged', 'Transfer'],
  'ens-controller': ['EnsNameRegisteredV1', 'EnsNameRegisteredV2'],
  'ens-base-registrar': ['EnsBaseNameRegistered'],
  eas: ['Attested'],
};

function streamsOf(c: Pinned): Stream[] {
  if (c.role === 'dex-factory') {
    const selectors = c.protocol.endsWith('v2') ? sel('UniswapV2Swap') : sel('UniswapV3Swap');
    return [1, 2].map((p) => ({ position: p as Position, address: null, selectors, fromBlock: c.fromBlock }));
  }
  const by = new Map<Position, Set<string>>();
  const gated = new Set<string>();
  for (const e of EVENTS.filter((x) => ROLE_EVENTS[c.role]?.includes(x.name))) {
    for (const p of e.walletTopics as Position[]) {
      // delegations to the wallet are found through DelegateVotesChanged (position 1), see above
      if (e.name === 'DelegateChanged' && p === 3) continue;
      if (e.name === 'AaveLiquidationCall' || e.name === 'MorphoLiquidate') gated.add(e.topic0);
      (by.get(p) ?? by.set(p, new Set()).get(p)!).add(e.topic0);
    }
  }
  if (c.role === 'votes-token') (by.get(1) ?? by.set(1, new Set()).get(1)!).add(DELEGATE_VOTES_CHANGED);
  // position 2 is asked anyway: a borrower mark's emitter and selector cost no query of their own
  for (const [selector, m] of Object.entries(BORROWER_MARKS)) if (emitsMark(c, m)) by.set(2, new Set([selector]));
  const out: Stream[] = [];
  for (const [position, set] of by) {
    const open = [...set].filter((t) => !gated.has(t));
    const closed = [...set].filter((t) => gated.has(t));
    if (open.length) out.push({ position, address: c.address, selectors: open, fromBlock: c.fromBlock });
    if (closed.length) out.push({ position, address: c.address, selectors: closed, fromBlock: c.fromBlock, after: 'lending_borrow' });
  }
  return out; // routers and anything else: labelled, never evidence
}

/** Without a registry for the chain: every known event at every position, any emitter, from genesis. */
function unpinnedStreams(): Stream[] {
  const by = new Map<number, Set<string>>();
  for (const e of EVENTS) for (const p of e.walletTopics) (by.get(p) ?? by.set(p, new Set()).get(p)!).add(e.topic0);
  return [...by].map(([p, s]) => ({ position: p as Position, address: null, selectors: [...s], fromBlock: 0 }));
}

export interface LogPlan {
  streams: Stream[];
  /** first block any stream needs */
  start: number;
  /** Whether a log found by this plan may be evidence (its emitter pinned, or a swap). */
  keep(log: { address: string; topics: string[] }): boolean;
  /** Queries for one window; `opened`: first block of each gated kind (or absent). */
  queries(wallet: string, from: number, to: number, opened: Partial<Record<'lending_borrow', number>>): LogQuery[];
}

export const walletTopic = (wallet: string) => `0x${wallet.slice(2).toLowerCase().padStart(64, '0')}`;

/** Token and NFT transfers are the wallet's own movements (any token, see registry/gate.ts): asked by topic from
 *  any emitter, from the first block any pinned contract needs, at positions 1 and 2 only, which the evidence scan
 *  asks anyway, so they cost no query of their own. ERC-20/721 `Transfer(from, to)` is found both ways. ERC-1155
 *  names the wallet at 1 (operator: its own mints and moves) and 2 (from); a third position for ERC-1155 sent to
 *  the wallet by others would cost a third of all calls: those, and transfers older than the first pinned
 *  contract, come from the explorer source or a bulk import (docs/ingestion.md). */
export const TRANSFER_SELECTORS = sel('Transfer', 'TransferSingle', 'TransferBatch');
const transferStreams = (fromBlock: number): Stream[] =>
  [1, 2].map((p) => ({ position: p as Position, address: null, selectors: TRANSFER_SELECTORS, fromBlock }));

export function buildPlan(pinned: Pinned[] | null): LogPlan {
  const evidence = pinned ? pinned.flatMap(streamsOf) : unpinnedStreams();
  const streams = pinned && evidence.length ? [...evidence, ...transferStreams(Math.min(...evidence.map((s) => s.fromBlock)))] : evidence;
  const addresses = new Set((pinned ?? []).map((c) => c.address.toLowerCase()));
  return {
    streams,
    start: streams.length ? Math.min(...streams.map((s) => s.fromBlock)) : Number.MAX_SAFE_INTEGER,
    keep(log) {
      if (!pinned) return true;
      const topic0 = log.topics[0]?.toLowerCase();
      return addresses.has(log.address.toLowerCase()) || SWAP_SELECTORS.includes(topic0) || TRANSFER_SELECTORS.includes(topic0);
    },
    queries(wallet, from, to, opened) {
      const out: LogQuery[] = [];
      for (const position of [1, 2, 3] as const) {
        const active = streams.filter(
          (s) => s.position === position && s.fromBlock <= to && (!s.after || (opened[s.after] ?? Infinity) <= to),
        );
        if (!active.length) continue;
        const start = Math.max(from, Math.min(...active.map((s) => Math.max(s.fromBlock, s.after ? opened[s.after]! : 0))));
        const anyEmitter = active.some((s) => s.address === null);
        const selectors = [...new Set(active.flatMap((s) => s.selectors))];
        const topics: (string | string[] | null)[] = [selectors, null, null, null].slice(0, position + 1);
        topics[position] = walletTopic(wallet);
        out.push({ address: anyEmitter ? null : [...new Set(active.map((s) => s.address!))], topics, fromBlock: start, toBlock: to });
      }
      return out;
    },
  };
}
