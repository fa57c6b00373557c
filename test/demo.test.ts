// `npm run demo`'s world (scripts/demo-world.ts): the scenario replayed month by month on a local chain run as
// chain 1, read by the API while it happens. Each wallet scores what its printed description says, its score
// history spans the replayed year (GET history and the change feed, dated by calculatedAt), and the scores the
// demo prints are the API's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp } from './helpers/app.js';
import { startLocalChain, type LocalChain } from './helpers/local-chain.js';
import { checkClaims, DESCRIPTIONS, formatWorld, REPLAY_TIMEOUT, replayDemo, type DemoWorld } from '../scripts/demo-world.js';
import { ROLES, SCENARIO_START_DAYS_AGO } from '../scripts/scenarios.js';
import type { App } from '../src/platform/http/types.js';

let chain: LocalChain;
let app: App;
let world: DemoWorld;

beforeAll(async () => {
  chain = await startLocalChain({ initialDate: new Date(Date.now() - SCENARIO_START_DAYS_AGO * 86_400_000) });
  // as the demo runs: the shipped sanctions snapshot screens its wallets
  app = await createTestApp({ config: { rpcUrls: { 1: chain.url }, ingestConfirmations: 0, sanctionsSnapshot: true } });
  world = await replayDemo(app, chain);
}, REPLAY_TIMEOUT);

afterAll(async () => {
  await app?.close();
  await chain?.stop();
});

describe('npm run demo', () => {
  it('every wallet scores what its description says', () => {
    const results = checkClaims(world);
    expect(results.length).toBeGreaterThan(ROLES.length);
    for (const role of ROLES) expect(DESCRIPTIONS[role].length).toBeGreaterThan(0);
    expect(
      results.filter((r) => !r.holds).map((r) => `${r.role ?? 'all'}: ${r.says}`),
      formatWorld(world).join('\n'),
    ).toEqual([]);
  });

  it('the score history spans the replayed year, over HTTP', async () => {
    const key = await createKey(app, 'Growth');
    const year = world.replay.to.getTime() - world.replay.from.getTime();
    expect(year).toBeGreaterThan(300 * 86_400_000);
    const address = world.scenario.wallets.borrower;
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${address}/DEFI_LENDING/history?limit=100`,
      headers: key.headers,
    });
    expect(res.statusCode).toBe(200);
    const changes = res.json().changes as { calculatedAt: string; newScore: number }[];
    const times = changes.map((c) => Date.parse(c.calculatedAt)).sort((a, b) => a - b);
    // a change in each month the borrower repaid a loan, dated at the chain's time, none after the replay
    expect(changes.length).toBeGreaterThanOrEqual(6);
    expect(times.at(-1)! - times[0]).toBeGreaterThan(270 * 86_400_000);
    expect(times[0]).toBeGreaterThanOrEqual(world.replay.from.getTime());
    expect(times.at(-1)!).toBeLessThanOrEqual(world.replay.to.getTime());
    // the newest change is the score served now
    expect(changes[0].newScore).toBe(world.scores.borrower.DEFI_LENDING.score);
    // the change feed the console's chart reads carries the same dates
    const feed = await app.inject({ method: 'GET', url: `/api/v1/reputation/changes?address=${address}&limit=500`, headers: key.headers });
    const lending = (feed.json().changes as { category: string; calculatedAt: string }[]).filter((c) => c.category === 'DEFI_LENDING');
    expect(lending.map((c) => c.calculatedAt).sort()).toEqual(changes.map((c) => c.calculatedAt).sort());
    // the fresh wallet has nothing to show
    expect(world.history.fresh).toEqual([]);
  });

  it('the scores the demo prints are the API answers', async () => {
    const key = await createKey(app, 'Growth');
    for (const role of ROLES) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/${world.scenario.wallets[role]}`, headers: key.headers });
      const served = Object.fromEntries(
        (res.json().scores as { category: string; score: number; conduct: number }[]).map((s) => [s.category, [s.score, s.conduct]]),
      );
      expect(served, role).toEqual(Object.fromEntries(Object.values(world.scores[role]).map((s) => [s.category, [s.score, s.conduct]])));
    }
    // the printed table: a row per wallet, each cell the score and, where the backing holds it below, (conduct)
    const lines = formatWorld(world);
    for (const role of ROLES) {
      const row = lines.find((l) => l.startsWith(`${role} `))!;
      const cells = row.slice(role.padEnd(11).length + 1 + 42).match(/\d+ \(\d+\)|\d+/g);
      const expected = Object.values(world.scores[role]).map((x) => (x.conduct > x.score ? `${x.score} (${x.conduct})` : String(x.score)));
      expect(cells, role).toEqual(expected);
    }
    expect(lines).toContain(`all ${checkClaims(world).length} checks hold: each wallet scores what its description says`);
  });
});
