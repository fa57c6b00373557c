// Lending positions over time, rebuilt from a wallet's own lending events. Pure: the same events
// always give the same summary, so it replays identically from any source (JSON-RPC, ethereum-etl, explorer).
//
// What a point of lending credit is backed by: debt outstanding x time, collateral x time, interest actually paid
// (repaid beyond what was borrowed) and borrow/repay cycles that lasted at least a day. A flash loop (supply,
// borrow, repay, withdraw in one transaction or block) holds nothing for any time and earns nothing.

/** One stored lending row of the wallet (wallet_activity kind lending_*). */
export interface LendingEvent {
  kind: 'lending_supply' | 'lending_borrow' | 'lending_repay' | 'lending_withdraw' | 'lending_liquidation';
  protocol: string;
  chainId: number;
  /** the pinned pool or Comet market */
  contract: string;
  /** Aave: the reserve (asset); Comet: the other party (the market's base asset is implied) */
  counterparty: string | null;
  /** raw units of the asset */
  amount: number;
  /** USD at the event (null: no price known) */
  usd: number | null;
  /** epoch milliseconds */
  at: number;
  block: number;
  /** order within the block */
  logIndex?: number;
  /** Aave V3 Repay with aTokens: the collateral shrinks too; 'atoken-transfer' / 'comet-transfer': a position moved
   *  between holders by the token's own Transfer (ingestion/decode.ts) */
  ref?: string | null;
}

export interface LendingPositions {
  /** integral of outstanding debt (USD, at most DEBT_RATE_CAP_USD at a time) over days */
  debtUsdDays: number;
  /** integral of collateral (USD, at most COLLATERAL_RATE_CAP_USD at a time) over days */
  collateralUsdDays: number;
  /** repaid beyond principal (USD), at most MAX_APR of the debt carried */
  interestUsd: number;
  /** borrows that stayed open at least a day and were repaid */
  cycles: number;
  /** distinct UTC months in which such a cycle completed */
  cycleMonths: number;
  /** mean duration of those cycles in days (null: none) */
  avgCycleDays: number | null;
  /** protocols in which the wallet held debt or collateral for at least a day */
  protocolsHeld: number;
  /** days from the first to the last moment the wallet held a position (only time with a position open) */
  spanDays: number;
  /** integral of outstanding debt over days without the per-moment cap: what the borrowed cash would have earned
   *  parked is counted on all of it (backing.ts) */
  rawDebtUsdDays?: number;
  /** days from the wallet's first borrow to its latest lending evidence: the tenure of its credit record */
  creditDays?: number;
  /** integral over time of debt / collateral (both USD, same market set) while it owed something against collateral
   *  it was seen to hold; with leveragedDays, the mean loan-to-value it kept */
  ltvDays?: number;
  /** days during which it owed something against collateral seen in the same protocol */
  leveragedDays?: number;
  /** each liquidation: its debt covered (USD, 0 when unvalued) and its age in days at the latest lending evidence */
  liquidationsAged?: { usd: number; ageDays: number }[];
}

export const EMPTY_POSITIONS: LendingPositions = {
  debtUsdDays: 0,
  collateralUsdDays: 0,
  interestUsd: 0,
  cycles: 0,
  cycleMonths: 0,
  avgCycleDays: null,
  protocolsHeld: 0,
  spanDays: 0,
  rawDebtUsdDays: 0,
  creditDays: 0,
  ltvDays: 0,
  leveragedDays: 0,
  liquidationsAged: [],
};

const DAY_MS = 86_400_000;
/** What counts of a position at any one moment: one day of anything earns at most this many USD-days. */
export const DEBT_RATE_CAP_USD = 250_000;
export const COLLATERAL_RATE_CAP_USD = 1_000_000;
/** Interest beyond this annual rate of the debt carried is not interest (a repayment of a debt never seen). */
export const MAX_APR = 0.25;
/** A cycle must stay open this long to count (a same-block or same-day round trip earns nothing). */
export const MIN_CYCLE_MS = DAY_MS;
/** An event with no known price counts as one worth this many USD: a documented, lower weight than a valued one. */
export const UNVALUED_EVENT_USD = 100;
/** A market never valued counts at most this much at a time (ten unvalued events' worth). */
export const UNVALUED_MARKET_MAX_USD = 1_000;
/** A debt below this (USD, or 1% of its peak) is repaid. */
const CLOSED_USD = 10;

