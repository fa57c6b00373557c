// The snarkjs-native form of a Credence proof, answered beside the ABI-encoded hex so stock tools verify it as
// they are: `snarkjs.groth16.verify(vk, r.snarkjs.publicSignals, r.snarkjs.proof)` with the key from
// GET /proofs/verification-keys (b in snarkjs's order, not swapped as in the Solidity calldata).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../platform/http/schemas.js';
import { decodeProof } from './encoding.js';

const Decimal = Type.String({ pattern: '^[0-9]{1,80}$' });
export const SnarkjsProof = Type.Object(
  {
    proof: Type.Object({
      pi_a: Type.Array(Decimal, { minItems: 3, maxItems: 3 }),
      pi_b: Type.Array(Type.Array(Decimal, { minItems: 2, maxItems: 2 }), { minItems: 3, maxItems: 3 }),
      pi_c: Type.Array(Decimal, { minItems: 3, maxItems: 3 }),
      protocol: Type.Literal('groth16'),
      curve: Type.Literal('bn128'),
    }),
    publicSignals: Type.Array(Decimal, { description: "decimal strings, in the circuit's order (subject at index 2, validUntil at 4)" }),
  },
  {
    title: 'SnarkjsProof',
    description: "The same proof in snarkjs's own form: `snarkjs.groth16.verify(verificationKey, snarkjs.publicSignals, snarkjs.proof)`.",
  },
);

export const SnarkjsField = () => Nullable(SnarkjsProof);

/** The snarkjs form of an ABI-encoded proof (null for no proof). */
export function snarkjsForm(hex: string): Static<typeof SnarkjsProof>;
export function snarkjsForm(hex: string | null): Static<typeof SnarkjsProof> | null;
export function snarkjsForm(hex: string | null): Static<typeof SnarkjsProof> | null {
  const d = hex ? decodeProof(hex) : null;
  return d ? ({ proof: d.proof, publicSignals: d.publicSignals.map(String) } as Static<typeof SnarkjsProof>) : null;
}
