// One verifying thread: snarkjs' groth16.verify step for step (field check of the public signals, point validity,
// one pairing product) with the verification keys parsed once, on a single-threaded curve built once. Keeping it
// off the request thread keeps the ~20 ms pairing and the curve's start-up off the event loop.
import { parentPort, workerData } from 'node:worker_threads';
import { Scalar, utils } from 'ffjavascript';
import { readChecked, serve, singleThreadedCurve } from './thread-setup.mjs';

function prepareKey(c, vk) {
  const k = utils.unstringifyBigInts(vk);
  const IC = new Uint8Array(c.G1.F.n8 * 2 * vk.nPublic);
  for (let i = 0; i < vk.nPublic; i++) IC.set(c.G1.fromObject(k.IC[i + 1]), i * c.G1.F.n8 * 2);
  return {
    nPublic: vk.nPublic,
    IC0: c.G1.fromObject(k.IC[0]),
    IC,
    alpha1: c.G1.fromObject(k.vk_alpha_1),
    beta2: c.G2.fromObject(k.vk_beta_2),
    gamma2: c.G2.fromObject(k.vk_gamma_2),
    delta2: c.G2.fromObject(k.vk_delta_2),
  };
}

async function verify(c, key, publicSignals, proof) {
  if (publicSignals.length !== key.nPublic) return false;
  const signals = publicSignals.map((s) => BigInt(s));
  for (const s of signals) if (!(Scalar.geq(s, 0) && Scalar.lt(s, c.r))) return false;
  try {
    const w = new Uint8Array(c.Fr.n8 * signals.length);
    signals.forEach((s, i) => Scalar.toRprLE(w, c.Fr.n8 * i, s, c.Fr.n8));
    const cpub = c.G1.add(await c.G1.multiExpAffine(key.IC, w), key.IC0);
    const p = utils.unstringifyBigInts(proof);
    const piA = c.G1.fromObject(p.pi_a);
    const piB = c.G2.fromObject(p.pi_b);
    const piC = c.G1.fromObject(p.pi_c);
    if (!(c.G1.isValid(piA) && c.G2.isValid(piB) && c.G1.isValid(piC))) return false;
    return await c.pairingEq(c.G1.neg(piA), piB, cpub, key.gamma2, piC, key.delta2, key.alpha1, key.beta2);
  } catch {
    // coordinates that are not field elements make fromObject throw: not a proof
    return false;
  }
}

try {
  const curve = await singleThreadedCurve();
  const keys = {};
  for (const [name, f] of Object.entries(workerData.circuits))
    keys[name] = prepareKey(curve, JSON.parse(readChecked(f.vkey, f.vkeySha256).toString('utf8')));
  serve(parentPort, ({ circuit, publicSignals, proof }) => {
    const key = keys[circuit];
    if (!key) throw new Error(`unknown circuit ${circuit}`);
    return verify(curve, key, publicSignals, proof);
  });
} catch (e) {
  parentPort.postMessage({ type: 'failed', message: String(e?.message ?? e) });
}