interface Market {
  protocol: string;
  comet: boolean;
  /** USD per raw unit */
  price: number;
  /** no event of this market had a price: its position counts at most UNVALUED_MARKET_MAX_USD */
  unpriced: boolean;
  collateral: number;
  debt: number;
  /** principal still owed (raw), for interest */
  principal: number;
  peak: number;
  openedAt: number | null;
  openedBlock: number;
  heldSince: number | null;
}

const eventOrder = (a: LendingEvent, b: LendingEvent) =>
  a.at - b.at || a.chainId - b.chainId || a.block - b.block || (a.logIndex ?? 0) - (b.logIndex ?? 0);

const unitPrice = (e: LendingEvent) => (e.usd !== null && e.amount > 0 ? e.usd / e.amount : null);

/** One replay's running state: the markets, and the totals over time. */
interface Replay {
  /** each event's market key (marketKey), made once */
  keys: string[];
  markets: Map<string, Market>;
  /** per market, its largest event: a market never valued counts that as $100 */
  largest: Map<string, number>;
  /** leverage per protocol, zeroed and refilled on each step: one entry per protocol for the whole replay, added in
   *  the order its first pool market was opened (the order a map rebuilt from the markets on each step would have) */
  byProtocol: Map<string, { debt: number; coll: number }>;
  t: number;
  debtUsdDays: number;
  rawDebtUsdDays: number;
  collateralUsdDays: number;
  interestUsd: number;
  months: Set<string>;
  cycles: number;
  cycleMs: number;
  heldIn: Set<string>;
  firstHeld: number | null;
  lastHeld: number | null;
  firstBorrow: number | null;
  ltvDays: number;
  leveragedDays: number;
  liquidated: { usd: number; at: number }[];
}

const marketKey = (e: LendingEvent) =>
  e.protocol === 'compound-v3' ? `${e.chainId}:${e.contract}` : `${e.chainId}:${e.contract}:${e.counterparty ?? ''}`;

/**
 * Rebuilds the wallet's positions per market (chain, pool, reserve) from its events, in time order. Positions still
 * open count up to `until` (the wallet's latest recorded activity: there is no clock in the model).
 */
export function replayLending(all: readonly LendingEvent[], until?: number | null): LendingPositions {
  const events = withoutCometEchoes(all);
  if (events.length === 0) return EMPTY_POSITIONS;
  const sorted = inTimeOrder(events);
  const r = startReplay(sorted);
  for (let i = 0; i < sorted.length; i++) step(r, sorted[i], r.keys[i]);
  return summary(r, sorted[sorted.length - 1].at, until);
}

/** Events already in order (as a statement ordered by time hands them over) are used as they are: the stable sort
 *  would leave them unchanged. */
function inTimeOrder(events: readonly LendingEvent[]): readonly LendingEvent[] {
  for (let i = 1; i < events.length; i++) if (eventOrder(events[i - 1], events[i]) > 0) return [...events].sort(eventOrder);
  return events;
}

function startReplay(sorted: readonly LendingEvent[]): Replay {
  const largest = new Map<string, number>();
  const keys = new Array<string>(sorted.length);
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    const k = (keys[i] = marketKey(e));
    largest.set(k, Math.max(largest.get(k) ?? 0, e.amount));
  }
  return {
    keys,
    markets: new Map(),
    largest,
    byProtocol: new Map(),
    t: sorted[0].at,
    debtUsdDays: 0,
    rawDebtUsdDays: 0,
    collateralUsdDays: 0,
    interestUsd: 0,
    months: new Set(),
    cycles: 0,
    cycleMs: 0,
    heldIn: new Set(),
    firstHeld: null,
    lastHeld: null,
    firstBorrow: null,
    ltvDays: 0,
    leveragedDays: 0,
    liquidated: [],
  };
}

