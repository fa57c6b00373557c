// The import's decoding thread (thread.ts starts it): reads and decodes the export (batches.ts) and posts each event
// to the importer, at most WINDOW batches ahead of those it took, so memory stays bounded by a few batches.
import { parentPort, workerData } from 'node:worker_threads';
import { newDropCounter } from '../registry/gate.js';
import { useLocalRegistry, type LocalRegistry } from '../registry/index.js';
import { adoptMarkets, type LearnedMarkets } from '../registry/markets.js';
import { exportBatches, type ExportSpec } from './batches.js';
import type { ScanResult } from './scan.js';

/** the pre-pass's result, from the importing thread (spec.scanOnImporter) */
export interface ScanMessage {
  type: 'scan';
  result: ScanResult;
}

export interface WorkerData {
  spec: ExportSpec;
  module: string;
  tsx: boolean;
  local: { chainId: number; entries: LocalRegistry } | null;
  markets: LearnedMarkets;
}

const WINDOW = 2;
const port = parentPort!;
let credit = WINDOW;
let wake: (() => void) | null = null;
let deliverScan: (r: ScanResult) => void = () => undefined;
const scanned = new Promise<ScanResult>((resolve) => (deliverScan = resolve));
port.on('message', (m: unknown) => {
  if ((m as ScanMessage | undefined)?.type === 'scan') return deliverScan((m as ScanMessage).result);
  if (m !== 'ack') return;
  credit++;
  wake?.();
  wake = null;
});

const data = workerData as WorkerData;
if (data.local) useLocalRegistry(data.local.chainId, data.local.entries);
adoptMarkets(data.markets);
const dropped = newDropCounter();
try {
  for await (const ev of exportBatches(data.spec, dropped, undefined, data.spec.scanOnImporter ? scanned : undefined)) {
    if (ev.type === 'batch') {
      while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
      credit--;
    }
    port.postMessage(ev, ev.type === 'batch' && ev.copy ? [ev.copy.buffer as ArrayBuffer] : []);
  }
  port.postMessage({ type: 'done', dropped });
} catch (e) {
  const err = e instanceof Error ? e : new Error(String(e));
  port.postMessage({ type: 'error', name: err.name, message: err.message, stack: err.stack, dropped });
}
port.close();
