// Features of wallets read from the activity table (one statement per chunk of wallets) and turned into the model's
// input (WalletFeatures), with the lending positions replayed over time.
import { prepared, type Queryable } from '../../../platform/db/types.js';
import { protocolContract } from '../../ingestion/contracts.js';
import type { WalletFeatures } from '../contracts.js';
import { replayLending, type LendingEvent, type LendingPositions } from '../model/lending-positions.js';
import { COSTS, DUST_USD, establishedPools, listedCollections, NATIVE_PRICES } from './params.js';
import { FEATURES_MANY_SQL } from './sql.js';

type LendingRow = [
  LendingEvent['kind'],
  string,
  number,
  string,
  string | null,
  number,
  number | null,
  number,
  number | string,
  string | null,
  number,
];

/** Positions over time from the wallet's lending rows, up to its latest recorded activity. */
function lendingFromRows(raw: unknown, last: Date | null): { avgDaysToRepay: number | null; positions: LendingPositions } {
  const rows = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as LendingRow[];
  const events: LendingEvent[] = rows.map(([kind, protocol, chainId, contract, counterparty, amount, usd, at, block, ref, logIndex]) => ({
    kind,
    protocol,
    chainId: Number(chainId),
    contract,
    counterparty,
    amount: Number(amount),
    usd: usd === null ? null : Number(usd),
    at: Number(at),
    block: Number(block),
    logIndex: Number(logIndex),
    ref,
  }));
  const positions = replayLending(events, last?.getTime());
  return { avgDaysToRepay: positions.avgCycleDays === null ? null : Math.round(positions.avgCycleDays * 10) / 10, positions };
}

// no JIT: the estimate of a chunk crosses jit_above_cost, and compiling took 4.7 s where running took 0.2 s; one
// generic plan per connection: planning the statement for a chunk's parameters took about as long as running it
const FEATURES_MANY = { ...prepared(FEATURES_MANY_SQL), jit: false as const, genericPlan: true as const };
/** Wallets per statement on a server. */
export const FEATURES_CHUNK = 100;

/** Chunk sizes that keep each statement near `targetMs`. PGlite runs a statement on this process's event loop
 *  without a break, has no prepared statements (planning ~30 ms a statement), and runs ~3 ms a wallet of 60
 *  records: chunks as large as the pause allows, smaller for wallets with long histories. */
export interface ChunkSizer {
  readonly size: number;
  took(ms: number, wallets: number): void;
}
export function chunkSizer(targetMs: number, min = 4, max = FEATURES_CHUNK): ChunkSizer {
  let size = min * 3;
  return {
    get size() {
      return size;
    },
    took(ms, wallets) {
      if (ms > targetMs * 1.5) size = Math.max(min, Math.floor(size / 2));
      else if (ms < targetMs / 2 && wallets >= size) size = Math.min(max, size * 2);
    },
  };
}

/** The features statement's parameters for a chunk of wallets (exported with the statement for EXPLAIN in benches). */
export const featuresParams = (wallets: string[]): unknown[] => [
  wallets,
  DUST_USD,
  COSTS.trading.unvaluedSwapUsd,
  COSTS.trading.dayFeeCapUsd,
  COSTS.trading.dayFeeFloorUsd,
  COSTS.governance.voteFloorTokens,
  COSTS.governance.fullPowerTokens,
  COSTS.social.nativeFloorWei,
  listedCollections(),
  COSTS.nft.independentHolders,
  establishedPools(),
  ...NATIVE_PRICES,
];

export async function featuresForMany(q: Queryable, wallets: string[], chunk: number | ChunkSizer): Promise<WalletFeatures[]> {
  const out: WalletFeatures[] = [];
  for (let i = 0; i < wallets.length;) {
    const n = typeof chunk === 'number' ? chunk : chunk.size;
    const t = performance.now();
    const rows = await q.query<Record<string, unknown>>(FEATURES_MANY_SQL, featuresParams(wallets.slice(i, i + n)), FEATURES_MANY);
    if (typeof chunk !== 'number') chunk.took(performance.now() - t, rows.length);
    for (const r of rows) out.push(toFeatures(r));
    i += n;
  }
  return out;
}

/** How a pool that emitted stored swaps is named (a protocol contract, not a user). */
export const poolLabel = (protocol: string) => `${protocol === 'uniswap-v2' ? 'Uniswap V2' : 'Uniswap V3'} pool (factory-derived)`;

const micro = (x: number) => Math.round(x * 1e6) / 1e6;

/** A numeric column of the features row (absent: 0). */
type Num = (column: string) => number;

