// A deterministic population of wallets for the model's golden test and its benchmark: a seeded generator (no
// Math.random, no clock), lending histories that exercise repayments, interest, leverage, liquidations and Comet
// balances, and every other category's features, signals included.
import type { ComplianceSignal, DebtClaimSignal, IdentitySignal, WalletFeatures } from '../contracts.js';
import { emptyFeatures, type ModelInput } from './index.js';
import { replayLending, type LendingEvent } from './lending-positions.js';
import { seeded } from '../../../platform/seeded-random.js';

const DAY = 86_400_000;
/** a fixed "now" so the population never depends on the clock */
export const POPULATION_NOW = Date.UTC(2026, 5, 1);
const KINDS = ['lending_supply', 'lending_borrow', 'lending_repay', 'lending_withdraw', 'lending_liquidation'] as const;

export function lendingHistory(rand: () => number): LendingEvent[] {
  const r = (n: number) => Math.floor(rand() * n);
  const n = r(4) === 0 ? 0 : r(40);
  const events: LendingEvent[] = [];
  let at = POPULATION_NOW - (30 + r(900)) * DAY;
  let block = 15_000_000 + r(1_000_000);
  for (let i = 0; i < n; i++) {
    const comet = r(5) === 0;
    const sameTx = r(6) === 0;
    if (!sameTx) {
      at += r(3) === 0 ? r(3600_000) : r(40) * DAY + r(DAY);
      block += 1 + r(5000);
    }
    // borrow/repay cycles more often than the rest, a liquidation now and then
    const k = r(20);
    const kind = k < 5 ? KINDS[0] : k < 10 ? KINDS[1] : k < 16 ? KINDS[2] : k < 19 ? KINDS[3] : KINDS[4];
    const amount = r(8) === 0 ? 0 : (1 + r(5000)) * (r(3) === 0 ? 1e3 : 1);
    const usd = r(6) === 0 ? null : amount * (0.5 + rand() * 2);
    events.push({
      kind,
      protocol: comet ? 'compound-v3' : r(3) === 0 ? 'spark' : 'aave-v3',
      chainId: r(4) === 0 ? 10 : 1,
      contract: comet ? '0xc3d688b66703497daa19211eedff47f25384cdc3' : '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
      counterparty: comet ? null : ['0xa0b8', '0xdac1', '0xc02a'][r(3)],
      amount,
      usd,
      at,
      block,
      logIndex: r(4) === 0 ? undefined : r(300),
      ref: comet && r(4) === 0 ? 'comet-transfer' : kind === 'lending_repay' && r(5) === 0 ? 'atokens' : null,
    });
  }
  return events;
}

/** DEFI_LENDING's features, the positions replayed from the generated history. */
function lendingFeatures(events: LendingEvent[], r: (n: number) => number): WalletFeatures['lending'] {
  const until = events.length ? events[events.length - 1].at + r(60) * DAY : null;
  const count = (k: string) => events.filter((e) => e.kind === k).length;
  return {
    supplies: count('lending_supply'),
    borrows: count('lending_borrow'),
    repays: count('lending_repay'),
    liquidations: count('lending_liquidation'),
    protocols: new Set(events.map((e) => e.protocol)).size,
    suppliedUsd: r(1e6),
    borrowedUsd: r(5e5),
    repaidUsd: r(5e5),
    liquidatedUsd: r(1e4),
    unvaluedSupplies: r(5),
    unvaluedBorrows: r(5),
    unvaluedRepays: r(5),
    avgDaysToRepay: r(4) === 0 ? null : r(200),
    positions: replayLending(events, until),
  };
}

