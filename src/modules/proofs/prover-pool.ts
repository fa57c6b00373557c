// A fixed pool of proving threads (prover-worker.mjs) with a bounded FIFO queue. Proving never runs on the
// event loop; at most `size` proofs run at once; `close()` ends every thread so the process can exit.
import { Worker } from 'node:worker_threads';
import { AppError, unavailable } from '../../platform/errors.js';
import type { Groth16Proof } from './encoding.js';

export type CircuitName = 'score_threshold' | 'age_over';

export interface ProverPool {
  prove(circuit: CircuitName, input: Record<string, string>): Promise<{ proof: Groth16Proof; publicSignals: string[] }>;
  stats(): { threads: number; busy: number; queued: number };
  close(): Promise<void>;
}

interface Job {
  circuit: CircuitName;
  input: Record<string, string>;
  resolve(v: { proof: Groth16Proof; publicSignals: string[] }): void;
  reject(e: unknown): void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  job: Job | null;
}

export function createProverPool(opts: {
  size: number;
  circuits: Record<CircuitName, { wasm: string; zkey: string }>;
  /** Jobs waiting beyond the running ones; more get 503 instead of growing memory without bound. */
  maxQueue?: number;
}): ProverPool {
  const maxQueue = opts.maxQueue ?? 1000;
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 1;
  let closed = false;

  const spawn = (): Slot => {
    // `mod`: snarkjs pulls in the web-worker package, which, loaded in any worker thread, takes the thread for
    // one of its own and runs workerData.mod; an empty script keeps it from failing noisily.
    const worker = new Worker(new URL('./prover-worker.mjs', import.meta.url), { workerData: { circuits: opts.circuits, mod: 'data:,', name: 'credence-prover' } });
    const slot: Slot = { worker, job: null, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: { type?: string }) => {
        if (m.type === 'ready') {
          worker.off('message', onMessage);
          resolve();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    slot.ready.catch(() => undefined);
    worker.on('message', (m: { id?: number; ok?: boolean; proof?: Groth16Proof; publicSignals?: string[]; kind?: string; message?: string }) => {
      if (m.id === undefined || !slot.job) return;
      const job = slot.job;
      slot.job = null;
      if (m.ok) job.resolve({ proof: m.proof!, publicSignals: m.publicSignals! });
      else if (m.kind === 'unsatisfiable') job.reject(new AppError('proof_unsatisfiable', 'The statement is false for the committed value, so no proof exists.'));
      else job.reject(new Error(`prover: ${m.message}`));
      pump();
    });
    worker.on('error', (err) => {
      // a crashed thread fails its job and is replaced
      const job = slot.job;
      slot.job = null;
      job?.reject(err);
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
      if (slot.job) continue;
      const job = queue.shift()!;
      slot.job = job;
      const id = nextId++;
      slot.ready.then(
        () => slot.worker.postMessage({ id, circuit: job.circuit, input: job.input }),
        (err) => {
          slot.job = null;
          job.reject(err);
        },
      );
    }
  }

  return {
    prove(circuit, input) {
      if (closed) return Promise.reject(unavailable('The prover is shutting down.'));
      if (queue.length >= maxQueue) return Promise.reject(unavailable('The prover queue is full; retry shortly.'));
      return new Promise((resolve, reject) => {
        queue.push({ circuit, input, resolve, reject });
        pump();
      });
    },
    stats: () => ({ threads: slots.length, busy: slots.filter((s) => s.job).length, queued: queue.length }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(unavailable('The prover is shutting down.'));
      for (const s of slots) s.job?.reject(unavailable('The prover is shutting down.'));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
