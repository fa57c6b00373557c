// One proving thread. Loads the circuits' wasm and final zkeys once (checked against the manifest), builds each
// witness calculator once, and answers {circuit, input} with a Groth16 proof. It runs at a lower CPU priority:
// proving is throughput work, and the request thread must not wait behind it.
import { parentPort, workerData } from 'node:worker_threads';
import * as snarkjs from 'snarkjs';
import { WitnessCalculatorBuilder } from 'circom_runtime';
import { lowerPriority, readChecked, serve, singleThreadedCurve } from './thread-setup.mjs';

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

try {
  lowerPriority(10);
  await singleThreadedCurve();
  const circuits = {};
  for (const [name, f] of Object.entries(workerData.circuits)) {
    circuits[name] = {
      zkey: { type: 'mem', data: new Uint8Array(readChecked(f.zkey, f.zkeySha256)) },
      wc: await WitnessCalculatorBuilder(readChecked(f.wasm, f.wasmSha256), { sanityCheck: true }),
    };
  }
  serve(parentPort, async ({ circuit, input }) => {
    const c = circuits[circuit];
    if (!c) throw new Error(`unknown circuit ${circuit}`);
    let wtns;
    try {
      wtns = await quietly(() => c.wc.calculateWTNSBin(input, true));
    } catch (e) {
      throw Object.assign(new Error(String(e?.message ?? e).split('\n')[0]), { kind: 'unsatisfiable' });
    }
    return snarkjs.groth16.prove(c.zkey, { type: 'mem', data: wtns });
  });
} catch (e) {
  parentPort.postMessage({ type: 'failed', message: String(e?.message ?? e) });
}
