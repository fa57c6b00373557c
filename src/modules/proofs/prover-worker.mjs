// One proving thread. Loads the circuits' wasm and final zkeys once, builds each witness calculator once, and
// answers {id, circuit, input} with a Groth16 proof. Plain JavaScript so it runs the same under node, tsx and
// vitest. The curve is single-threaded: the pool itself is the parallelism, so nothing else spawns threads.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import * as snarkjs from 'snarkjs';
import { WitnessCalculatorBuilder } from 'circom_runtime';
import { buildBn128 } from 'ffjavascript';

// snarkjs asks ffjavascript for the bn128 curve on every proof; a multi-threaded curve is cached globally and
// a single-threaded one is rebuilt each time (slow). Caching a single-threaded one here (this thread's own
// globals) gives both: built once, and no extra threads.
globalThis.curve_bn128 = await buildBn128(true);

const circuits = {};
for (const [name, files] of Object.entries(workerData.circuits)) {
  const wasm = readFileSync(files.wasm);
  circuits[name] = {
    zkey: { type: 'mem', data: new Uint8Array(readFileSync(files.zkey)) },
    wc: await WitnessCalculatorBuilder(wasm, { sanityCheck: true }),
  };
}

// The witness runtime prints "Assert Failed" and friends to the console for a false statement; the caller
// gets the error as a message instead.
async function quietly(fn) {
  const { log, error } = console;
  console.log = console.error = () => {};
  try {
    return await fn();
  } finally {
    console.log = log;
    console.error = error;
  }
}

async function prove(name, input) {
  const c = circuits[name];
  if (!c) throw Object.assign(new Error(`unknown circuit ${name}`), { kind: 'internal' });
  let wtns;
  try {
    wtns = await quietly(() => c.wc.calculateWTNSBin(input, true));
  } catch (e) {
    throw Object.assign(new Error(String(e?.message ?? e).split('\n')[0]), { kind: 'unsatisfiable' });
  }
  return snarkjs.groth16.prove(c.zkey, { type: 'mem', data: wtns });
}

parentPort.on('message', async (msg) => {
  if (msg.type === 'stop') {
    parentPort.close();
    return;
  }
  try {
    const { proof, publicSignals } = await prove(msg.circuit, msg.input);
    parentPort.postMessage({ id: msg.id, ok: true, proof, publicSignals });
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, kind: e?.kind ?? 'internal', message: String(e?.message ?? e) });
  }
});
parentPort.postMessage({ type: 'ready' });
