// Forged-evidence attacks replayed on the in-process chain (as chain 1), read over JSON-RPC exactly as mainnet is:
// a fresh wallet deploys its own 1.7 kB contract that emits Aave Supply/Borrow/Repay, Uniswap V2/V3 Swap, Governor
// VoteCast, DelegateChanged, ENS NameRegistered and EAS Attested naming itself; and a forged LiquidationCall (and
// Comet AbsorbDebt) naming an honest borrower. With the evidence registry neither moves any category: the forger
// scores exactly as a control wallet that made the same deployment and the same number of transactions, and the
// victim's scores and decay anchors stay where they were. Routers are labelled `contract`, not scored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp } from '../../../test/helpers/app.js';
import { startLocalChain, type LocalChain } from '../../../test/helpers/local-chain.js';
import { chainClient, PINNED, runScenarios, SCENARIO_START_DAYS_AGO, type ScenarioResult } from '../../../scripts/scenarios.js';
import type { App } from '../../platform/http/types.js';
import type { Category, ScoringService } from '../scoring/contracts.js';
import type { IngestionEngine } from './service.js';
import { featuresFor } from '../scoring/index.js';

let chain: LocalChain;
let sc: ScenarioResult;
let app: App;
let engine: IngestionEngine;
let scoring: ScoringService;

beforeAll(async () => {
  chain = await startLocalChain({ initialDate: new Date(Date.now() - SCENARIO_START_DAYS_AGO * 86_400_000), accounts: 24 });
  sc = await runScenarios(chain.url, chain.accounts);
  app = await createTestApp({ config: { rpcUrls: { 1: chain.url }, ingestConfirmations: 0 } });
  engine = app.ctx.services.ingestion as IngestionEngine;
  scoring = app.ctx.services.scoring!;
});

afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

const scoresOf = async (w: string) => {
  await engine.syncWallet(w);
  await scoring.recompute(w, 'ingestion');
  return Object.fromEntries((await scoring.getScores(w, { explain: true })).map((e) => [e.category, e])) as Record<
    Category,
    Awaited<ReturnType<ScoringService['getScore']>>
  >;
};
const anchors = async (w: string) =>
  Object.fromEntries(
    (
      await app.ctx.db.query<{ category: string; decay_anchor: Date | null }>(
        'SELECT category, decay_anchor FROM scores WHERE address = $1',
        [w],
      )
    ).map((r) => [r.category, r.decay_anchor?.toISOString() ?? null]),
  );
const logsFrom = async (address: string) =>
  ((await chain.request('eth_getLogs', [{ address, fromBlock: '0x0', toBlock: 'latest' }])) as unknown[]).length;

describe('forged evidence from a self-deployed emitter', () => {
  it('moves no category: the forger scores exactly as a wallet that made the same transactions without the events', async () => {
    const c = chainClient(chain.url);
    const [attacker, control] = chain.accounts.slice(20, 22);
    // three transactions in one day, as in the issue: deploy, then two forging calls
    const forger = await c.deploy(attacker, 'EvidenceForger');
    await c.call(attacker, forger, 'EvidenceForger', 'forgeAll', [attacker, PINNED.usdc, 3n]);
    await c.call(attacker, forger, 'EvidenceForger', 'forgeAll', [attacker, PINNED.usdc, 3n]);
    const same = await c.deploy(control, 'EvidenceForger');
    await c.call(control, same, 'EvidenceForger', 'noop');
    await c.call(control, same, 'EvidenceForger', 'noop');
    // the attack happened: 54 forged logs are on chain, each with the real event signature
    expect(await logsFrom(forger)).toBe(54);

    const forged = await scoresOf(attacker);
    const clean = await scoresOf(control);
    for (const cat of ['DEFI_LENDING', 'DEFI_TRADING', 'GOVERNANCE', 'IDENTITY'] as const) {
      expect(forged[cat].score, cat).toBe(0);
      expect(forged[cat].factors?.[0].code, cat).toMatch(/^NO_/);
    }
    for (const cat of Object.keys(clean) as Category[]) expect(forged[cat].score, cat).toBe(clean[cat].score);
    expect(forged.OVERALL.score).toBeLessThan(100); // before the evidence registry: 516
  });

  it('a forged LiquidationCall (and Comet AbsorbDebt) naming an honest borrower moves nothing, not even the decay anchor', async () => {
    const victim = sc.wallets.borrower;
    const before = await scoresOf(victim);
    const anchorsBefore = await anchors(victim);
    // eleven $10k loans held ten days each, a month apart, and $60k of its own USDC lent on Compound all year: a good
    // record (its conduct; its score is held to what its interest and gas back)
    expect(before.DEFI_LENDING.conduct).toBeGreaterThan(400);

    const c = chainClient(chain.url);
    const griefer = chain.accounts[22];
    const forger = await c.deploy(griefer, 'EvidenceForger');
    await c.advanceDays(10);
    await c.call(griefer, forger, 'EvidenceForger', 'forgeLiquidation', [victim, PINNED.weth, PINNED.usdc, 10n ** 12n]);
    expect(await logsFrom(forger)).toBe(2);

    const after = await scoresOf(victim);
    for (const cat of Object.keys(before) as Category[]) expect(after[cat].score, cat).toBe(before[cat].score);
    for (const cat of Object.keys(before) as Category[]) expect(after[cat].conduct, cat).toBe(before[cat].conduct);
    expect(after.DEFI_LENDING.factors?.map((f) => f.code)).not.toContain('LIQUIDATIONS');
    expect(await anchors(victim)).toEqual(anchorsBefore);
  });

  it('a liquidation by the pinned Aave pool does count', async () => {
    const victim = sc.wallets.liquidated;
    const s = await scoresOf(victim);
    expect(s.DEFI_LENDING.factors?.map((f) => f.code)).toContain('LIQUIDATIONS');
    expect(s.DEFI_LENDING.conduct).toBeLessThan((await scoresOf(sc.wallets.borrower)).DEFI_LENDING.conduct - 300);
  });
});

describe('protocol contracts are not people', () => {
  it('the Uniswap Universal Router is labelled a contract and scores nothing', async () => {
    const router = '0x3fc91a3afd70395cd496c647d5a6cc9d4b2b7fad';
    const f = await featuresFor(app.ctx.db, router);
    expect(f.accountType).toBe('contract');
    expect(f.contractLabel).toMatch(/Universal Router/);
    const s = await scoresOf(router);
    expect(s.DEFI_TRADING.score).toBe(0); // before the evidence registry: 606 on the mainnet export
    expect(s.DEFI_TRADING.factors?.[0].code).toBe('PROTOCOL_CONTRACT');
    expect(s.OVERALL.score).toBe(0);
    // and so the profile says
    const key = await createKey(app, 'Starter');
    const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/${router}`, headers: key.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accountType: 'contract', contractLabel: expect.stringMatching(/Universal Router/) });
    const wallet = await app.inject({ method: 'GET', url: `/api/v1/reputation/${sc.wallets.borrower}`, headers: key.headers });
    expect(wallet.json()).toMatchObject({ accountType: 'wallet', contractLabel: null });
  });
});
