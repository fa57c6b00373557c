// The cheapest known way to 600 in DEFI_TRADING, GOVERNANCE, NFT, SOCIAL and DEVELOPER (issue 19, item 9), searched
// with the model in this checkout: plans are turned into the features ingestion would compute for them (model
// 3.0.0: only what the wallet sent, fees paid, voting power, collections others hold, third-party use) and scored;
// the cheapest plan reaching 600 is reported with its cost. Printed by bench/attack-cost.ts.
import { emptyFeatures, scoreWallet } from '../src/modules/scoring/model/index.js';
import type { Category, WalletFeatures } from '../src/modules/scoring/contracts.js';
import { COSTS } from '../src/modules/ingestion/costs.js';
import { CEILING, capitalCost } from '../src/modules/scoring/model/cost-ceiling.js';

const TARGET = 600;
/** USD of gas per simple transaction (swap, vote, transfer, call): ~150k gas at 10 gwei at ETH $3,000; an L2 */
const GAS = { mainnet: 4.5, l2: 0.05 };
/** what capital held costs its owner per year (yield forgone), for tokens held to vote: the model's own rate */
const CAPITAL_APR = CEILING.capitalCostPerYear;
/** a funded sybil (gas money from an exchange withdrawal, not from the attacker's wallet) */
const SYBIL_USD = { mainnet: 5, l2: 0.3 };

const score = (f: WalletFeatures, c: Category) => scoreWallet({ features: f }).find((r) => r.category === c)!.score;
const base = () => {
  const f = emptyFeatures('0x00000000000000000000000000000000000c0570');
  f.chains = [1];
  return f;
};

export interface Cheapest {
  category: Category;
  net: 'mainnet' | 'l2';
  plan: string;
  score: number;
  cost: number;
  breakdown: string;
}

const fmt = (n: number) => `$${n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)}`;

function cheapest(found: Cheapest[]): Cheapest | null {
  return found.filter((x) => x.score >= TARGET).sort((a, b) => a.cost - b.cost)[0] ?? null;
}

/** One swap a day (alternating sides, so each day keeps a net position), through `pools` pools of one fee tier. */
function trading(net: 'mainnet' | 'l2'): Cheapest | null {
  const out: Cheapest[] = [];
  for (const size of [200, 500, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000])
    for (const fee of [0.0001, 0.0005, 0.003, 0.01])
      for (const days of [1, 2, 3, 4, 5, 7, 10, 15, 20, 30, 45, 60, 90, 120, 180, 365])
        for (const pools of [1, 3, 5, 10]) {
          const perDay = Math.min(COSTS.trading.dayFeeCapUsd, size * fee);
          const f = base();
          f.distinctTokens = Math.min(pools + 1, 12);
          f.trading = { swaps: days, distinctPools: Math.min(pools, days), protocols: pools > 1 ? 2 : 1, activeDays: perDay >= COSTS.trading.dayFeeFloorUsd ? days : 0, volumeUsd: size * days, unvaluedSwaps: 0, feesUsd: perDay * days };
          // what the wallet pays the pools (the model counts at most the day's cap of it)
          const fees = size * fee * days;
          const gas = days * GAS[net];
          out.push({ category: 'DEFI_TRADING', net, plan: `${days} daily swaps of ${fmt(size)} through ${pools} pool(s) at ${fee * 1e4} bp`, score: score(f, 'DEFI_TRADING'), cost: fees + gas, breakdown: `pool fees ${fmt(fees)} + gas ${fmt(gas)}` });
        }
  return cheapest(out);
}

/** Hold `tokens` of a votes token (ARB at its reference price) through the snapshots of `proposals` proposals on two
 *  governors over `months`. The carry is what the features SQL credits (first vote 7 days, then at most 30 days per
 *  gap between votes): an attacker holding only around the snapshots pays at least that, plus gas. */
