// The commitment publisher (a worker): sends current, not yet published commitments to the contracts in batches
// (scores to ReputationOracle, birth dates to CredentialVerifier when its address is set), and clears superseded
// published ones, batched, at least every `clearIntervalMs`, so that a proof whose score has since changed stops
// verifying on-chain within that bound (plus the time to mine one transaction).
import type { Address, Hex } from 'viem';
import { loadArtifact } from './artifacts.js';
import type { Chain } from './chain.js';
import type { CommitmentRow, ProofsRepo } from './repo.js';
import { retryWhileUnavailable } from '../../platform/db/unavailable.js';

export type PublisherState = 'idle' | 'publishing' | { refused: string };

export function createCommitmentPublisher(opts: {
  chain: Chain;
  repo: ProofsRepo;
  oracle: Address;
  credentialVerifier: Address | null;
  intervalMs?: number;
  /** Clearing sweep period (CREDENCE_COMMITMENT_CLEAR_SECONDS); default 30 s. */
  clearIntervalMs?: number;
  batchSize?: number;
  /** Checked when the worker starts: a reason refuses all publishing (dev artifacts on a public chain, or contracts
   *  whose verifier refuses a proof made with the service's keys: see verifier-check.ts). */
  gate?: () => Promise<string | null>;
  onError(err: unknown): void;
}) {
  const oracleAbi = loadArtifact('ReputationOracle').abi;
  const cvAbi = loadArtifact('CredentialVerifier').abi;
  const batchSize = opts.batchSize ?? 100;
  const kinds = (): ('score' | 'birth_date')[] => (opts.credentialVerifier ? ['score', 'birth_date'] : ['score']);
  let timer: NodeJS.Timeout | null = null;
  let clearTimer: NodeJS.Timeout | null = null;
  let nudgeTimer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let stopped = true;
  let state: PublisherState = 'idle';

  // Claimed rows are skipped by the other instances' publishers, so no batch is sent twice; a claim outlives any
  // transaction's mining (5 minutes) and lapses if this instance dies meanwhile.
  async function sendClaimed(
    batch: CommitmentRow[],
    write: () => Promise<Hex>,
    release: (ids: string[]) => Promise<void>,
    done: (ids: string[], tx: Hex) => Promise<void>,
  ) {
    if (!batch.length) return;
    const ids = batch.map((r) => r.id);
    const tx = await write().catch(async (err) => {
      await release(ids);
      throw err;
    });
    // Sent on chain: recorded once the database answers (an outage now would otherwise leave the claim to lapse and
    // the same commitments to be sent, and paid for, again).
    await retryWhileUnavailable(() => done(ids, tx), { active: () => !stopped });
  }

  // One round over claimed rows: the scores to the ReputationOracle, then the birth dates to the CredentialVerifier.
  async function sendRound(
    rows: CommitmentRow[],
    fns: { score: 'publishCommitments' | 'clearCommitments'; birth: 'publishAgeCommitments' | 'clearAgeCommitments' },
    release: (ids: string[]) => Promise<void>,
    done: (ids: string[], tx: Hex) => Promise<void>,
  ): Promise<number> {
    const scores = rows.filter((r) => r.kind === 'score');
    const births = rows.filter((r) => r.kind === 'birth_date');
    await sendClaimed(
      scores,
      () =>
        opts.chain.write(opts.oracle, oracleAbi, fns.score, [
          scores.map((r) => r.address as Address),
          scores.map((r) => r.category_id),
          scores.map((r) => BigInt(r.commitment)),
        ]),
      release,
      done,
    );
    await sendClaimed(
      births,
      () =>
        opts.chain.write(opts.credentialVerifier!, cvAbi, fns.birth, [
          births.map((r) => r.address as Address),
          births.map((r) => BigInt(r.commitment)),
        ]),
      release,
      done,
    );
    return rows.length;
  }

  async function publishOnce(): Promise<number> {
    return sendRound(
      await opts.repo.claimUnpublished(kinds(), batchSize, 300),
      { score: 'publishCommitments', birth: 'publishAgeCommitments' },
      (ids) => opts.repo.releaseClaims(ids),
      (ids, tx) => opts.repo.markPublished(ids, tx),
    );
  }

  // Compare-and-clear: the contracts delete a commitment only while it is still the published one, so a clear that
  // races a newer commitment for the same wallet never removes the newer one.
  async function clearOnce(): Promise<number> {
    return sendRound(
      await opts.repo.claimToClear(kinds(), batchSize, 300),
      { score: 'clearCommitments', birth: 'clearAgeCommitments' },
      (ids) => opts.repo.releaseClearClaims(ids),
      (ids) => opts.repo.markCleared(ids),
    );
  }

  const refused = () => typeof state === 'object';

  function run(step: () => Promise<number>): Promise<void> {
    if (refused()) return Promise.resolve();
    // one batch at a time from this instance; whatever arrives meanwhile goes in the next round
    if (running) return running.then(() => run(step));
    running = (async () => {
      try {
        while ((await step()) === batchSize && !stopped);
      } catch (err) {
        opts.onError(err);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  const flush = () => run(publishOnce);
  const clear = () => run(clearOnce);

  return {
    flush,
    /** Clears superseded published commitments now (the worker does it every clearIntervalMs). */
    clear,
    state: (): PublisherState => state,
    /** A new commitment exists: publish soon (batches whatever arrives meanwhile). */
    nudge() {
      if (stopped || nudgeTimer) return;
      nudgeTimer = setTimeout(() => {
        nudgeTimer = null;
        void flush();
      }, 200);
    },
    worker: {
      name: 'proofs-commitment-publisher',
      async start() {
        stopped = false;
        const reason = await opts.gate?.().catch((e: unknown) => `the setup check failed: ${String(e)}`);
        if (reason) {
          state = { refused: reason };
          opts.onError(new Error(`commitments are not published: ${reason}`));
          return;
        }
        state = 'publishing';
        const tick = () => {
          if (stopped) return;
          void flush().finally(() => {
            if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? 5000);
          });
        };
        const sweep = () => {
          if (stopped) return;
          void clear().finally(() => {
            if (!stopped) clearTimer = setTimeout(sweep, opts.clearIntervalMs ?? 30_000);
          });
        };
        tick();
        clearTimer = setTimeout(sweep, opts.clearIntervalMs ?? 30_000);
      },
      async stop() {
        stopped = true;
        for (const t of [timer, nudgeTimer, clearTimer]) if (t) clearTimeout(t);
        timer = nudgeTimer = clearTimer = null;
        await running;
      },
    },
  };
}
