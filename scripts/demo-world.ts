// The demo's world, shared by `npm run demo` and its test: the scenario histories replayed month by month on a local
// chain run as chain 1, read by the API as it would read mainnet while they happen, so each wallet's score history
// is dated across the replayed year; what each wallet is said to be, and the claims that make that true, checked
// against the scores the API serves.
//
// What the local chain can back, and what it cannot (the scoring model: a score is conduct held to what the wallet
// lost and cannot get back):
//  - gas: every history transaction pays a 15 gwei base fee (HISTORY_BASE_FEE_GWEI), valued at the model's ETH price;
//  - interest: the borrower's Aave debt grows as Aave's variable debt does and is repaid with it;
//  - pool fees: the pools stand at the mainnet addresses of reviewed established pools, so the model counts their
//    fees as paid to others' liquidity, as it would on mainnet (here the demo's operator is that liquidity);
//  - it cannot make voting power, NFTs, counterparties or deployments cost anything: those are conduct, and their
//    scores stop where the model's rules for unpriced evidence put them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';
import { toHex } from 'viem';
import type { App } from '../src/platform/http/types.js';
import type { CacheFactory } from '../src/platform/cache/index.js';
import type { Category, ScoreChange, ScoreEntry, WalletFeatures } from '../src/modules/scoring/contracts.js';
import { createScoringService, type ScoringServiceImpl } from '../src/modules/scoring/service.js';
import { createFeatureReader, featuresFor } from '../src/modules/scoring/features/index.js';
import { MODEL_VERSION } from '../src/modules/scoring/model/index.js';
import type { IngestionEngine } from '../src/modules/ingestion/service.js';
import { createIngestionRepo } from '../src/modules/ingestion/repo.js';
import { importEthereumEtl } from '../src/modules/ingestion/etl/import.js';
import { exportEthereumEtl } from './export-ethereum-etl.js';
import { HISTORY_BASE_FEE_GWEI, ROLES, runScenarios, type Role, type ScenarioResult } from './scenarios.js';
import { CATEGORIES } from '../src/modules/scoring/contracts.js';
import { model } from '../src/modules/scoring/params.js';

const { ceilingFor } = model;

export interface DemoWorld {
  scenario: ScenarioResult;
  /** each wallet's nine entries as the API serves them (with factors) */
  scores: Record<Role, Record<Category, ScoreEntry>>;
  /** each wallet's features as the model read them */
  features: Record<Role, WalletFeatures>;
  /** each wallet's stored score changes, oldest first */
  history: Record<Role, ScoreChange[]>;
  /** the chain time of the first and the last replayed month */
  replay: { from: Date; to: Date };
}

/** What each wallet is: printed under its scores. Every sentence is one of CLAIMS below, checked. */
export const DESCRIPTIONS: Record<Role, string> = {
  borrower:
    'steady borrower: 45 WETH of collateral on Aave, a $40k USDC loan held a month and repaid with 6% a year of interest, eleven times; $60k lent on Compound all year',
  liquidated: 'borrows to the limit on Aave (debt at 75% of its WETH), liquidated three times there and absorbed once on Compound',
  trader: 'active trader: USDC/WETH swaps on Uniswap V2 and V3, three days a month, about $2.5k of pool fees over the year',
  voter: 'governance voter: 20,000 UNI delegated to itself, votes on every proposal, an ENS name',
  collector: 'NFT collector: mints a listed collection every month and gives one away; also mints an ERC-1155 of an unlisted collection',
  developer: 'contract developer: deploys four tokens and a contract; other wallets use its tokens every month; an ENS name',
  fresh: 'fresh wallet: no history',
};

interface Claim {
  /** what the printout says */
  says: string;
  holds(w: DemoWorld): boolean;
}

const e = (w: DemoWorld, role: Role, c: Category) => w.scores[role][c];
const others = (role: Role) => ROLES.filter((r) => r !== role);
const best = (w: DemoWorld, role: Role, c: Category, key: 'score' | 'conduct') =>
  others(role).every((r) => e(w, role, c)[key] > e(w, r, c)[key]);