function governance(net: 'mainnet' | 'l2'): Cheapest | null {
  const out: Cheapest[] = [];
  const { voteFloorTokens: floor, fullPowerTokens: full, firstVoteDays, maxGapDays } = COSTS.governance;
  const price = COSTS.governance.tokenUsd['arbitrum-governance'];
  const weight = (t: number) => (t < floor ? 0 : Math.min(1, Math.log1p(t / floor) / Math.log1p(full / floor)));
  for (const tokens of [10, 100, 1_000, 10_000, 30_000, 50_000, 100_000, 200_000, 300_000, 500_000, 1_000_000, 3_000_000, 10_000_000])
    for (const proposals of [4, 6, 10, 14, 20, 30, 40, 60])
      for (const months of [1, 2, 3, 4, 6, 9, 12, 18, 24]) {
        const f = base();
        const perGovernor = proposals / 2;
        const gap = Math.min(maxGapDays, (months * 30) / perGovernor);
        const heldDays = 2 * (firstVoteDays + (perGovernor - 1) * gap);
        const carry = capitalCost(tokens * price * heldDays);
        f.governance = { votes: proposals, proposalsVotedOn: proposals, delegationsMade: 0, delegationsReceived: 0, governors: 2, votePower: proposals * weight(tokens), delegatedPower: 0, carryUsd: carry };
        const gas = proposals * GAS[net];
        out.push({ category: 'GOVERNANCE', net, plan: `${tokens.toLocaleString('en-US')} ARB (${fmt(tokens * price)} at risk) held through ${proposals} proposals of 2 governors over ${months} months`, score: score(f, 'GOVERNANCE'), cost: carry + gas, breakdown: `carry ${fmt(carry)} + gas ${fmt(gas)} (capital at risk ${fmt(tokens * price)})` });
      }
  return cheapest(out);
}

/** NFT, SOCIAL and DEVELOPER stop at the unpriced cap without measured cost elsewhere: the cheapest measured cost is
 *  pool fees (one-way swaps of $250,000 in a 1% pool, one a day at the day's cap), which also cost their gas. */
const EXTRA_COST = [0, 250, 500, 1_000, 1_500, 2_000];
function withMeasuredCost(f: WalletFeatures, extra: number, net: 'mainnet' | 'l2'): { cost: number; note: string } {
  if (extra <= 0) return { cost: 0, note: '' };
  const days = Math.ceil(extra / COSTS.trading.dayFeeCapUsd);
  f.trading = { swaps: days, distinctPools: 1, protocols: 1, activeDays: days, volumeUsd: days * 25_000, unvaluedSwaps: 0, feesUsd: extra };
  return { cost: extra + days * GAS[net], note: ` + ${fmt(extra)} of pool fees on ${days} day(s) (measured cost)` };
}

/** Collections made by a second wallet and minted by `holders` sybils each (funded from an exchange), plus the
 *  wallet's own mints in them: the independent-holder rule's price. */
function nft(net: 'mainnet' | 'l2'): Cheapest | null {
  const out: Cheapest[] = [];
  const holders = COSTS.nft.independentHolders;
  for (const collections of [1, 2, 3, 5, 8, 12])
    for (const mints of [1, 2, 3, 5, 8])
      for (const extra of EXTRA_COST) {
        const f = base();
        f.nft = { mints: collections * mints, received: 0, sent: 0, collections };
        const m = withMeasuredCost(f, extra, net);
        const sybils = collections * holders * SYBIL_USD[net];
        const gas = (collections * (holders + 1 + mints)) * GAS[net];
        out.push({ category: 'NFT', net, plan: `${collections} collection(s) of a second wallet, ${holders} sybil minters each, ${mints} own mint(s) in each${m.note}`, score: score(f, 'NFT'), cost: sybils + gas + m.cost, breakdown: `sybils ${fmt(sybils)} + gas ${fmt(gas)}${m.cost ? ` + measured cost ${fmt(m.cost)}` : ''}` });
      }
  return cheapest(out);
}

