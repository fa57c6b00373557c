import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eventually, randomAddress } from '../../../test/helpers/app.js';
import type { App } from '../../platform/http/types.js';
import { createEventBus, type EventBus } from '../../platform/events/bus.js';
import { createCacheFactory } from '../../platform/cache/index.js';
import { SCORE_UPDATED, type ScoreChange } from './contracts.js';
import { backgroundSettled } from './background.js';
import { createScoringService, type ScoringServiceImpl } from './service.js';
import { createIngestionRepo } from '../ingestion/repo.js';
import { MODEL_VERSION } from './model/index.js';
import { model } from './params.js';
import { createFeatureReader } from './features/index.js';

const UNVERIFIED_PER_CREDITOR = model.params.debtClaims.unverifiedPerCreditor;
const WEIGHTS = model.weights;

let app: App;
/** A scoring service of its own (its own cache, so it reads the database) over the app's database and services. */
const ownService = (bus: EventBus, now?: () => Date) =>
  createScoringService({
    db: app.ctx.db,
    bus,
    caches: createCacheFactory(bus),
    features: createFeatureReader(app.ctx.db),
    services: app.ctx.services,
    now,
  });
let scoring: ScoringServiceImpl;
const events: ScoreChange[] = [];

beforeAll(async () => {
  // no notice period here: the claim's effect on a revision is what is checked (the notice has its own tests)
  app = await createTestApp({ config: { claimsPerIpPerMinute: 100_000, claimsPerCreditorPerMinute: 100_000, claimNoticeHours: 0 } });
  scoring = app.ctx.services.scoring as ScoringServiceImpl;
  app.ctx.bus.subscribe<ScoreChange>(SCORE_UPDATED, (c) => void events.push(c));
});
afterAll(async () => {
  await app?.close();
});

const eventsFor = (address: string) => events.filter((e) => e.address === address);
const scoreOf = async (address: string, category: 'OVERALL' | 'DEFI_LENDING' | 'DEFI_TRADING') =>
  (await scoring.getScore(address, category)).score;

async function fileClaim(debtor: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/debt-claims',
    payload: {
      creditorAddress: randomAddress(),
      debtorAddress: debtor,
      claimType: 'DefaultedLoan',
      amount: 250,
      currency: 'USDC',
      description: 'Loan of 250 USDC not repaid by the due date',
      evidenceTransactionHash: `0x${randomBytes(32).toString('hex')}`,
      chainId: 1,
      protocolName: 'Aave',
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

describe('first scoring', () => {
  it('stores nine rows, records no history and announces nothing', async () => {
    const a = randomAddress();
    expect(await scoring.knownAddresses([a])).toEqual([]);
    const scores = await scoring.getScores(a);
    expect(scores).toHaveLength(9);
    expect(await scoring.knownAddresses([a, randomAddress()])).toEqual([a]);
    const rows = await app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scores WHERE address = $1', [a]);
    expect(rows[0].n).toBe(9);
    expect(await scoring.history(a)).toEqual([]);
    expect(eventsFor(a)).toEqual([]);
  });
  it('recomputing without new evidence changes nothing', async () => {
    const a = randomAddress();
    await scoring.getScores(a);
    expect(await scoring.recompute(a, 'ingestion')).toEqual([]);
    expect(await scoring.history(a)).toEqual([]);
  });
});

describe('changes', () => {
  it('a dispute revision writes history, an audit record and exactly one event per change', async () => {
    const a = randomAddress();
    const overallBefore = await scoreOf(a, 'OVERALL');
    const changes = await scoring.applyRevisedScore(a, 'DEFI_TRADING', 700, 'wallet:0xadmin', 'dispute-42');
    expect(changes).toHaveLength(2);
    const trading = changes.find((c) => c.category === 'DEFI_TRADING')!;
    expect(trading).toMatchObject({
      address: a,
      oldScore: 0,
      newScore: 700,
      tier: 'High',
      cause: 'dispute_revision',
      modelVersion: MODEL_VERSION,
    });
    const overall = changes.find((c) => c.category === 'OVERALL')!;
    expect(overall.oldScore).toBe(overallBefore);
    expect(overall.newScore).toBe(overallBefore + Math.round(WEIGHTS.DEFI_TRADING * 700));

    expect(eventsFor(a)).toEqual(changes);
    const history = await scoring.history(a);
    expect(history.map(({ category, oldScore, newScore, cause }) => ({ category, oldScore, newScore, cause }))).toEqual(
      changes.map(({ category, oldScore, newScore, cause }) => ({ category, oldScore, newScore, cause })),
    );
    const audit = await app.ctx.db.query<{ actor: string; action: string; details: Record<string, unknown> }>(
      'SELECT actor, action, details FROM audit_log WHERE target = $1',
      [`wallet:${a}`],
    );
    expect(audit).toEqual([
      {
        actor: 'wallet:0xadmin',
        action: 'score.revised',
        details: { category: 'DEFI_TRADING', disputeId: 'dispute-42', oldScore: 0, newScore: 700 },
      },
    ]);

    // the same revision again is no change: no history, no event
    expect(await scoring.applyRevisedScore(a, 'DEFI_TRADING', 700, 'wallet:0xadmin', 'dispute-42')).toEqual([]);
    expect(eventsFor(a)).toHaveLength(2);
    expect(await scoring.history(a)).toHaveLength(2);
  });

  it('a revision of a never-scored wallet scores it first, then changes it', async () => {
    const a = randomAddress();
    const changes = await scoring.applyRevisedScore(a, 'OVERALL', 555, 'wallet:0xadmin', 'dispute-7');
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ category: 'OVERALL', newScore: 555, tier: 'Medium' });
    expect(await scoreOf(a, 'OVERALL')).toBe(555);
  });

  it('a revision lasts until the category evidence changes; a debt claim only shifts it by its own points', async () => {
    const a = randomAddress();
    await scoring.applyRevisedScore(a, 'DEFI_LENDING', 640, 'wallet:0xadmin', 'dispute-9');
    expect(await scoreOf(a, 'DEFI_LENDING')).toBe(640);
    // new evidence elsewhere (or none) keeps it
    expect(await scoring.recompute(a, 'ingestion')).toEqual([]);
    expect(await scoreOf(a, 'DEFI_LENDING')).toBe(640);
    // an (unverified) debt claim never erases an admin's revision: it shifts it by the claim's own points
    await fileClaim(a);
    await eventually(async () => (await scoreOf(a, 'DEFI_LENDING')) === 640 - UNVERIFIED_PER_CREDITOR);
    const last = (await scoring.history(a)).filter((c) => c.category === 'DEFI_LENDING').at(-1)!;
    expect(last).toMatchObject({ oldScore: 640, newScore: 640 - UNVERIFIED_PER_CREDITOR, cause: 'debt_claim' });
    const entry = await scoring.getScore(a, 'DEFI_LENDING');
    expect(entry.factors?.map((f) => f.code)).toContain('DEBT_CLAIM_PENDING_UNVERIFIED');
    expect(entry.factors?.map((f) => f.code)).toContain('DISPUTE_REVISION');
  });

  it('refuses a revised score outside 0-1000', async () => {
    await expect(scoring.applyRevisedScore(randomAddress(), 'NFT', 1001, 'x', 'd')).rejects.toThrow(RangeError);
  });
});

