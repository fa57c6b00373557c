// What a point costs (issue 19, item 9): per category, the cheapest way known to reach 600 and its cost in USD
// (capital x days, fees and interest, gas). DEFI_LENDING is searched: histories of loans are generated, replayed
// through the model's own position rebuild (lending-positions.ts) and scored by the model in this checkout, over a
// grid of loan sizes, durations, cycles and collateral habits; the cheapest one at 600 or more is printed with its
// breakdown. DEFI_TRADING, GOVERNANCE, NFT, SOCIAL and DEVELOPER are searched in activity-costs.ts. IDENTITY and
// COMPLIANCE rest on verification, not activity, and are described, not searched.
//
//   node --import tsx bench/attack-cost.ts
import { emptyFeatures, MODEL_VERSION, scoreWallet } from '../src/modules/scoring/model/index.js';
import { replayLending, type LendingEvent } from '../src/modules/scoring/model/lending-positions.js';
import { CEILING } from '../src/modules/scoring/model/cost-ceiling.js';
import { printActivityCosts } from './activity-costs.js';

// Assumptions (printed with the results)
const ETH_USD = 3_000;
/** USD per lending transaction: ~150k gas at 10 gwei on Ethereum; a few cents on an L2 */
const GAS_USD = { mainnet: (150_000 * 10e-9) * ETH_USD, l2: 0.05 };
/** stablecoin variable borrow rate paid on the debt */
const BORROW_APR = 0.05;
/** what capital locked as collateral costs its owner (yield forgone net of the supply rate it earns): the model's rate */
const CAPITAL_APR = CEILING.capitalCostPerYear;
const LTV = 0.75;
const TARGET = 600;
const DAY = 86_400_000;
const POOL = '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';

interface Plan {
  principal: number;
  loanDays: number;
  cycles: number;
  /** keep the collateral supplied the whole time (true) or only while a loan is open */
  keepCollateral: boolean;
}

function history(p: Plan): { events: LendingEvent[]; txs: number; interest: number; ownCapitalUsdDays: number } {
  const events: LendingEvent[] = [];
  let block = 1;
  const t0 = Date.UTC(2025, 0, 1);
  const collateral = p.principal / LTV;
  const e = (kind: LendingEvent['kind'], usd: number, at: number, reserve: string): LendingEvent => ({ kind, protocol: 'aave-v3', chainId: 1, contract: POOL, counterparty: reserve, amount: usd, usd, at, block: block++, logIndex: 0 });
  let interest = 0;
  // one cycle a month (distinct months count), each loan open loanDays
  const monthGap = Math.max(31, p.loanDays + 2);
  const last = t0 + (p.cycles - 1) * monthGap * DAY + (p.loanDays + 1) * DAY;
  for (let c = 0; c < p.cycles; c++) {
    const start = t0 + c * monthGap * DAY;
    const due = p.principal * BORROW_APR * (p.loanDays / 365);
    interest += due;
    if (!p.keepCollateral || c === 0) events.push(e('lending_supply', collateral, start, USDC));
    events.push(e('lending_borrow', p.principal, start + 60_000, DAI));
    events.push(e('lending_repay', p.principal + due, start + p.loanDays * DAY, DAI));
    if (!p.keepCollateral || c === p.cycles - 1) events.push(e('lending_withdraw', collateral, start + p.loanDays * DAY + 60_000, USDC));
  }
  const pos = replayLending(events, last);
  // the attacker's real cost of capital: its own capital locked (collateral beyond the debt, whose proceeds it keeps)
  return { events, txs: events.length, interest, ownCapitalUsdDays: Math.max(0, pos.collateralUsdDays - pos.debtUsdDays) };
}

function lendingScore(events: LendingEvent[]): number {
  const f = emptyFeatures('0x000000000000000000000000000000000000c057');
  f.chains = [1];
  f.lending.positions = replayLending(events);
  return scoreWallet({ features: f }).find((r) => r.category === 'DEFI_LENDING')!.score;
}

