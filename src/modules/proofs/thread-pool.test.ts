// The thread pools behind proving and verifying: bounded concurrency and queue, failures, shutdown, artifact checks,
// and the proving threads' lower CPU priority.
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, eventually } from '../../../test/helpers/app.js';
import { AppError } from '../../platform/errors.js';
import { circuitFiles } from './artifacts.js';
import { startRuntime, type ProofRuntime } from './runtime.js';
import { createThreadPool, JobError, type ThreadPool } from './thread-pool.js';

// A tiny worker speaking the pool's protocol: {ms} sleeps and answers the thread's busy count, {fail} refuses,
// {crash} throws outside the handler (the thread dies).
const script = (setup = '') =>
  new URL(
    'data:text/javascript,' +
      encodeURIComponent(`
        import { parentPort } from 'node:worker_threads';
        ${setup}
        let busy = 0;
        parentPort.on('message', async (m) => {
          if (m.crash) setTimeout(() => { throw new Error('boom'); });
          else if (m.fail) parentPort.postMessage({ id: m.id, ok: false, kind: m.fail, message: 'refused' });
          else { busy++; const b = busy; await new Promise((r) => setTimeout(r, m.ms)); busy--; parentPort.postMessage({ id: m.id, ok: true, result: b }); }
        });
        parentPort.postMessage({ type: 'ready' });`),
  );

let pools: { close(): Promise<void> }[] = [];
const track = <T extends { close(): Promise<void> }>(p: T) => (pools.push(p), p);
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

describe('thread pool', () => {
  it('runs at most `size` jobs at once and queues the rest in order', async () => {
    const pool: ThreadPool<{ ms: number }, number> = track(
      createThreadPool({ script: script(), size: 2, workerData: {}, label: 'test pool' }),
    );
    // both threads started first: a thread still booting would let the other finish jobs 1 and 2 before job 0
    await Promise.all([pool.run({ ms: 1 }), pool.run({ ms: 1 })]);
    const order: number[] = [];
    const jobs = Array.from({ length: 6 }, (_, i) => pool.run({ ms: 30 }).then((r) => (order.push(i), r)));
    expect(pool.stats()).toMatchObject({ threads: 2, queued: 4 });
    expect(await Promise.all(jobs)).toEqual([1, 1, 1, 1, 1, 1]); // one job per thread at a time
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
    expect(pool.stats()).toEqual({ threads: 2, busy: 0, queued: 0 });
  });

  it('answers 503 once the queue is full instead of growing', async () => {
    const pool = track(
      createThreadPool<{ ms: number }, number>({ script: script(), size: 1, workerData: {}, label: 'test pool', maxQueue: 2 }),
    );
    const running = [pool.run({ ms: 50 }), pool.run({ ms: 1 }), pool.run({ ms: 1 })];
    await expect(pool.run({ ms: 1 })).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The test pool queue is full; retry shortly.',
    });
    await Promise.all(running);
  });

  it('passes a refused job on as a JobError with its kind', async () => {
    const pool = track(createThreadPool<{ fail: string }, number>({ script: script(), size: 1, workerData: {}, label: 'test pool' }));
    const err = await pool.run({ fail: 'unsatisfiable' }).catch((e) => e);
    expect(err).toBeInstanceOf(JobError);
    expect(err).toMatchObject({ kind: 'unsatisfiable', message: 'refused' });
  });

  it('fails the job of a crashed thread and replaces the thread', async () => {
    const pool = track(
      createThreadPool<{ crash?: boolean; ms?: number }, number>({ script: script(), size: 1, workerData: {}, label: 'test pool' }),
    );
    await expect(pool.run({ crash: true })).rejects.toThrow('boom');
    expect(await pool.run({ ms: 1 })).toBe(1);
  });

  it('fails jobs with the reason when a thread cannot start', async () => {
    const pool = track(
      createThreadPool<{ ms: number }, number>({
        script: script(`parentPort.postMessage({ type: 'failed', message: 'no artifacts' }); await new Promise(() => {});`),
        size: 1,
        workerData: {},
        label: 'test pool',
      }),
    );
    await expect(pool.run({ ms: 1 })).rejects.toThrow('test pool: no artifacts');
  });

  it('rejects queued and running jobs on close, and refuses new ones', async () => {
    const pool = createThreadPool<{ ms: number }, number>({ script: script(), size: 1, workerData: {}, label: 'test pool' });
    const running = expect(pool.run({ ms: 200 })).rejects.toMatchObject({ code: 'unavailable' });
    const queued = expect(pool.run({ ms: 1 })).rejects.toMatchObject({ code: 'unavailable' });
    await pool.close();
    await Promise.all([running, queued]);
    await expect(pool.run({ ms: 1 })).rejects.toMatchObject({ message: 'The test pool is shutting down.' });
  });
});

/** The nice value of each thread of this process (Linux). */
const niceOfThreads = () =>
  readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      // fields after the ")" that ends the thread name: state is field 3, nice field 19
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
const niceThreads = () => niceOfThreads().filter((n) => n === 10).length;

describe('proof threads', () => {
  it.runIf(process.platform === 'linux')('start when an API instance is ready (warm-up) and stop when it closes', async () => {
    const before = niceThreads();
    const app = await createTestApp({ config: { proverWarmup: true, proverConcurrency: 2 } });
    try {
      await eventually(() => niceThreads() - before === 2, { timeoutMs: 20_000 });
    } finally {
      await app.close();
    }
    await eventually(() => niceThreads() === before, { timeoutMs: 10_000 });
  });

  it('refuse an artifact whose sha256 is not the manifest one', async () => {
    const f = circuitFiles('score_threshold');
    const pool = track(
      createThreadPool<{ circuit: string; publicSignals: string[]; proof: unknown }, boolean>({
        script: new URL('./verifier-worker.mjs', import.meta.url),
        size: 1,
        workerData: { circuits: { score_threshold: { vkey: f.vkey, vkeySha256: '0'.repeat(64) } } },
        label: 'verifier',
      }),
    );
    await expect(pool.run({ circuit: 'score_threshold', publicSignals: [], proof: {} })).rejects.toThrow(
      'does not match circuits/build/manifest.json',
    );
  });

  it('prove at nice 10 (Linux) while the verifying thread keeps normal priority, and map a false statement to 422', async () => {
    const before = process.platform === 'linux' ? niceThreads() : 0;
    const rt: ProofRuntime = track(startRuntime({ provers: 2, verifiers: 1 }));
    // a witness that violates the circuit: the threads must have started to answer it
    const err = await rt
      .prove('score_threshold', { threshold: '700', categoryId: '1', subject: '1', commitment: '1', score: '650', salt: '1' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('proof_unsatisfiable');
    expect(
      await rt.verify('score_threshold', [1n, 2n, 3n, 4n], {
        pi_a: ['1', '2', '1'],
        pi_b: [
          ['1', '2'],
          ['3', '4'],
          ['1', '0'],
        ],
        pi_c: ['1', '2', '1'],
        protocol: 'groth16',
        curve: 'bn128',
      }),
    ).toBe(false);
    if (process.platform === 'linux') expect(niceThreads() - before).toBe(2);
    expect(rt.stats()).toEqual({ provers: { threads: 2, busy: 0, queued: 0 }, verifiers: { threads: 1, busy: 0, queued: 0 } });
  });
});
