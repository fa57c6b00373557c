// Does the verifier on-chain belong to the circuit keys in use? A proof made with this instance's keys must verify
// in the deployed Groth16 verifier (a static call), and the same proof with one public input changed must not (a
// contract that says true to everything is no verifier). Proofs made with other keys (e.g. the committed dev keys
// against a ceremony's verifier, or the reverse) fail the first check. Used by `credence contracts deploy` before
// it deploys the oracle, and by the commitment publisher before it publishes anything.
import path from 'node:path';
import type { Address, PublicClient } from 'viem';
import { VERIFIER_NAMES, circuitFiles, type CircuitName } from './artifacts.js';
import { birthDateCommitment, scoreCommitment } from './commitments.js';
import type { Groth16Proof } from './encoding.js';

export type Prove = (circuit: CircuitName, input: Record<string, string>) => Promise<{ proof: Groth16Proof; publicSignals: string[] }>;

const VERIFIER_ABI = [
  {
    type: 'function',
    name: 'verifyProof',
    stateMutability: 'view',
    inputs: [
      { name: 'a', type: 'uint256[2]' },
      { name: 'b', type: 'uint256[2][2]' },
      { name: 'c', type: 'uint256[2]' },
      { name: 'pubSignals', type: 'uint256[5]' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
] as const;
const GETTER_ABI = [
  { type: 'function', name: 'scoreVerifier', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
  { type: 'function', name: 'ageVerifier', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'address' }] },
] as const;

/** A statement true for a throwaway subject whose commitments are never published: the proof proves nothing. */
const PROBE_SUBJECT = '0x00000000000000000000000000000000000c4ec0';
function probeInput(circuit: CircuitName): Record<string, string> {
  const subject = BigInt(PROBE_SUBJECT).toString();
  const validUntil = '1';
  if (circuit === 'score_threshold') {
    const commitment = scoreCommitment(PROBE_SUBJECT, 0, 500, 1n).toString();
    return { threshold: '500', categoryId: '0', subject, commitment, validUntil, score: '500', salt: '1' };
  }
  const commitment = birthDateCommitment(PROBE_SUBJECT, 20000101, 1n).toString();
  return { currentDate: '20250101', minimumAge: '18', subject, commitment, validUntil, birthDate: '20000101', salt: '1' };
}

/** Proves in this thread with the keys of a circuits directory (for the CLI; the service uses its proving threads). */
export const proveWithDir =
  (dir: string): Prove =>
  async (circuit, input) => {
    const f = circuitFiles(circuit, dir);
    // snarkjs (and its curve code) is loaded by the first call: no route needs it to serve
    const snarkjs = await import('snarkjs');
    return (await snarkjs.groth16.fullProve(input, f.wasm, f.zkey, undefined, undefined, { singleThread: true })) as {
      proof: Groth16Proof;
      publicSignals: string[];
    };
  };

/** null when the verifier at `verifier` accepts a proof made with `prove`'s keys and refuses it altered; else why not. */
export async function checkVerifier(client: PublicClient, verifier: Address, circuit: CircuitName, prove: Prove): Promise<string | null> {
  const { proof, publicSignals } = await prove(circuit, probeInput(circuit));
  const n = (s: string) => BigInt(s);
  const args = (pub: bigint[]) =>
    [
      [n(proof.pi_a[0]), n(proof.pi_a[1])],
      [
        [n(proof.pi_b[0][1]), n(proof.pi_b[0][0])],
        [n(proof.pi_b[1][1]), n(proof.pi_b[1][0])],
      ],
      [n(proof.pi_c[0]), n(proof.pi_c[1])],
      pub,
    ] as const;
  const call = (pub: bigint[]) =>
    client.readContract({
      address: verifier,
      abi: VERIFIER_ABI,
      functionName: 'verifyProof',
      args: args(pub) as never,
    }) as Promise<boolean>;
  const pub = publicSignals.map(n);
  const name = VERIFIER_NAMES[circuit];
  let ok: boolean;
  try {
    ok = await call(pub);
  } catch (e) {
    return `calling verifyProof on the ${name} at ${verifier} failed (${(e as Error).message.split('\n')[0]})`;
  }
  if (!ok)
    return `the ${name} at ${verifier} refuses a proof made with this instance's ${circuit} key: it was deployed for other circuit keys`;
  if (await call([pub[0] + 1n, ...pub.slice(1)]).catch(() => false))
    return `the ${name} at ${verifier} accepts a proof with an altered public input: it is not a Groth16 verifier`;
  return null;
}

/**
 * Checks the verifiers behind the deployed oracle (ReputationOracle.scoreVerifier) and, when given, the credential
 * verifier (CredentialVerifier.ageVerifier) against the keys `prove` uses; null when both match, else why not.
 */
export async function checkDeployedVerifiers(
  client: PublicClient,
  contracts: { oracle: Address; credentialVerifier?: Address | null },
  prove: Prove,
  circuitsDir: string,
): Promise<string | null> {
  const problems: string[] = [];
  const targets: [CircuitName, Address, 'scoreVerifier' | 'ageVerifier', string][] = [
    ['score_threshold', contracts.oracle, 'scoreVerifier', 'ReputationOracle'],
  ];
  if (contracts.credentialVerifier) targets.push(['age_over', contracts.credentialVerifier, 'ageVerifier', 'CredentialVerifier']);
  for (const [circuit, contract, getter, label] of targets) {
    let verifier: Address;
    try {
      verifier = (await client.readContract({ address: contract, abi: GETTER_ABI, functionName: getter })) as Address;
    } catch (e) {
      problems.push(`${contract} is not a ${label} (${getter}() failed: ${(e as Error).message.split('\n')[0]})`);
      continue;
    }
    const p = await checkVerifier(client, verifier, circuit, prove);
    if (p) problems.push(`${label} ${contract}: ${p}`);
  }
  if (!problems.length) return null;
  return `the contracts on-chain do not match the circuit keys in use (${path.resolve(circuitsDir)}): ${problems.join('; ')}. Deploy contracts for these keys (credence contracts deploy --circuits <that directory>) or serve the keys the contracts were deployed for`;
}