/** Counts what every market held from the last event up to `to`: debt and collateral over time, and leverage. */
function advance(r: Replay, to: number): void {
  const dt = to - r.t;
  if (dt <= 0) return;
  let debt = 0;
  let coll = 0;
  // leverage per protocol: debt against the collateral seen in the same protocol (a Comet account's collateral
  // assets are not read: its borrows count as unknown leverage)
  const byProtocol = r.byProtocol;
  for (const b of byProtocol.values()) b.debt = b.coll = 0;
  for (const m of r.markets.values()) {
    const cap = m.unpriced ? UNVALUED_MARKET_MAX_USD : Infinity;
    const d = Math.min(cap, m.debt * m.price);
    const c = Math.min(cap, m.collateral * m.price);
    debt += d;
    coll += c;
    if (!m.comet) {
      const b = byProtocol.get(m.protocol);
      if (b) {
        b.debt += d;
        b.coll += c;
      } else byProtocol.set(m.protocol, { debt: d, coll: c });
    }
    if ((m.debt > 0 || m.collateral > 0) && m.heldSince !== null && to - m.heldSince >= DAY_MS) r.heldIn.add(m.protocol);
  }
  if (debt >= CLOSED_USD || coll >= CLOSED_USD) {
    r.firstHeld ??= r.t;
    r.lastHeld = to;
  }
  let owed = 0;
  let against = 0;
  for (const b of byProtocol.values()) {
    if (b.debt >= CLOSED_USD && b.coll > 0) {
      owed += b.debt;
      against += b.coll;
    }
  }
  if (owed > 0) {
    r.ltvDays += (Math.min(1, owed / against) * dt) / DAY_MS;
    r.leveragedDays += dt / DAY_MS;
  }
  r.debtUsdDays += (Math.min(debt, DEBT_RATE_CAP_USD) * dt) / DAY_MS;
  r.rawDebtUsdDays += (debt * dt) / DAY_MS;
  r.collateralUsdDays += (Math.min(coll, COLLATERAL_RATE_CAP_USD) * dt) / DAY_MS;
  r.t = to;
}

/** The market an event belongs to, opened at its first event, with its latest price. */
function marketOf(r: Replay, e: LendingEvent, k: string): Market {
  let m = r.markets.get(k);
  if (!m) {
    m = {
      protocol: e.protocol,
      comet: e.protocol === 'compound-v3',
      price: 0,
      unpriced: true,
      collateral: 0,
      debt: 0,
      principal: 0,
      peak: 0,
      openedAt: null,
      openedBlock: 0,
      heldSince: null,
    };
    r.markets.set(k, m);
  }
  const p = unitPrice(e);
  if (p !== null) {
    m.price = p;
    m.unpriced = false;
  } else if (m.price === 0) m.price = UNVALUED_EVENT_USD / Math.max(1, r.largest.get(k) ?? 1);
  return m;
}

function step(r: Replay, e: LendingEvent, key: string): void {
  advance(r, e.at);
  const m = marketOf(r, e, key);
  const wasOpen = m.debt > 0 || m.collateral > 0;
  const repaid = m.comet ? applyComet(r, m, e) : applyEvent(r, m, e);
  const isOpen = m.debt > 0 || m.collateral > 0;
  if (!wasOpen && isOpen) m.heldSince = e.at;
  if (!isOpen) m.heldSince = null;
  // a loan closes when what is left is below $10 or 1% of its peak; it completes a cycle if it lasted a day
  if (repaid > 0 && m.openedAt !== null && (m.debt * m.price < CLOSED_USD || m.debt <= m.peak * 0.01)) closeLoan(r, m, e);
}

/** A Comet account is one signed balance of the base asset: below zero it is a borrow. Returns the debt repaid. */
function applyComet(r: Replay, m: Market, e: LendingEvent): number {
  const x = e.amount;
  const bal = m.collateral - m.debt;
  let repaid = 0;
  if (e.kind === 'lending_supply') repaid = Math.min(x, m.debt);
  if (e.kind === 'lending_withdraw' && (x - Math.max(0, bal)) * m.price >= CLOSED_USD) r.firstBorrow ??= e.at;
  if (e.kind === 'lending_liquidation') r.liquidated.push({ usd: e.usd ?? 0, at: e.at });
  const next =
    e.kind === 'lending_supply'
      ? bal + x
      : e.kind === 'lending_withdraw'
        ? bal - x
        : e.kind === 'lending_liquidation'
          ? Math.max(0, bal)
          : bal;
  if (next < 0 && m.debt === 0) open(m, e);
  if (next < 0) m.peak = Math.max(m.peak, -next);
  m.principal = Math.max(0, -next);
  m.collateral = Math.max(0, next);
  m.debt = Math.max(0, -next);
  return repaid;
}

