// The decoding thread's entry (thread.ts): from the TypeScript sources (tests, `credence` run through tsx) it loads
// tsx's loader in this thread first; from dist/ the compiled module as it is.
import { workerData } from 'node:worker_threads';

if (workerData.tsx) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import(workerData.module);