const has = (w: DemoWorld, role: Role, c: Category, code: string) => (e(w, role, c).factors ?? []).some((f) => f.code === code);
/** the score is the conduct held to what the backing supports, and says so when it binds */
const heldToBacking = (w: DemoWorld, role: Role, c: Category) => {
  const x = e(w, role, c);
  return (
    x.backingUsd !== null &&
    x.score === Math.min(x.conduct, ceilingFor(x.backingUsd)) &&
    (x.score === x.conduct || has(w, role, c, 'COST_CEILING'))
  );
};
const spansYear = (w: DemoWorld, role: Role) => {
  const h = w.history[role];
  return h.length > 1 && h.at(-1)!.calculatedAt.getTime() - h[0].calculatedAt.getTime() >= 270 * 86_400_000;
};

export const CLAIMS: Record<Role, Claim[]> = {
  borrower: [
    {
      says: 'as described: eleven loans held a day or more and repaid, with interest',
      holds: (w) =>
        w.features.borrower.lending.positions?.cycles === 11 && (w.features.borrower.lending.positions?.interestUsd ?? 0) > 1_000,
    },
    {
      says: 'LENDING: the best lending conduct of the demo (repaid loans held a month, over eleven months)',
      holds: (w) => best(w, 'borrower', 'DEFI_LENDING', 'conduct'),
    },
    {
      says: 'LENDING: backed by the interest it paid beyond what the cash earns parked, and its gas (over $500): its score is that conduct held to what they support',
      holds: (w) => e(w, 'borrower', 'DEFI_LENDING').backingUsd! > 500 && heldToBacking(w, 'borrower', 'DEFI_LENDING'),
    },
    { says: 'OVERALL: the best of the demo', holds: (w) => best(w, 'borrower', 'OVERALL', 'score') },
  ],
  liquidated: [
    {
      says: 'as described: four liquidations (three on Aave, one Compound absorb)',
      holds: (w) => w.features.liquidated.lending.liquidations === 4,
    },
    {
      says: "LENDING: its liquidations counted against it; its conduct and its score below the steady borrower's",
      holds: (w) =>
        has(w, 'liquidated', 'DEFI_LENDING', 'LIQUIDATIONS') &&
        e(w, 'liquidated', 'DEFI_LENDING').conduct < e(w, 'borrower', 'DEFI_LENDING').conduct &&
        e(w, 'liquidated', 'DEFI_LENDING').score < e(w, 'borrower', 'DEFI_LENDING').score,
    },
    {
      says: "OVERALL: the lowest of the demo, below the fresh wallet's: its lending stops at 0, but its recent liquidations count in OVERALL below that 0, and the OVERALL factor says how far",
      holds: (w) =>
        e(w, 'liquidated', 'OVERALL').score < e(w, 'fresh', 'OVERALL').score &&
        others('liquidated').every((r) => e(w, r, 'OVERALL').score > e(w, 'liquidated', 'OVERALL').score) &&
        (e(w, 'liquidated', 'OVERALL').factors ?? []).some(
          (f) =>
            f.code === 'CATEGORY_DEFI_LENDING' &&
            /DEFI_LENDING 0 \(weight 22%\), and \d+ points of liquidations or upheld claims below its 0/.test(f.description),
        ),
    },
  ],
  trader: [
    {
      says: 'as described: swaps on 33 days, $2,000 to $3,000 of pool fees',
      holds: (w) =>
        w.features.trader.trading.activeDays >= 33 &&
        (w.features.trader.trading.feesUsd ?? 0) >= 2_000 &&
        (w.features.trader.trading.feesUsd ?? 0) <= 3_000,
    },
    { says: 'TRADING: the best trading conduct of the demo', holds: (w) => best(w, 'trader', 'DEFI_TRADING', 'conduct') },
    {
      says: 'TRADING: its fees were paid in pools at the addresses of reviewed established mainnet pools, so they back it: High (600 or more)',
      holds: (w) =>
        e(w, 'trader', 'DEFI_TRADING').score >= 600 &&
        heldToBacking(w, 'trader', 'DEFI_TRADING') &&
        !has(w, 'trader', 'DEFI_TRADING', 'FEES_UNBACKED'),
    },
  ],
  voter: [
    {
      says: 'as described: eleven votes on eleven proposals',
      holds: (w) => w.features.voter.governance.votes === 11 && w.features.voter.governance.proposalsVotedOn === 11,
    },
    { says: 'GOVERNANCE: the best governance conduct of the demo', holds: (w) => best(w, 'voter', 'GOVERNANCE', 'conduct') },
    {
      says: 'GOVERNANCE: held to what the gas of its votes supports (voting power held comes back: it backs nothing), far below its conduct',
      holds: (w) =>
        heldToBacking(w, 'voter', 'GOVERNANCE') && e(w, 'voter', 'GOVERNANCE').score < e(w, 'voter', 'GOVERNANCE').conduct - 300,
    },
    { says: 'IDENTITY: its ENS name counts', holds: (w) => has(w, 'voter', 'IDENTITY', 'ENS_NAME') && e(w, 'voter', 'IDENTITY').score > 0 },
    {
      says: 'GOVERNANCE: its delegation to itself is found but not counted, and a factor says so',
      holds: (w) => w.features.voter.governance.delegationsMade === 0 && has(w, 'voter', 'GOVERNANCE', 'DELEGATIONS_DISCOUNTED'),
    },
    {
      says: "IDENTITY: the attestation the demo's operator made about it (an attester the registry does not trust) is found but not counted, and a factor says so",
      holds: (w) => w.features.voter.identity.attestationsReceived === 0 && has(w, 'voter', 'IDENTITY', 'ATTESTATIONS_DISCOUNTED'),
    },
  ],
  collector: [
    {
      says: 'NFT: the best NFT score of the demo, from its mints in the listed collection',
      holds: (w) => best(w, 'collector', 'NFT', 'score'),
    },
    {
      says: 'NFT: the unlisted ERC-1155 is found but not counted, and a factor says so',
      holds: (w) => has(w, 'collector', 'NFT', 'NFTS_DISCOUNTED'),
    },
    {
      says: "NFT: the six Pixel Punks the operator sent it, in the operator's own transactions (not its doing), are found but not counted, and the factor says so",
      holds: (w) =>
        w.features.collector.nft.received === 0 &&
        (w.features.collector.nft.notTheirs ?? 0) >= 6 &&
        (e(w, 'collector', 'NFT').factors ?? []).some(
          (f) => f.code === 'NFTS_DISCOUNTED' && /someone else's transaction/.test(f.description),
        ),
    },
  ],
  developer: [
    {
      says: 'as described: five contracts deployed, used by wallets it did not fund',
      holds: (w) => w.features.developer.developer.contractsDeployed === 5 && (w.features.developer.developer.thirdPartyUsers ?? 0) >= 3,
    },
    {
      says: 'DEVELOPER: the best developer score of the demo, from its contracts other wallets use',
      holds: (w) => best(w, 'developer', 'DEVELOPER', 'score') && has(w, 'developer', 'DEVELOPER', 'CONTRACTS_USED'),
    },
    {
      says: 'IDENTITY: its ENS name counts',
      holds: (w) => has(w, 'developer', 'IDENTITY', 'ENS_NAME') && e(w, 'developer', 'IDENTITY').score > 0,
    },
    {
      says: "IDENTITY: the attestation the demo's operator made about it (an attester the registry does not trust) is found but not counted, and a factor says so",
      holds: (w) => w.features.developer.identity.attestationsReceived === 0 && has(w, 'developer', 'IDENTITY', 'ATTESTATIONS_DISCOUNTED'),
    },
  ],
  fresh: [
    {
      says: "every activity category 0, COMPLIANCE 500 (screened clean, nothing else): the lowest OVERALL of the demo but the liquidated wallet's",
      holds: (w) =>
        (['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'NFT', 'IDENTITY', 'SOCIAL', 'DEVELOPER'] as const).every(
          (c) => e(w, 'fresh', c).score === 0,
        ) &&
        e(w, 'fresh', 'COMPLIANCE').score === 500 &&
        others('fresh')
          .filter((r) => r !== 'liquidated')
          .every((r) => e(w, r, 'OVERALL').score > e(w, 'fresh', 'OVERALL').score),
    },
  ],
};

/** Every wallet but the fresh one has a score history across the replayed year; every score held below its conduct
 *  says why. */
export const WORLD_CLAIMS: Claim[] = [
  {
    says: 'history: every wallet with activity has score changes dated across the replayed year',
    holds: (w) => others('fresh').every((r) => spansYear(w, r)),
  },
  {
    says: 'every score held below its conduct carries the factor that says by what',
    holds: (w) =>
      ROLES.every((r) =>
        Object.values(w.scores[r]).every(
          (x) =>
            x.category === 'OVERALL' ||
            x.score >= x.conduct ||
            (x.factors ?? []).some((f) => /COST_CEILING|UNPRICED_EVIDENCE_CAP/.test(f.code)),
        ),
      ),
  },
];

export function checkClaims(w: DemoWorld): { role: Role | null; says: string; holds: boolean }[] {
  return [
    ...ROLES.flatMap((role) => CLAIMS[role].map((c) => ({ role, says: c.says, holds: c.holds(w) }))),
    ...WORLD_CLAIMS.map((c) => ({ role: null, says: c.says, holds: c.holds(w) })),
  ];
}

/** A test's budget for replayDemo: 68-94 s on two busy cores with PostgreSQL, past 120 s with PGlite on a slow day. */
export const REPLAY_TIMEOUT = 360_000;

/**
 * Replays the scenarios on `chainUrl` (a local chain run as chain 1 that `app` reads over JSON-RPC) month by month:
 * after each month the API syncs every wallet, and the scores it computes are dated at the chain's time (a scoring
 * service on the chain's clock stands in for the app's during the replay). Each month's blocks are also exported in
 * ethereum-etl's format and imported, as an operator backfills history: JSON-RPC cannot see other wallets calling
 * a wallet's contracts, the export's transactions can. The last scores are then computed again on the real clock.
 */
export async function replayDemo(app: App, chain: { url: string; accounts: string[] }): Promise<DemoWorld> {
  const services = app.ctx.services;
  const engine = services.ingestion as IngestionEngine;
  const live = services.scoring as ScoringServiceImpl;
  const repo = createIngestionRepo(app.ctx.db);
  // the replay's caches under their own names: the app's own scores cache keeps its invalidations
  const caches: CacheFactory = { create: (name, opts) => app.ctx.caches.create(`demo-replay-${name}`, opts), clearLocal: () => undefined };
  let clock = new Date();
  const replay = createScoringService({
    db: app.ctx.db,
    bus: app.ctx.bus,
    caches,
    features: createFeatureReader(app.ctx.db),
    services,
    now: () => clock,
  });
  const wallets = chain.accounts.slice(1, 1 + ROLES.length).map((a) => a.toLowerCase());
  const dir = mkdtempSync(path.join(tmpdir(), 'credence-demo-etl-'));
  let exportFrom = 0;
  let from: Date | null = null;
  let scenario: ScenarioResult;
  services.scoring = replay;
  try {
    scenario = await runScenarios(chain.url, chain.accounts, {
      async month(month, head) {
        clock = head.time;
        from ??= head.time;
        // all at once: each waits on the chain for much of its time
        await Promise.all(wallets.map((w) => engine.syncWallet(w)));
        // each month's blocks in a directory of their own, the whole directory imported each time: files already
        // imported are skipped, and a call is still linked to a contract deployed in an earlier month's file
        if (month === 0) exportFrom = head.block + 1;
        else {
          await exportEthereumEtl(chain.url, path.join(dir, String(month).padStart(2, '0')), {
            fromBlock: exportFrom,
            toBlock: head.block,
          });
          exportFrom = head.block + 1;
          const r = await importEthereumEtl({ db: app.ctx.db, repo }, dir, { chainId: 1 });
          for (const w of r.wallets) if (wallets.includes(w)) await replay.recompute(w, 'ingestion');
        }
        // the first month scores every wallet once: later months' scores are its changes
        if (month === 0) await replay.recomputeMany(wallets, 'ingestion');
      },
    });
  } finally {
    services.scoring = live;
    rmSync(dir, { recursive: true, force: true });
  }
  const to = clock;
  await live.recomputeMany(wallets, 'ingestion');
  const scores = {} as DemoWorld['scores'];
  const history = {} as DemoWorld['history'];
  const features = {} as DemoWorld['features'];
  for (const role of ROLES) {
    const address = scenario.wallets[role];
    scores[role] = Object.fromEntries((await live.getScores(address, { explain: true })).map((x) => [x.category, x])) as Record<
      Category,
      ScoreEntry
    >;
    history[role] = await live.history(address);
    features[role] = await featuresFor(app.ctx.db, address.toLowerCase());
  }
  return { scenario, scores, features, history, replay: { from: from!, to } };
}

/** Hardhat's default accounts come from this public mnemonic: the demo wallets' keys are no secret. */
const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';

/** Each demo wallet's private key (Hardhat's well-known test accounts), to sign in to the console as it. */
export function demoWalletKeys(wallets: Record<Role, string>): Record<Role, string> {
  const keys = {} as Record<Role, string>;
  for (let i = 0; i < 40; i++) {
    const account = mnemonicToAccount(HARDHAT_MNEMONIC, { addressIndex: i });
    const role = ROLES.find((r) => wallets[r] === account.address.toLowerCase());
    if (role) keys[role] = toHex(account.getHdKey().privateKey!);
  }
  return keys;
}

/** Short column names of the printed table, in the API's order of categories. */
const SHORT: Record<Category, string> = {
  OVERALL: 'OVERALL',
  DEFI_LENDING: 'LENDING',
  DEFI_TRADING: 'TRADING',
  GOVERNANCE: 'GOVERN',
  NFT: 'NFT',
  IDENTITY: 'IDENTITY',
  SOCIAL: 'SOCIAL',
  DEVELOPER: 'DEVELOPER',
  COMPLIANCE: 'COMPLY',
};
/** Factors that say why something found does not count, or counts for less than its conduct: printed. */
const EXPLAINED = /DISCOUNTED|UNBACKED|COST_CEILING|UNPRICED_EVIDENCE_CAP|NO_CREDIT_RECORD|_CAP$/;
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The printout of the world: the table (score, and the conduct where the backing holds the score below it), what
 *  each wallet is, each claim checked, and what was found but not counted, in the model's words. */
export function formatWorld(w: DemoWorld): string[] {
  const out: string[] = [];
  const checks = checkClaims(w);
  const mark = (ok: boolean) => (ok ? 'ok ' : 'NOT');
  out.push(`${'wallet'.padEnd(11)} ${'address'.padEnd(42)} ${CATEGORIES.map((c) => SHORT[c].padStart(9)).join(' ')}`);
  for (const role of ROLES) {
    const s = w.scores[role];
    const cell = (c: Category) => (s[c].conduct > s[c].score ? `${s[c].score} (${s[c].conduct})` : String(s[c].score)).padStart(9);
    out.push(`${role.padEnd(11)} ${w.scenario.wallets[role]} ${CATEGORIES.map(cell).join(' ')}`);
    out.push(`${''.padEnd(11)} ${DESCRIPTIONS[role]}`);
    for (const c of checks.filter((x) => x.role === role)) out.push(`${''.padEnd(11)}   ${mark(c.holds)} ${c.says}`);
    for (const c of CATEGORIES) {
      for (const f of s[c].factors ?? []) if (EXPLAINED.test(f.code)) out.push(`${''.padEnd(11)}   ${SHORT[c]}: ${f.description}`);
    }
  }
  for (const c of checks.filter((x) => x.role === null)) out.push(`${mark(c.holds)} ${c.says}`);
  const failed = checks.filter((c) => !c.holds).length;
  out.push(
    failed === 0
      ? `all ${checks.length} checks hold: each wallet scores what its description says`
      : `${failed} of ${checks.length} checks do NOT hold (marked NOT): those descriptions are wrong for this model (${MODEL_VERSION}); test/demo.test.ts fails too`,
  );
  out.push('');
  out.push(`columns: ${CATEGORIES.map((c) => `${SHORT[c]} = ${c}`).join(', ')}`);
  out.push(
    'a cell is the score; in parentheses the conduct (how the wallet behaves) where what the wallet lost and cannot get back, its backing, holds the score below it',
  );
  out.push(
    `history: the API read the chain after each month of the replay and scored what it found, dated at the chain's time (${day(w.replay.from)} to ${day(w.replay.to)}): ` +
      "the console's history chart and GET /api/v1/reputation/{address}/{category}/history show the year",
  );
  out.push(
    `what this local chain can back: gas (every history transaction pays a ${HISTORY_BASE_FEE_GWEI} gwei base fee), interest (the borrower's Aave debt grows and is repaid with it) ` +
      "and pool fees (the pools stand at the mainnet addresses of reviewed established pools, so their fees count as paid to others' liquidity, as on mainnet; " +
      "here the demo's operator is that liquidity). What it cannot: voting power, NFTs, counterparties and deployments cost nothing to hold or make, so those scores " +
      'stop where the model puts unpriced evidence, and a vote backs only its gas.',
  );
  return out;
}