describe('decay at read time', () => {
  it('lowers confidence by 5% per 30 days since the last new evidence', async () => {
    // lending evidence a month old (an unverified claim is no evidence: it moves no anchor)
    const a = randomAddress();
    const at = new Date(Date.now() - 30 * 86_400_000);
    await createIngestionRepo(app.ctx.db).insertActivity(
      (['lending_supply', 'lending_borrow', 'lending_repay'] as const).map((kind, i) => ({
        chainId: 1,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        logIndex: i,
        wallet: a,
        kind,
        blockNumber: 18_000_000 + i,
        occurredAt: at,
        contract: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
        counterparty: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        tokenId: null,
        amount: '1000000000',
        direction: null,
        protocol: 'aave-v3',
        ref: null,
        valueUsd: 1000,
      })) as never,
    );
    await app.ctx.services.scoring!.recompute(a, 'ingestion');
    const [row] = await app.ctx.db.query<{ confidence: number; decay_anchor: Date }>(
      "SELECT confidence, decay_anchor FROM scores WHERE address = $1 AND category = 'DEFI_LENDING'",
      [a],
    );
    expect(row.decay_anchor).toBeInstanceOf(Date);
    // The same service reading the same rows with a clock 60 days later (its own cache, so it reads the database).
    let clock = new Date(row.decay_anchor.getTime());
    const bus = createEventBus({ instanceId: 'clocked', channel: 'clocked' });
    const later = ownService(bus, () => clock);
    expect((await later.getScore(a, 'DEFI_LENDING')).confidence).toBeCloseTo(row.confidence, 3);
    clock = new Date(row.decay_anchor.getTime() + 60 * 86_400_000);
    await bus.close();
    const bus2 = createEventBus({ instanceId: 'clocked2', channel: 'clocked2' });
    const later2 = ownService(bus2, () => clock);
    expect((await later2.getScore(a, 'DEFI_LENDING')).confidence).toBeCloseTo(row.confidence * 0.95 * 0.95, 3);
    const [batchEntry] = await later2.getBatch([a], 'DEFI_LENDING');
    expect(batchEntry.confidence).toBeCloseTo(row.confidence * 0.9025, 3);
  });
});

