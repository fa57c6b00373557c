// A fixed pool of worker threads running one script, with a bounded FIFO queue: at most `size` jobs run at once,
// a crashed thread fails its job and is replaced, `close()` ends every thread so the process can exit.
// The script answers {type: 'ready'} once loaded (or {type: 'failed', message}), then {id, ok, result} or
// {id, ok: false, kind, message} for each {id, ...job} it is sent.
import { Worker } from 'node:worker_threads';
import { unavailable } from '../../platform/errors.js';

export interface ThreadPool<J, R> {
  run(job: J): Promise<R>;
  stats(): { threads: number; busy: number; queued: number };
  close(): Promise<void>;
}

/** A job the script refused; `kind` says why (the caller maps it to its own error). */
export class JobError extends Error {
  constructor(
    readonly kind: string,
    message: string,
  ) {
    super(message);
  }
}

interface Queued<J, R> {
  job: J;
  resolve(v: R): void;
  reject(e: unknown): void;
}

interface Slot<J, R> {
  worker: Worker;
  ready: Promise<void>;
  current: Queued<J, R> | null;
}

export function createThreadPool<J extends object, R>(opts: {
  script: URL;
  size: number;
  workerData: Record<string, unknown>;
  /** what the threads are for, in shutdown and queue-full messages */
  label: string;
  /** jobs waiting beyond the running ones; more get 503 instead of growing memory without bound */
  maxQueue?: number;
}): ThreadPool<J, R> {
  const maxQueue = opts.maxQueue ?? 1000;
  const queue: Queued<J, R>[] = [];
  const slots: Slot<J, R>[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot<J, R> => {
    // `mod`: snarkjs pulls in the web-worker package, which, loaded in any worker thread, takes the thread for
    // one of its own and runs workerData.mod; an empty script keeps it from failing noisily.
    const worker = new Worker(opts.script, { workerData: { ...opts.workerData, mod: 'data:,' }, name: opts.label });
    const slot: Slot<J, R> = { worker, current: null, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: { type?: string; message?: string }) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'failed') reject(new Error(`${opts.label}: ${m.message}`));
        else return;
        worker.off('message', onMessage);
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    slot.ready.catch(() => undefined);
    worker.on('message', (m: { id?: number; ok?: boolean; result?: R; kind?: string; message?: string }) => {
      if (m.id === undefined || !slot.current) return;
      const q = slot.current;
      slot.current = null;
      if (m.ok) q.resolve(m.result!);
      else q.reject(new JobError(m.kind ?? 'internal', m.message ?? 'failed'));
      pump();
    });
    worker.on('error', (err) => {
      const q = slot.current;
      slot.current = null;
      q?.reject(err);
      const i = slots.indexOf(slot);
      if (i >= 0 && !closed) slots[i] = spawn();
      pump();
    });
    return slot;
  };
  for (let i = 0; i < opts.size; i++) slots.push(spawn());

  function pump() {
    for (const slot of slots) {
      if (closed || queue.length === 0) return;
      if (slot.current) continue;
      const q = queue.shift()!;
      slot.current = q;
      const id = nextId++;
      slot.ready.then(
        () => slot.worker.postMessage({ ...q.job, id }),
        (err) => {
          slot.current = null;
          q.reject(err);
        },
      );
    }
  }

  return {
    run(job) {
      if (closed) return Promise.reject(unavailable(`The ${opts.label} is shutting down.`));
      if (queue.length >= maxQueue) return Promise.reject(unavailable(`The ${opts.label} queue is full; retry shortly.`));
      return new Promise<R>((resolve, reject) => {
        queue.push({ job, resolve, reject });
        pump();
      });
    },
    stats: () => ({ threads: slots.length, busy: slots.filter((s) => s.current).length, queued: queue.length }),
    async close() {
      closed = true;
      for (const q of queue.splice(0)) q.reject(unavailable(`The ${opts.label} is shutting down.`));
      for (const s of slots) s.current?.reject(unavailable(`The ${opts.label} is shutting down.`));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