/** A pool market (Aave, Spark, Compound V2, Morpho): collateral and debt apart. Returns the debt repaid. */
function applyEvent(r: Replay, m: Market, e: LendingEvent): number {
  const x = e.amount;
  if (e.kind === 'lending_supply') {
    m.collateral += x;
  } else if (e.kind === 'lending_withdraw') {
    m.collateral = Math.max(0, m.collateral - x);
  } else if (e.kind === 'lending_borrow') {
    if (x * m.price >= CLOSED_USD) r.firstBorrow ??= e.at;
    if (m.debt === 0) open(m, e);
    m.debt += x;
    m.principal += x;
    m.peak = Math.max(m.peak, m.debt);
  } else if (e.kind === 'lending_repay') {
    const principalPart = Math.min(x, m.principal);
    m.principal -= principalPart;
    // repaid beyond every unit borrowed: interest the wallet paid
    if (x > principalPart) r.interestUsd += (x - principalPart) * m.price;
    m.debt = Math.max(0, m.debt - x);
    if (m.principal === 0) m.debt = 0;
    if (e.ref === 'atokens') m.collateral = Math.max(0, m.collateral - x);
    return x;
  } else if (e.kind === 'lending_liquidation') {
    r.liquidated.push({ usd: e.usd ?? 0, at: e.at });
    m.debt = Math.max(0, m.debt - x);
    m.principal = Math.min(m.principal, m.debt);
    m.openedAt = null; // a liquidated loan is no completed cycle
  }
  return 0;
}

/** A repaid loan closes; held a day or more (and across blocks, and worth $10 at its peak) it is a cycle. */
function closeLoan(r: Replay, m: Market, e: LendingEvent): void {
  const lasted = e.at - m.openedAt!;
  if (lasted >= MIN_CYCLE_MS && e.block > m.openedBlock && m.peak * m.price >= CLOSED_USD) {
    r.cycles++;
    r.cycleMs += lasted;
    const d = new Date(e.at);
    r.months.add(`${d.getUTCFullYear()}-${d.getUTCMonth()}`);
  }
  m.debt = 0;
  m.principal = 0;
  m.peak = 0;
  m.openedAt = null;
  if (m.collateral === 0) m.heldSince = null;
}

function summary(r: Replay, lastEvent: number, until: number | null | undefined): LendingPositions {
  const end = Math.max(lastEvent, until ?? 0);
  advance(r, end);
  const interestUsd = Math.min(r.interestUsd, (r.debtUsdDays * MAX_APR) / 365);
  // the wallet's latest recorded activity dates the record (no clock in the model): a liquidation ages only while
  // the wallet keeps a history after it
  return {
    debtUsdDays: r.debtUsdDays,
    collateralUsdDays: r.collateralUsdDays,
    interestUsd,
    cycles: r.cycles,
    cycleMonths: r.months.size,
    avgCycleDays: r.cycles ? r.cycleMs / r.cycles / DAY_MS : null,
    protocolsHeld: r.heldIn.size,
    spanDays: r.firstHeld !== null && r.lastHeld !== null ? (r.lastHeld - r.firstHeld) / DAY_MS : 0,
    rawDebtUsdDays: r.rawDebtUsdDays,
    creditDays: r.firstBorrow !== null ? Math.max(0, lastEvent - r.firstBorrow) / DAY_MS : 0,
    ltvDays: r.ltvDays,
    leveragedDays: r.leveragedDays,
    liquidationsAged: r.liquidated.map((l) => ({ usd: l.usd, ageDays: Math.max(0, end - l.at) / DAY_MS })),
  };
}

/**
 * A Comet market logs a base balance's positive part as its own ERC-20: a mint Transfer(0, account) right after a
 * Supply (the part that did not repay debt) and a burn Transfer(account, 0) right after a Withdraw (the part that
 * came out of a positive balance), and the same mint and burn alone for `transfer`/`transferFrom` of base. Decode
 * stores each as a 'comet-transfer' supply or withdrawal; the one that is the next log after a Supply (or Withdraw)
 * of the same market and account, in the same block, is that event's own echo and is dropped: counted once. Without
 * such a partner it is a transfer: a withdrawal from the sender's balance, a supply to the receiver's.
 */
function withoutCometEchoes(events: readonly LendingEvent[]): readonly LendingEvent[] {
  if (!events.some((e) => e.ref === 'comet-transfer')) return events;
  const at = (e: LendingEvent, logIndex: number) => `${e.chainId}:${e.contract}:${e.block}:${logIndex}:${e.kind}`;
  const own = new Set(
    events
      .filter((e) => e.protocol === 'compound-v3' && e.ref !== 'comet-transfer' && e.logIndex !== undefined)
      .map((e) => at(e, e.logIndex!)),
  );
  return events.filter((e) => !(e.ref === 'comet-transfer' && e.logIndex !== undefined && own.has(at(e, e.logIndex - 1))));
}

function open(m: Market, e: LendingEvent) {
  m.openedAt = e.at;
  m.openedBlock = e.block;
  m.peak = 0;
}
