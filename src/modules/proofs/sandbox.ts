// Sandbox proofs for test credentials: real Groth16 proofs, made by the same circuits,
// over sandbox data only: the sandbox score model the test-key score reads use (scoring/sandbox.ts), and a sandbox
// KYC in which every wallet is approved with a birth date drawn from its address. Their commitments are computed,
// never stored nor published on-chain, so a sandbox proof can never verify as live: the live check wants a current
// commitment the service recorded (and the oracle one it published). The salts are public functions of the address:
// sandbox data is public by design (any test key reads it), and nothing live is ever committed with them.
import { createHash } from 'node:crypto';
import { sandboxScores, type Category } from '../scoring/index.js';
import { birthDateCommitment, scoreCommitment } from './commitments.js';
import { FIELD_R } from './encoding.js';

const saltOf = (what: string): bigint =>
  BigInt(`0x${createHash('sha512').update(`credence-sandbox-salt:${what}`).digest('hex')}`) % FIELD_R;

/** The sandbox score of a wallet in a category: the one a test key's score read answers. */
export function sandboxScore(address: string, category: Category): number {
  return sandboxScores(address.toLowerCase()).find((e) => e.category === category)!.score;
}

/** The sandbox score commitment (and its salt) of a wallet and category. */
export function sandboxScoreCommitment(
  address: string,
  category: Category,
  categoryId: number,
): { score: number; salt: bigint; commitment: string } {
  const a = address.toLowerCase();
  const score = sandboxScore(a, category);
  const salt = saltOf(`score:${a}:${categoryId}`);
  return { score, salt, commitment: scoreCommitment(a, categoryId, score, salt).toString() };
}

/**
 * The sandbox KYC of a wallet: always approved, with a birth date (yyyymmdd) drawn from the address between
 * 1950-01-01 and 2011-12-28, so some sandbox wallets are under 18 or 21 and an integration can see both answers.
 */
export function sandboxKyc(address: string): { birthDate: number; salt: string; commitment: string } {
  const a = address.toLowerCase();
  const h = createHash('sha256').update(`credence-sandbox-birth:${a}`).digest();
  const birthDate = (1950 + (h[0] % 62)) * 10000 + (1 + (h[1] % 12)) * 100 + (1 + (h[2] % 28));
  const salt = saltOf(`birth:${a}`);
  return { birthDate, salt: salt.toString(), commitment: birthDateCommitment(a, birthDate, salt).toString() };
}