/** The other categories' features, drawn in a fixed order (the seed decides every value). */
function otherCategories(f: WalletFeatures, r: (n: number) => number, rand: () => number): void {
  f.trading = { swaps: r(300), distinctPools: r(40), protocols: r(4), activeDays: r(100), volumeUsd: r(2e6), unvaluedSwaps: r(20) };
  if (r(2)) {
    f.trading.feesUsd = r(5000) + rand();
    f.trading.backedFeesUsd = r(3) ? f.trading.feesUsd * rand() : 0;
    f.trading.discounted = { ownLiquidity: r(3), clusterLiquidity: r(3), sameBlockLiquidity: r(2), roundTrips: r(10) };
  }
  const at = () => (r(8) === 0 ? null : new Date(POPULATION_NOW - r(400) * DAY));
  f.evidenceAt = { lending: at(), trading: at(), governance: at(), nft: at(), identity: at(), social: at(), developer: at() };
  f.governance = { votes: r(30), proposalsVotedOn: r(30), delegationsMade: r(3), delegationsReceived: r(5), governors: r(4) };
  if (r(2)) Object.assign(f.governance, { votePower: rand() * 20, delegatedPower: rand() * 5, selfDelegations: r(3) });
  f.nft = { mints: r(20), received: r(40), sent: r(20), collections: r(15) };
  if (r(2)) Object.assign(f.nft, { unlisted: r(10), notTheirs: r(10) });
  f.developer = { contractsDeployed: r(10), contractsWithCode: r(8) };
  if (r(2)) Object.assign(f.developer, { usedContracts: r(5), thirdPartyUsers: r(200) });
  f.identity = { ensNames: r(2), attestationsReceived: r(5), attestationsMade: r(5) };
  if (r(2)) Object.assign(f.identity, { untrustedReceived: r(4), untrustedMade: r(4) });
  if (r(3)) {
    const gl = rand() * 300;
    const gt = rand() * 500;
    const gg = rand() * 50;
    f.gasUsd = { lending: gl, trading: gt, governance: gg, total: gl + gt + gg + rand() * 100 };
  }
  f.evidenceCount = r(5000);
}

/** Compliance, identity and debt claims of wallet i. */
function populationSignals(
  i: number,
  f: WalletFeatures,
  r: (n: number) => number,
  rand: () => number,
): { compliance: ComplianceSignal | null; identity: IdentitySignal | null; claims: DebtClaimSignal[] } {
  const compliance: ComplianceSignal | null =
    r(3) === 0
      ? null
      : ({
          sanctioned: r(50) === 0 ? true : r(5) === 0 ? null : false,
          kycStatus: (['none', 'pending', 'approved', 'rejected'] as const)[r(4)],
          kycLevel: (['none', 'basic', 'full'] as const)[r(3)],
        } as ComplianceSignal);
  const identity: IdentitySignal | null =
    r(3) === 0
      ? null
      : ({
          did: r(2) ? `did:ethr:${f.address}` : null,
          hasDid: r(2) === 1,
          didCreatedAt: r(2) ? new Date(POPULATION_NOW - r(700) * DAY) : null,
          activeCredentials: r(4),
        } as IdentitySignal);
  const claims: DebtClaimSignal[] = [];
  for (let c = r(6) === 0 ? 1 + r(3) : 0; c > 0; c--) {
    const createdAt = new Date(POPULATION_NOW - r(500) * DAY);
    const status = (['Pending', 'Disputed', 'Resolved', 'Withdrawn'] as const)[r(4)];
    claims.push({
      id: `c${i}-${c}`,
      creditorAddress: `0x${(i * 7 + c).toString(16).padStart(40, 'c')}`,
      status,
      inFavorOf: status === 'Resolved' ? (r(2) ? 'creditor' : 'debtor') : null,
      amount: String(1 + r(50_000)),
      currency: r(3) ? 'USDC' : 'ETH',
      createdAt,
      updatedAt: new Date(createdAt.getTime() + r(30) * DAY),
      resolvedAt: status === 'Resolved' || status === 'Withdrawn' ? new Date(createdAt.getTime() + r(60) * DAY) : null,
      verified: r(2) === 1,
      creditorWeight: rand(),
      inNotice: r(4) === 0,
    } as DebtClaimSignal);
  }
  return { compliance, identity, claims };
}

/** One wallet of the population: its features (positions replayed from a generated history) and signals. */
export function populationWallet(i: number, seed = 1): ModelInput & { events: LendingEvent[] } {
  const rand = seeded(seed * 1_000_003 + i);
  const r = (n: number) => Math.floor(rand() * n);
  const f: WalletFeatures = emptyFeatures(`0x${i.toString(16).padStart(40, '0')}`);
  if (r(200) === 0) {
    f.accountType = 'contract';
    f.contractLabel = r(2) ? 'Uniswap V3: Router' : null;
  }
  f.chains = [1, 10, 137].slice(0, 1 + r(3));
  f.firstActivityAt = new Date(POPULATION_NOW - r(1000) * DAY);
  f.lastActivityAt = new Date(POPULATION_NOW - r(90) * DAY);
  f.txCount = r(2000);
  f.activeDays = r(300);
  f.activeMonths = r(36);
  f.distinctCounterparties = r(200);
  f.tokenTransfers = r(1000);
  f.distinctTokens = r(50);
  f.ageDays = r(1500);
  const events = lendingHistory(rand);
  f.lending = lendingFeatures(events, r);
  otherCategories(f, r, rand);
  const { compliance, identity, claims } = populationSignals(i, f, r, rand);
  return { features: f, claims, compliance, identity, events };
}
