// Shared by the proving and verifying threads (plain JavaScript so they run the same under node, tsx and vitest).
import { createHash } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { buildBn128 } from 'ffjavascript';

/**
 * Lowers this thread's CPU priority (Linux: the nice value is per thread, and setpriority takes a thread id), so
 * that on a busy machine the request thread always runs first. Elsewhere it does nothing.
 */
export function lowerPriority(nice) {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // no /proc/thread-self (not Linux) or not permitted: run at normal priority
  }
}

/** A committed artifact, refused unless its sha256 is the one the manifest names. */
export function readChecked(file, sha256) {
  const bytes = readFileSync(file);
  const actual = createHash('sha256').update(bytes).digest('hex');
  if (actual !== sha256) throw new Error(`${file} does not match circuits/build/manifest.json; run npm run build:circuits`);
  return bytes;
}

/**
 * snarkjs asks ffjavascript for the bn128 curve on every call; a multi-threaded curve is cached globally and a
 * single-threaded one is rebuilt each time (slow). Caching a single-threaded one in this thread's globals gives
 * both: built once, and no threads of its own (the pools are the parallelism).
 */
export async function singleThreadedCurve() {
  globalThis.curve_bn128 ??= await buildBn128(true);
  return globalThis.curve_bn128;
}

/** Answers each {id, ...job} with {id, ok, result} or {id, ok: false, kind, message}; then says ready. */
export function serve(port, handle) {
  port.on('message', async (msg) => {
    try {
      port.postMessage({ id: msg.id, ok: true, result: await handle(msg) });
    } catch (e) {
      port.postMessage({ id: msg.id, ok: false, kind: e?.kind ?? 'internal', message: String(e?.message ?? e) });
    }
  });
  port.postMessage({ type: 'ready' });
}
