// Score history, the change feed (no change skipped, even one that commits late) and bulk scoring jobs, through HTTP.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, createTestApp, eventually, randomAddress, signInAdmin } from '../../../test/helpers/app.js';
import { sharedPostgresDatabase } from '../../../test/helpers/shared-db.js';
import { usingPostgres } from '../../../test/helpers/db.js';
import { toChecksum } from '../../platform/http/address.js';
import type { App } from '../../platform/http/types.js';
import { createScoresRepo } from '../scoring/repo.js';
import { createChangeLog } from '../scoring/changes-repo.js';
import type { ScoreChange } from '../scoring/contracts.js';

let app: App;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app.close());

/** A real score change: an admin's dispute revision through the scoring service (history row, outbox, event). */
async function revise(address: string, category: 'DEFI_LENDING' | 'GOVERNANCE', score: number) {
  const admin = await signInAdmin(app);
  await app.ctx.services.scoring!.applyRevisedScore(address, category, score, admin.address, randomUUID());
}

describe('GET /reputation/{address}/{category}/history', () => {
  it('lists changes newest first with their causes, paged with before', async () => {
    const key = await createKey(app, 'Starter');
    const address = randomAddress();
    await app.inject({ method: 'GET', url: `/api/v1/reputation/${address}/DEFI_LENDING`, headers: key.headers });
    for (const s of [700, 710, 720]) await revise(address, 'DEFI_LENDING', s);
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${address}/DEFI_LENDING/history?limit=2`,
      headers: key.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ address: toChecksum(address), category: 'DEFI_LENDING', count: 2 });
    expect(page.changes.map((c: { newScore: number }) => c.newScore)).toEqual([720, 710]);
    expect(page.changes[0]).toMatchObject({ oldScore: 710, cause: 'dispute_revision', tier: 'High', address: toChecksum(address) });
    expect(page.nextCursor).toBe(page.changes[1].cursor);
    const older = (
      await app.inject({
        method: 'GET',
        url: `/api/v1/reputation/${address}/DEFI_LENDING/history?limit=2&before=${page.nextCursor}`,
        headers: key.headers,
      })
    ).json();
    expect(older.changes[0].newScore).toBe(700);
    expect(older.nextCursor).toBeNull();
  });

  it('validates its parameters', async () => {
    const key = await createKey(app, 'Starter');
    const badCategory = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${randomAddress()}/lending/history`,
      headers: key.headers,
    });
    expect(badCategory.statusCode).toBe(400);
    expect(badCategory.json().fields.map((f: { field: string }) => f.field)).toContain('category');
    const res = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/${randomAddress()}/NFT/history?limit=0&before=x`,
      headers: key.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['limit', 'before']));
  });

  it('answers 400, never 500, for a cursor out of range, tampered or from another list; `cursor` and `before` page alike', async () => {
    const key = await createKey(app, 'Starter');
    const address = randomAddress();
    for (const s of [600, 610, 620]) await revise(address, 'DEFI_LENDING', s);
    const url = `/api/v1/reputation/${address}/DEFI_LENDING/history?limit=1`;
    const first = (await app.inject({ method: 'GET', url, headers: key.headers })).json();
    expect(first).toMatchObject({ count: 1, hasMore: true });
    const byCursor = (await app.inject({ method: 'GET', url: `${url}&cursor=${first.nextCursor}`, headers: key.headers })).json();
    const byBefore = (await app.inject({ method: 'GET', url: `${url}&before=${first.nextCursor}`, headers: key.headers })).json();
    expect(byCursor.changes[0].newScore).toBe(610);
    expect(byBefore).toEqual(byCursor);
    const [payload, sum] = (first.nextCursor as string).split('.');
    const edited = `${Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/"\d+"/, '"1"')).toString('base64url')}.${sum}`;
    const claimCursor = 'WyIyMDI1LTAxLTAxVDAwOjAwOjAwLjAwMDAwMFoiLCJhIl0.aaaaaaaaaa';
    for (const [param, value] of [
      ['before', '9223372036854775808'],
      ['before', '99999999999999999999'],
      ['cursor', '9223372036854775808'],
      ['cursor', edited],
      ['cursor', `${first.nextCursor}x`],
      ['cursor', claimCursor],
    ]) {
      const bad = await app.inject({ method: 'GET', url: `${url}&${param}=${value}`, headers: key.headers });
      expect(bad.statusCode, `${param}=${value}: ${bad.body}`).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'validation_failed', fields: [{ field: param }] });
    }
  });
});

describe('GET /reputation/changes', () => {
  it('a poller that follows nextCursor sees every change exactly once, in order', async () => {
    const key = await createKey(app, 'Starter');
    let cursor = (await app.inject({ method: 'GET', url: '/api/v1/reputation/changes?limit=1000', headers: key.headers })).json()
      .nextCursor;
    const a = randomAddress();
    const b = randomAddress();
    await revise(a, 'GOVERNANCE', 640);
    await revise(b, 'GOVERNANCE', 650);
    await revise(a, 'GOVERNANCE', 660);
    const seen: { address: string; newScore: number; category: string }[] = [];
    for (;;) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/changes?limit=2&after=${cursor}`, headers: key.headers });
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      seen.push(...page.changes);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
    }
    const governance = seen.filter((c) => c.category === 'GOVERNANCE' && [a, b].includes(c.address.toLowerCase()));
    expect(governance.map((c) => c.newScore)).toEqual([640, 650, 660]);
    // nothing new: the same cursor comes back
    const idle = (await app.inject({ method: 'GET', url: `/api/v1/reputation/changes?after=${cursor}`, headers: key.headers })).json();
    expect(idle).toMatchObject({ count: 0, nextCursor: cursor, hasMore: false });
    expect((await app.inject({ method: 'GET', url: `/api/v1/reputation/changes?cursor=${cursor}`, headers: key.headers })).json()).toEqual(
      idle,
    );
  });

  it('answers 400, never 500, for an `after` beyond bigint or a tampered cursor (issue #21)', async () => {
    const key = await createKey(app, 'Starter');
    for (const q of [
      'after=9223372036854775808',
      'after=18446744073709551616',
      'cursor=WyJzY29yZV9jaGFuZ2UiLCIxIl0.0000000000',
      'after=abc',
    ]) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/changes?${q}`, headers: key.headers });
      expect(res.statusCode, `${q}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe('validation_failed');
    }
    // the largest change number still reads (nothing after it)
    const max = await app.inject({ method: 'GET', url: '/api/v1/reputation/changes?after=9223372036854775807', headers: key.headers });
    expect(max.statusCode, max.body).toBe(200);
    expect(max.json()).toMatchObject({ count: 0, hasMore: false });
  });

  it('Free keys follow one wallet; the feed of every wallet needs Starter (as webhooks do)', async () => {
    const free = await createKey(app, 'Free');
    const all = await app.inject({ method: 'GET', url: '/api/v1/reputation/changes', headers: free.headers });
    expect(all.statusCode).toBe(403);
    const address = randomAddress();
    await revise(address, 'GOVERNANCE', 610);
    const one = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/changes?address=${address}&category=GOVERNANCE`,
      headers: free.headers,
    });
    expect(one.statusCode).toBe(200);
    expect(one.json().changes.map((c: { newScore: number }) => c.newScore)).toContain(610);
  });
});

describe.skipIf(!usingPostgres())('change feed ordering on PostgreSQL', () => {
  it('a change that commits late is not skipped: ids follow commit order', async () => {
    const [d1, d2, d3] = (await sharedPostgresDatabase(3))!;
    try {
      const repo1 = createScoresRepo(d1);
      const repo2 = createScoresRepo(d2);
      const feed = createChangeLog(d3);
      const start = (await feed.feed({ after: null, limit: 100_000 })).changes.at(-1)?.id ?? null;
      const change = (n: number): ScoreChange => ({
        address: randomAddress(),
        category: 'OVERALL',
        oldScore: null,
        newScore: n,
        confidence: 0.5,
        tier: 'Medium',
        cause: 'test',
        modelVersion: '2.0.0',
        calculatedAt: new Date(),
      });
      let releaseA!: () => void;
      const held = new Promise<void>((r) => (releaseA = r));
      let aInserted!: () => void;
      const inserted = new Promise<void>((r) => (aInserted = r));
      // A takes its id first and commits late
      const txA = d1.tx(async (q) => {
        await repo1.insertChanges(q, [change(501)]);
        aInserted();
        await held;
      });
      await inserted;
      let bDone = false;
      const txB = d2.tx((q) => repo2.insertChanges(q, [change(502)])).then(() => (bDone = true));
      // While A is open, B cannot commit ahead of it, so a poller sees neither and never moves past A.
      await new Promise((r) => setTimeout(r, 300));
      const during = await feed.feed({ after: start, limit: 100 });
      expect(during.changes.map((c) => c.newScore)).toEqual([]);
      expect(bDone).toBe(false);
      releaseA();
      await Promise.all([txA, txB]);
      const after = await feed.feed({ after: start, limit: 100 });
      expect(after.changes.map((c) => c.newScore)).toEqual([501, 502]);
    } finally {
      await d1.close();
      await d2.close();
      await d3.close();
    }
  });
});

describe('POST /reputation/batch-jobs', () => {
  it('scores many wallets off the request thread; results as JSON lines and CSV in request order', async () => {
    const key = await createKey(app, 'Starter');
    const addresses = Array.from({ length: 230 }, randomAddress);
    addresses.push(addresses[0]); // duplicates are answered once per occurrence
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: key.headers,
      payload: { addresses, category: 'OVERALL' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = res.json();
    expect(job).toMatchObject({ category: 'OVERALL', total: 231 });
    expect(['queued', 'running', 'completed']).toContain(job.status);
    // the quota counts every address when the job is accepted
    expect((await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json().queriesThisMonth).toBe(231);
    const done = await eventually(
      async () => {
        const s = (await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${job.id}`, headers: key.headers })).json();
        return s.status === 'completed' ? s : null;
      },
      { timeoutMs: 220_000, intervalMs: 250 },
    );
    expect(done).toMatchObject({ processed: 231, error: null });
    const jsonl = await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${job.id}/results`, headers: key.headers });
    expect(jsonl.statusCode).toBe(200);
    expect(jsonl.headers['content-type']).toContain('application/x-ndjson');
    const lines = jsonl.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(231);
    expect(lines.map((l) => l.address.toLowerCase())).toEqual(addresses);
    expect(lines[0]).toMatchObject({ category: 'OVERALL', tier: expect.any(String), modelVersion: expect.any(String) });
    // each line carries its coverage like the synchronous batch: this app has no chain source, so "none"
    for (const l of lines)
      expect(l.coverage).toMatchObject({ status: 'none', reason: 'NO_CHAIN_SOURCE', chains: [], asOf: expect.any(String) });
    const sync = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch',
      headers: key.headers,
      payload: { addresses: addresses.slice(0, 2), category: 'OVERALL' },
    });
    expect(Object.keys(lines[0]).sort()).toEqual(
      expect.arrayContaining(Object.keys(sync.json().results[0]).filter((k) => k !== 'ensName' && k !== 'factors')),
    );
    // a duplicate is the same entry (its coverage read when its own chunk was scored)
    const { coverage: c0, ...first } = lines[0];
    const { coverage: c230, ...dup } = lines[230];
    expect(dup).toEqual(first);
    expect(c230.status).toBe(c0.status);
    const csv = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/batch-jobs/${job.id}/results?format=csv`,
      headers: key.headers,
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\n');
    expect(rows[0]).toBe('address,category,score,confidence,tier,calculatedAt,modelVersion,coverage,conduct,backingUsd');
    expect(rows[1].split(',')[8]).toBe(String(lines[0].conduct));
    expect(rows).toHaveLength(232);
    expect(rows[1].split(',')[2]).toBe(String(lines[0].score));
    expect(rows.slice(1).every((r) => r.split(',')[7] === 'none')).toBe(true);
    // the header is documented in the OpenAPI description of the results route
    const doc = (await app.inject({ method: 'GET', url: '/swagger/v1/swagger.json' })).json();
    const results = doc.paths['/api/v1/reputation/batch-jobs/{id}/results'].get.description;
    expect(results).toContain('address,category,score,confidence,tier,calculatedAt,modelVersion,coverage,conduct,backingUsd');
    expect(results).toContain('`coverage`');
  }, 240_000); // bulk work gives way to everything else: on a loaded machine 231 first reads take a while

  it('results stored before coverage existed still download (empty coverage column)', async () => {
    const key = await createKey(app, 'Starter');
    const address = toChecksum(randomAddress());
    const [row] = await app.ctx.db.query<{ id: string }>(
      `INSERT INTO batch_jobs (api_key_id, category, addresses, total, processed, status, completed_at) VALUES ($1, 'NFT', $2, 1, 1, 'completed', now()) RETURNING id`,
      [key.id, [address.toLowerCase()]],
    );
    const old = JSON.stringify({
      address,
      category: 'NFT',
      score: 300,
      confidence: 0.5,
      tier: 'Low',
      calculatedAt: new Date().toISOString(),
      modelVersion: '2.0.0',
    });
    await app.ctx.db.query('INSERT INTO batch_job_results (job_id, chunk, lines) VALUES ($1, 0, $2)', [row.id, old]);
    const csv = await app.inject({
      method: 'GET',
      url: `/api/v1/reputation/batch-jobs/${row.id}/results?format=csv`,
      headers: key.headers,
    });
    expect(csv.statusCode).toBe(200);
    const rows = csv.body.trim().split('\n');
    // its coverage, conduct and backingUsd columns are empty
    expect(rows[1].split(',')).toHaveLength(10);
    expect(rows[1].endsWith(',,,')).toBe(true);
  });

  it('only the creating key sees a job; a job larger than the quota is refused whole; limits are enforced', async () => {
    const key = await createKey(app, 'Free');
    const other = await createKey(app, 'Starter');
    const tooMany = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: key.headers,
      payload: { addresses: Array.from({ length: 101 }, randomAddress), category: 'OVERALL' },
    });
    expect(tooMany.statusCode).toBe(429);
    expect(tooMany.json().error).toBe('quota_exceeded');
    expect((await app.inject({ method: 'GET', url: '/api/v1/billing/usage', headers: key.headers })).json().queriesThisMonth).toBe(0);
    const ok = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: key.headers,
      payload: { addresses: [randomAddress()], category: 'NFT' },
    });
    expect(ok.statusCode).toBe(202);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${ok.json().id}`, headers: other.headers })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${randomUUID()}`, headers: key.headers })).statusCode,
    ).toBe(404);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: other.headers,
      payload: { addresses: ['0x12'], category: 'nft' },
    });
    expect(bad.statusCode).toBe(400);
    const empty = await app.inject({
      method: 'POST',
      url: '/api/v1/reputation/batch-jobs',
      headers: other.headers,
      payload: { addresses: [], category: 'NFT' },
    });
    expect(empty.statusCode).toBe(400);
  });

  it('results of a job still running are 409', async () => {
    const key = await createKey(app, 'Starter');
    // a job row queued but not yet claimed (as on an instance whose workers are busy)
    const [row] = await app.ctx.db.query<{ id: string }>(
      `INSERT INTO batch_jobs (api_key_id, category, addresses, total) VALUES ($1, 'OVERALL', $2, 1) RETURNING id`,
      [key.id, [randomAddress()]],
    );
    await app.ctx.db.query(`UPDATE batch_jobs SET claimed_until = now() + interval '1 hour', status = 'running' WHERE id = $1`, [row.id]);
    const res = await app.inject({ method: 'GET', url: `/api/v1/reputation/batch-jobs/${row.id}/results`, headers: key.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('invalid_state');
  });
});