function searchLending(net: 'mainnet' | 'l2') {
  let best: { plan: Plan; score: number; cost: number; interest: number; capital: number; gas: number; usdDays: number } | null = null;
  for (const principal of [500, 1_000, 2_000, 3_000, 5_000, 7_500, 10_000, 20_000, 50_000, 100_000, 250_000, 1_000_000])
    for (const loanDays of [1, 2, 3, 7, 14, 21, 30, 45, 60, 90, 180, 365])
      for (const cycles of [1, 2, 3, 4, 6, 8, 12])
        for (const keepCollateral of [false, true]) {
          const plan = { principal, loanDays, cycles, keepCollateral };
          const h = history(plan);
          const score = lendingScore(h.events);
          if (score < TARGET) continue;
          const capital = (h.ownCapitalUsdDays * CAPITAL_APR) / 365;
          const gas = h.txs * GAS_USD[net];
          const cost = h.interest + capital + gas;
          if (!best || cost < best.cost) best = { plan, score, cost, interest: h.interest, capital, gas, usdDays: h.ownCapitalUsdDays };
        }
  return best;
}

const usd = (n: number) => `$${n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2)}`;

console.log(`What a point costs: the cheapest known way to reach ${TARGET} per category (model ${MODEL_VERSION})`);
console.log(`assumptions: ETH $${ETH_USD}; gas per lending tx ${usd(GAS_USD.mainnet)} mainnet, ${usd(GAS_USD.l2)} L2; borrow APR ${BORROW_APR * 100}%; capital locked costs ${CAPITAL_APR * 100}%/yr; LTV ${LTV * 100}%\n`);

console.log('DEFI_LENDING (searched with the model: loans replayed through lending-positions.ts)');
for (const net of ['mainnet', 'l2'] as const) {
  const b = searchLending(net);
  if (!b) {
    console.log(`  ${net}: no plan in the grid reaches ${TARGET}`);
    continue;
  }
  const p = b.plan;
  console.log(
    `  ${net.padEnd(7)}: ${p.cycles} loan(s) of ${usd(p.principal)} held ${p.loanDays} days each (one a month), collateral ${usd(p.principal / LTV)} ${p.keepCollateral ? 'kept throughout' : 'only while borrowing'} -> ${b.score}` +
      `\n           cost ${usd(b.cost)} = interest ${usd(b.interest)} + capital ${usd(b.capital)} (${usd(b.usdDays)}-days of own capital locked) + gas ${usd(b.gas)}`,
  );
}
// the table's own attacks under this model, for reference
const flash = [
  { kind: 'lending_supply', amount: 1.43e6, usd: 1.43e6, counterparty: USDC },
  { kind: 'lending_borrow', amount: 1e6, usd: 1e6, counterparty: DAI },
  { kind: 'lending_repay', amount: 1e6, usd: 1e6, counterparty: DAI },
  { kind: 'lending_withdraw', amount: 1.43e6, usd: 1.43e6, counterparty: USDC },
].map((x, i) => ({ ...x, protocol: 'aave-v3', chainId: 1, contract: POOL, at: Date.UTC(2025, 0, 1), block: 1, logIndex: i }) as LendingEvent);
console.log(`  the flash loop of the issue (one transaction, $1.43M / $1M): ${lendingScore(flash)} (model 2.0.0: 839)`);

// DEFI_TRADING, GOVERNANCE, NFT, SOCIAL, DEVELOPER: searched with the model (bench/activity-costs.ts)
printActivityCosts();

// The categories that rest on verification by others, and the debt-claim griefer: described from their terms.
const ESTIMATES: { category: string; how: string; cost: string }[] = [
  { category: 'IDENTITY', how: 'full KYC (450) + KYC-backed service credentials (up to 100) + an ENS name (~95) or trusted attestations (up to 285); a proved DID earns 15', cost: 'a real identity passing KYC or a trusted attester, plus ~$5-$20 of ENS and gas: verification, not capital' },
  { category: 'COMPLIANCE', how: 'screened clean (500) + KYC (250-350) + history months', cost: 'a status, not a purchase: 750+ for any KYC-approved, unsanctioned wallet' },
  { category: 'debt claims', how: 'a griefer lowering a victim: verified claims need a real priced principal moved creditor -> debtor before the claim, creditors with costly history, a notice period the debtor can dispute in', cost: 'the principal moved to the victim (gone to the attacker), per creditor with a costly history of its own' },
];
console.log('\nCategories of verification, not activity (not held to a cost; described from their terms)');
for (const e of ESTIMATES) console.log(`  ${e.category.padEnd(12)} ${e.how}\n  ${''.padEnd(12)} -> ${e.cost}`);
