// The import's decoding thread (thread.ts starts it): reads and decodes the export (batches.ts) and posts each event
// to the importer, at most WINDOW batches ahead of those it took, so memory stays bounded by a few batches.
import { parentPort, workerData } from 'node:worker_threads';
import { newDropCounter } from '../registry/gate.js';
import { exportBatches, type ExportSpec } from './batches.js';

const WINDOW = 2;
const port = parentPort!;
let credit = WINDOW;
let wake: (() => void) | null = null;
port.on('message', (m: unknown) => {
  if (m !== 'ack') return;
  credit++;
  wake?.();
  wake = null;
});

const dropped = newDropCounter();
try {
  for await (const ev of exportBatches((workerData as { spec: ExportSpec }).spec, dropped)) {
    if (ev.type === 'batch') {
      while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
      credit--;
    }
    port.postMessage(ev);
  }
  port.postMessage({ type: 'done', dropped });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  port.postMessage({ type: 'error', name: err.name, message: err.message, stack: err.stack, dropped });
}
port.close();