/** Native transfers of 0.001 ETH to `n` sybils (the value comes back), listed-token transfers, a transaction a month. */
function social(net: 'mainnet' | 'l2'): Cheapest | null {
  const out: Cheapest[] = [];
  for (const n of [10, 25, 50, 75, 100, 150])
    for (const transfers of [0, 25, 50, 100, 200])
      for (const months of [1, 6, 12, 24])
        for (const extra of EXTRA_COST) {
          const f = base();
          f.distinctCounterparties = n;
          f.tokenTransfers = transfers;
          f.activeMonths = months;
          const m = withMeasuredCost(f, extra, net);
          const gas = (n + transfers + months) * GAS[net];
          out.push({ category: 'SOCIAL', net, plan: `${n} counterparties paid 0.001 ETH, ${transfers} stablecoin transfers of $1+, active ${months} months${m.note}`, score: score(f, 'SOCIAL'), cost: gas + m.cost, breakdown: `gas ${fmt(gas)} (the value sent comes back from the sybils)${m.cost ? ` + measured cost ${fmt(m.cost)}` : ''}` });
        }
  return cheapest(out);
}

/** `contracts` deployments, each called by `users` / `contracts` sybils funded from an exchange. */
function developer(net: 'mainnet' | 'l2'): Cheapest | null {
  const out: Cheapest[] = [];
  for (const contracts of [1, 2, 3, 5, 8])
    for (const users of [5, 10, 20, 30, 50, 80, 120])
      for (const extra of EXTRA_COST) {
        const f = base();
        f.txCount = contracts;
        f.developer = { contractsDeployed: contracts, contractsWithCode: contracts, usedContracts: contracts, thirdPartyUsers: users };
        const m = withMeasuredCost(f, extra, net);
        const sybils = users * SYBIL_USD[net];
        const gas = (contracts * 10 + users) * GAS[net];
        out.push({ category: 'DEVELOPER', net, plan: `${contracts} contract(s) called by ${users} sybils funded elsewhere${m.note}`, score: score(f, 'DEVELOPER'), cost: sybils + gas + m.cost, breakdown: `sybils ${fmt(sybils)} + gas ${fmt(gas)} (deployments at 10 tx each)${m.cost ? ` + measured cost ${fmt(m.cost)}` : ''}` });
      }
  return cheapest(out);
}

export function activityCosts(): (Cheapest | { category: Category; net: string; none: true })[] {
  const rows: (Cheapest | { category: Category; net: string; none: true })[] = [];
  for (const [category, search] of [['DEFI_TRADING', trading], ['GOVERNANCE', governance], ['NFT', nft], ['SOCIAL', social], ['DEVELOPER', developer]] as const) {
    for (const net of ['mainnet', 'l2'] as const) rows.push(search(net) ?? { category, net, none: true });
  }
  return rows;
}

export function printActivityCosts(): void {
  console.log(`\nDEFI_TRADING, GOVERNANCE, NFT, SOCIAL, DEVELOPER (searched with the model: plans turned into the features ingestion computes)`);
  console.log(`assumptions: gas ${fmt(GAS.mainnet)} / ${fmt(GAS.l2)} per transaction (mainnet / L2); a sybil funded from an exchange ${fmt(SYBIL_USD.mainnet)} / ${fmt(SYBIL_USD.l2)}; ARB ${fmt(COSTS.governance.tokenUsd['arbitrum-governance'])}; capital held costs ${CAPITAL_APR * 100}%/yr`);
  for (const r of activityCosts()) {
    if ('none' in r) console.log(`  ${r.category.padEnd(12)} ${r.net.padEnd(7)}: no plan in the grid reaches ${TARGET}`);
    else console.log(`  ${r.category.padEnd(12)} ${r.net.padEnd(7)}: ${r.plan} -> ${r.score}\n  ${''.padEnd(22)}cost ${fmt(r.cost)} = ${r.breakdown}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printActivityCosts();
