// The proofs service's part that finds or makes the salted commitment a score proof is made against, and keeps the
// current one per wallet and category in memory.
import type { Cipher } from '../../platform/secrets.js';
import { randomSalt, scoreCommitment } from './commitments.js';
import type { CommitmentRow, ProofsRepo } from './repo.js';

export function createScoreCommitments(deps: {
  repo: Pick<ProofsRepo, 'current'>;
  cipher: Cipher;
  /** records a new commitment (or returns the one a concurrent request recorded first) */
  record(r: Parameters<ProofsRepo['replaceCurrent']>[0]): Promise<CommitmentRow>;
}) {
  const { repo, cipher } = deps;
  // The current score commitment per wallet and category, kept here so that a proof needs no lookup. An entry is
  // used only while the score it commits to is the current score; it is dropped when the score changes (every
  // instance hears score.updated, see the service's onScoreChanged), and lives a minute at most in case an event was missed.
  const current = new Map<string, { row: CommitmentRow; salt: bigint; expires: number }>();
  const remember = (row: CommitmentRow, salt: bigint) => {
    if (current.size >= 10_000) current.delete(current.keys().next().value!);
    current.set(`${row.address}:${row.category_id}`, { row, salt, expires: Date.now() + 60_000 });
    return { row, salt };
  };

  // Concurrent first proofs for one wallet and category share one lookup (and at most one new commitment).
  const pending = new Map<string, Promise<{ row: CommitmentRow; salt: bigint }>>();

  function scoreCommitmentFor(address: string, catId: number, score: number): Promise<{ row: CommitmentRow; salt: bigint }> {
    const key = `${address}:${catId}`;
    const hit = current.get(key);
    if (hit && hit.row.score === score && hit.expires > Date.now()) return Promise.resolve(hit);
    const flight = pending.get(key);
    if (flight) return flight.then((r) => (r.row.score === score ? r : scoreCommitmentFor(address, catId, score)));
    const p = lookUpOrCommit(address, catId, score).finally(() => pending.delete(key));
    pending.set(key, p);
    return p;
  }

  async function lookUpOrCommit(address: string, catId: number, score: number): Promise<{ row: CommitmentRow; salt: bigint }> {
    const cur = await repo.current('score', address, catId);
    if (cur && cur.score === score && cur.salt_enc) return remember(cur, BigInt(cipher.decrypt(cur.salt_enc)));
    const salt = randomSalt();
    const commitment = scoreCommitment(address, catId, score, salt).toString();
    const row = await deps.record({
      kind: 'score',
      address,
      categoryId: catId,
      score,
      saltEnc: cipher.encrypt(salt.toString()),
      commitment,
    });
    return remember(row, row.commitment === commitment ? salt : BigInt(cipher.decrypt(row.salt_enc!)));
  }

  return {
    /** The commitment (with its salt) to `score`, the wallet's current score in the category. */
    forScore: scoreCommitmentFor,
    /** Drops the remembered commitment: the wallet's score in the category changed. */
    forget(address: string, catId: number): void {
      current.delete(`${address}:${catId}`);
    },
  };
}