describe('model upgrade', () => {
  it('scores stored under 2.0.0 are recomputed on their next read, single and batch (cause model_upgrade)', async () => {
    // a flash loop in one block: 2.0.0 scored it in the 800s, 3.0.0 holds it at 0
    const loop = async (w: string) => {
      await createIngestionRepo(app.ctx.db).insertActivity(
        (['lending_supply', 'lending_borrow', 'lending_repay', 'lending_withdraw'] as const).map((kind, i) => ({
          chainId: 1,
          txHash: `0x${randomBytes(32).toString('hex')}`,
          logIndex: i,
          wallet: w,
          kind,
          blockNumber: 19_000_000,
          occurredAt: new Date(Date.now() - 86_400_000),
          contract: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
          counterparty: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
          tokenId: null,
          amount: '1000000000000',
          direction: null,
          protocol: 'aave-v3',
          ref: null,
          valueUsd: 1_000_000,
        })) as never,
      );
      await scoring.recompute(w, 'ingestion');
      // what a 2.0.0 deployment left in the table
      await app.ctx.db.query(
        "UPDATE scores SET model_version = '2.0.0', score = 839, model_score = 839 WHERE address = $1 AND category = 'DEFI_LENDING'",
        [w],
      );
      await app.ctx.db.query("UPDATE scores SET model_version = '2.0.0' WHERE address = $1", [w]);
    };
    const [one, two] = [randomAddress(), randomAddress()];
    await loop(one);
    await loop(two);
    // a fresh instance (its own cache) reads what is stored
    const bus = createEventBus({ instanceId: 'upgrade', channel: 'upgrade' });
    const fresh = ownService(bus);
    const single = await fresh.getScore(one, 'DEFI_LENDING');
    expect(single).toMatchObject({ score: 0, modelVersion: MODEL_VERSION });
    const [batch] = await fresh.getBatch([two], 'DEFI_LENDING');
    expect(batch).toMatchObject({ score: 0, modelVersion: MODEL_VERSION });
    for (const w of [one, two]) {
      const rows = await app.ctx.db.query<{ model_version: string }>('SELECT model_version FROM scores WHERE address = $1', [w]);
      expect(rows.map((r) => r.model_version)).toEqual(Array(9).fill(MODEL_VERSION));
      const changes = await app.ctx.db.query<{ cause: string; old_score: number; new_score: number }>(
        "SELECT cause, old_score, new_score FROM score_changes WHERE address = $1 AND category = 'DEFI_LENDING'",
        [w],
      );
      expect(changes).toEqual([{ cause: 'model_upgrade', old_score: 839, new_score: 0 }]);
    }
    await bus.close();
  });

  it('scores stored by 3.0.0 are recomputed on their next read, and gain conduct and backing (cause model_upgrade)', async () => {
    // $5k borrowed against $7k for ten months, repaid with $200 of interest: a clean record, little backing
    const w = randomAddress();
    const day = 86_400_000;
    const t0 = Date.now() - 320 * day;
    const rows = [
      ['lending_supply', 0, '7000000000', 7_000],
      ['lending_borrow', 1, '5000000000', 5_000],
      ['lending_repay', 300, '5200000000', 5_200],
      ['lending_withdraw', 301, '7000000000', 7_000],
    ] as const;
    await createIngestionRepo(app.ctx.db).insertActivity(
      rows.map(([kind, d, amount, usd], i) => ({
        chainId: 1,
        txHash: `0x${randomBytes(32).toString('hex')}`,
        logIndex: 0,
        wallet: w,
        kind,
        blockNumber: 19_000_000 + i,
        occurredAt: new Date(t0 + d * day),
        contract: '0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2',
        counterparty: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
        tokenId: null,
        amount,
        direction: null,
        protocol: 'aave-v3',
        ref: null,
        valueUsd: usd,
        txFrom: w,
      })) as never,
    );
    await scoring.recompute(w, 'ingestion');
    const [now] = await app.ctx.db.query<{ score: number; conduct: number; backing_usd: number }>(
      "SELECT score, conduct, backing_usd FROM scores WHERE address = $1 AND category = 'DEFI_LENDING'",
      [w],
    );
    // its conduct is a clean ten-month loan; its score is held to the interest beyond what $5k parked earns (~$52)
    expect(now.conduct).toBeGreaterThan(now.score);
    expect(Number(now.backing_usd)).toBeCloseTo(200 - (5_000 * 299 * 0.036) / 365, 0);
    // what a 3.0.0 deployment left in the table (no conduct or backing: migration 0043 adds the columns empty)
    await backgroundSettled();
    await app.ctx.db.query("UPDATE scores SET model_version = '3.0.0', conduct = NULL, backing_usd = NULL WHERE address = $1", [w]);
    await app.ctx.db.query("UPDATE scores SET score = 700, model_score = 700 WHERE address = $1 AND category = 'DEFI_LENDING'", [w]);

    const bus = createEventBus({ instanceId: 'upgrade4', channel: 'upgrade4' });
    const fresh = ownService(bus);
    expect(await fresh.getScore(w, 'DEFI_LENDING')).toMatchObject({ score: now.score, conduct: now.conduct, modelVersion: '4.1.0' });
    const changes = await app.ctx.db.query<{ cause: string; old_score: number; new_score: number }>(
      "SELECT cause, old_score, new_score FROM score_changes WHERE address = $1 AND category = 'DEFI_LENDING' AND cause = 'model_upgrade'",
      [w],
    );
    expect(changes).toEqual([{ cause: 'model_upgrade', old_score: 700, new_score: now.score }]);
    const stored = await app.ctx.db.query<{ conduct: number | null }>('SELECT conduct FROM scores WHERE address = $1', [w]);
    expect(stored.every((r) => r.conduct !== null)).toBe(true);
    await bus.close();
  });
});