function tradingOf(n: Num): WalletFeatures['trading'] {
  return {
    swaps: n('swaps'),
    distinctPools: n('pools'),
    protocols: n('swap_protocols'),
    activeDays: n('swap_days'),
    volumeUsd: n('volume_usd'),
    unvaluedSwaps: n('unvalued_swaps'),
    feesUsd: n('fees_usd'),
    backedFeesUsd: n('backed_fees_usd'),
    discounted: {
      ownLiquidity: n('swaps_own_lp'),
      clusterLiquidity: n('swaps_cluster_lp'),
      sameBlockLiquidity: n('swaps_jit'),
      roundTrips: n('swaps_round_trip'),
    },
  };
}

function governanceOf(n: Num): WalletFeatures['governance'] {
  return {
    votes: n('votes'),
    proposalsVotedOn: n('proposals'),
    delegationsMade: n('delegations_made'),
    delegationsReceived: n('delegations_received'),
    governors: n('governors'),
    votePower: n('vote_power'),
    delegatedPower: n('delegated_power'),
    selfDelegations: n('self_delegations'),
  };
}

function nftOf(n: Num): WalletFeatures['nft'] {
  return {
    mints: n('mints'),
    received: n('nft_received'),
    sent: n('nft_sent'),
    collections: n('collections'),
    unlisted: n('nft_unlisted'),
    notTheirs: n('nft_not_theirs'),
  };
}

function developerOf(n: Num): WalletFeatures['developer'] {
  return {
    contractsDeployed: n('deployed'),
    contractsWithCode: n('with_code'),
    usedContracts: n('used_contracts'),
    thirdPartyUsers: n('third_party_users'),
  };
}

function identityOf(n: Num): WalletFeatures['identity'] {
  return {
    ensNames: n('ens_names'),
    attestationsReceived: n('att_received'),
    attestationsMade: n('att_made'),
    untrustedReceived: n('att_received_untrusted'),
    untrustedMade: n('att_made_untrusted'),
  };
}

function toFeatures(r: Record<string, unknown>): WalletFeatures {
  const wallet = r.wallet_key as string;
  const n: Num = (k) => Number(r[k] ?? 0);
  const chains = new Set<number>([...((r.chains as number[] | null) ?? []), ...((r.sync_chains as number[] | null) ?? [])].map(Number));
  const date = (v: unknown) => (v ? new Date(v as string | Date) : null);
  const first = date(r.first_at);
  const last = date(r.last_at);
  const pool = r.pool_protocol as string | null;
  const known = protocolContract(wallet) ?? (pool ? { label: poolLabel(pool) } : undefined);
  return {
    address: wallet,
    accountType: known ? 'contract' : 'wallet',
    contractLabel: known?.label ?? null,
    chains: [...chains].sort((x, y) => x - y),
    firstActivityAt: first,
    lastActivityAt: last,
    ageDays: first && last ? Math.floor((last.getTime() - first.getTime()) / 86_400_000) : 0,
    txCount: n('tx_count'),
    activeDays: n('active_days'),
    activeMonths: n('active_months'),
    distinctCounterparties: n('counterparties'),
    tokenTransfers: n('token_transfers'),
    distinctTokens: n('distinct_tokens'),
    lending: {
      supplies: n('supplies'),
      borrows: n('borrows'),
      repays: n('repays'),
      liquidations: n('liquidations'),
      protocols: n('lending_protocols'),
      suppliedUsd: n('supplied_usd'),
      borrowedUsd: n('borrowed_usd'),
      repaidUsd: n('repaid_usd'),
      liquidatedUsd: n('liquidated_usd'),
      unvaluedSupplies: n('unvalued_supplies'),
      unvaluedBorrows: n('unvalued_borrows'),
      unvaluedRepays: n('unvalued_repays'),
      ...lendingFromRows(r.lending_rows, last),
    },
    trading: tradingOf(n),
    governance: governanceOf(n),
    // to a millionth of a dollar: the same gas summed in another order (another source's row order) is the same figure
    gasUsd: {
      lending: micro(n('gas_lending')),
      trading: micro(n('gas_trading')),
      governance: micro(n('gas_governance')),
      total: micro(n('gas_total')),
    },
    nft: nftOf(n),
    developer: developerOf(n),
    identity: identityOf(n),
    evidenceCount: n('evidence'),
    evidenceAt: {
      lending: date(r.lending_at),
      trading: date(r.trading_at),
      governance: date(r.governance_at),
      nft: date(r.nft_at),
      identity: date(r.identity_at),
      social: date(r.social_at),
      developer: date(r.developer_at),
    },
  };
}

/** One wallet's features. */
export const featuresFor = async (q: Queryable, wallet: string): Promise<WalletFeatures> => (await featuresForMany(q, [wallet], 1))[0];
