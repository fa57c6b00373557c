// The export read and decoded on a thread of its own (worker.ts): the importing thread only writes, so reading,
// JSON parsing and decoding (most of an import's CPU) run beside the database's work instead of taking turns with
// the writes' own. The collector took over a quarter of the decoding's CPU with V8's default young generation (16 MB
// semi-spaces: a scavenge every few ms, each copying the batch in the making): the thread's is up to 192 MB, which the
// importing thread's cannot be given once node runs (1,000,760 rows on PostgreSQL, 2 cores: 38,400 rows/s decoded
// on the importing thread, 43,500 on this one with 96 MB, 44,600-46,400 with 192 MB). A young generation is memory
// the process holds, so a small machine gets a smaller one: `credence ingest` of that export peaked at 540-560 MB of RSS
// with 192 MB, 480 MB with 64 and 443 MB with 32.
import { totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DropCounter } from '../registry/gate.js';
import { learnedMarkets, learnFromLogs } from '../registry/markets.js';
import { localRegistry } from '../registry/index.js';
import type { BatchEvent, ExportSpec } from './batches.js';
import { EtlFieldError } from './fields.js';
import type { ScanMessage, WorkerData } from './worker.js';
import { scanLogs } from './scan.js';

const FROM_SOURCE = import.meta.url.endsWith('.ts');
const ENTRY = new URL('./worker-entry.mjs', import.meta.url);
const MODULE = new URL(FROM_SOURCE ? './worker.ts' : './worker.js', import.meta.url).href;

/** the memory this process may use: the machine's, or its cgroup's limit when lower (none: a huge number) */
export function machineMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < totalmem() ? limit : totalmem();
}

/** the decoding thread's young generation: a sixteenth of the memory, from 32 MB (512 MB) to 192 MB (3 GB and more) */
export function youngGenerationMb(memoryBytes: number): number {
  return Math.min(192, Math.max(32, Math.floor(memoryBytes / 2 ** 20 / 16 / 16) * 16));
}

type Message =
  | BatchEvent
  | { type: 'done'; dropped: DropCounter }
  | { type: 'error'; name: string; message: string; stack?: string; dropped: DropCounter };

const addDropped = (to: DropCounter, from: DropCounter) => {
  for (const k of Object.keys(to) as (keyof DropCounter)[]) to[k] += from[k];
};

/** exportBatches' events, from the decoding thread; the thread ends when they do (or the caller stops). */
export async function* workerBatches(spec: ExportSpec, dropped: DropCounter): AsyncGenerator<BatchEvent> {
  const worker = new Worker(ENTRY, {
    // the thread's registry and learned markets start as this thread's: the local chain's operator entries and
    // markets learned before the import decode the same on both
    workerData: { spec, module: MODULE, tsx: FROM_SOURCE, local: localRegistry(), markets: learnedMarkets() } satisfies WorkerData,
    // from the sources the entry registers tsx itself: the parent's flags (a test runner's, tsx's) are left out
    ...(FROM_SOURCE ? { execArgv: [] } : {}),
    resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb(machineMemory()) },
    name: 'ethereum-etl decoding',
  });
  const queue: Message[] = [];
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  worker.on('message', (m: Message) => {
    queue.push(m);
    notify();
  });
  worker.on('error', (e) => {
    failure ??= e;
    notify();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the ethereum-etl decoding thread stopped (exit code ${code})`);
    notify();
  });
  // the pre-pass over the logs on this thread, which mostly waits on the database's writes, while the decoding
  // thread indexes the export and decodes its transactions: its result is posted to that thread
  const stop = new AbortController();
  if (spec.scanOnImporter)
    scanLogs(spec.files, spec.chainId, stop.signal).then(
      (result) => worker.postMessage({ type: 'scan', result } satisfies ScanMessage),
      (e: unknown) => {
        failure ??= e instanceof Error ? e : new Error(String(e));
        notify();
      },
    );
  try {
    for (;;) {
      while (!queue.length && !failure) await new Promise<void>((resolve) => (wake = resolve));
      const m = queue.shift();
      if (!m) throw failure!;
      if (m.type === 'done' || m.type === 'error') {
        addDropped(dropped, m.dropped);
        if (m.type === 'done') return;
        throw m.name === 'EtlFieldError' ? new EtlFieldError(m.message) : Object.assign(new Error(m.message), { stack: m.stack });
      }
      if (m.type === 'batch') worker.postMessage('ack');
      // what the thread's registry learned from the export, this thread's learns too (later syncs decode with it),
      // unless this thread scanned the export itself
      if (m.type === 'positions' && !spec.scanOnImporter) learnFromLogs(spec.chainId, m.learned);
      yield m;
    }
  } finally {
    stop.abort();
    await worker.terminate();
  }
}
