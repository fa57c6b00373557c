// Groth16 verification on the main thread: snarkjs' groth16.verify step for step (field check of the public
// signals, point validity, one pairing product), with the verification keys parsed once instead of per call.
// It uses the bn128 curve ffjavascript caches for the whole process (the one snarkjs uses too), whose pairing
// runs on its worker threads. Those threads keep a process alive, so users of this module hold a reference
// (`acquireCurve`) and the last one to let go (`releaseCurve`, at app shutdown) terminates the curve.
import { buildBn128, Scalar, utils } from 'ffjavascript';
import type { Groth16Proof } from './encoding.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Curve = any;
/** The process-wide curve: rebuilt by ffjavascript on demand after a terminate. */
const curve = (): Promise<Curve> => buildBn128();
let users = 0;

export function acquireCurve(): void {
  users++;
}

export async function releaseCurve(): Promise<void> {
  users = Math.max(0, users - 1);
  if (users > 0) return;
  const g = (globalThis as { curve_bn128?: Curve }).curve_bn128;
  if (g) await g.terminate();
}

export interface VerificationKeyJson {
  protocol: string;
  curve: string;
  nPublic: number;
  vk_alpha_1: string[];
  vk_beta_2: string[][];
  vk_gamma_2: string[][];
  vk_delta_2: string[][];
  IC: string[][];
}

export interface PreparedKey {
  nPublic: number;
  IC0: Uint8Array;
  IC: Uint8Array;
  alpha1: Uint8Array;
  beta2: Uint8Array;
  gamma2: Uint8Array;
  delta2: Uint8Array;
}

export async function prepareKey(vk: VerificationKeyJson): Promise<PreparedKey> {
  const c = await curve();
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

export async function groth16Verify(key: PreparedKey, publicSignals: bigint[], proof: Groth16Proof): Promise<boolean> {
  const c = await curve();
  if (publicSignals.length !== key.nPublic) return false;
  for (const s of publicSignals) if (!(Scalar.geq(s, 0) && Scalar.lt(s, c.r))) return false;
  try {
    const w = new Uint8Array(c.Fr.n8 * publicSignals.length);
    publicSignals.forEach((s, i) => Scalar.toRprLE(w, c.Fr.n8 * i, s, c.Fr.n8));
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
