// After a new list, the wallets whose status it changed get their scores recomputed (COMPLIANCE follows the list,
// and the score change reaches webhooks and the hub). Durable: each list row records when this was done, so an
// import made by the CLI, or interrupted by a restart, is still followed through by a workers instance.
import type { ScoringService } from '../scoring/contracts.js';
import type { SanctionsRepo } from './repo.js';
import type { Log, SanctionsScreening } from './service.js';

const CONCURRENCY = 4;

export function createRecomputeWorker(deps: { repo: SanctionsRepo; screening: SanctionsScreening; scoring: () => ScoringService | undefined; log: Log }) {
  let active = false;
  let running: Promise<void> | null = null;
  let again = false;

  async function processOne(claim: { id: string; version: number }): Promise<boolean> {
    // Scores must be computed against this list (or a newer one), so this instance loads it first.
    await deps.screening.reload();
    const changed = await deps.repo.changedAddresses(claim.id, claim.version);
    const scoring = deps.scoring();
    let targets: string[] = [];
    if (scoring && changed.length) targets = scoring.knownAddresses ? await scoring.knownAddresses(changed) : changed;
    let next = 0;
    let failed = 0;
    const lane = async () => {
      while (active && next < targets.length) {
        const address = targets[next++];
        try {
          await scoring!.recompute(address, 'sanctions');
        } catch (err) {
          failed++;
          deps.log.error({ err, address }, 'score recompute after a sanctions list change failed');
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    if (!active) {
      await deps.repo.releaseRecompute(claim.id);
      return false;
    }
    await deps.repo.finishRecompute(claim.id, targets.length);
    deps.log.info({ version: claim.version, changed: changed.length, recomputed: targets.length, failed }, 'sanctions status changes applied to scores');
    return true;
  }

  async function drain() {
    do {
      again = false;
      for (;;) {
        if (!active) return;
        const claim = await deps.repo.claimPendingRecompute();
        if (!claim) break;
        if (!(await processOne(claim))) return;
      }
    } while (again && active);
  }

  /** Processes every pending list; a call while one runs makes it look again when done. */
  function kick(): Promise<void> {
    if (!active) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = drain()
      .catch((err) => deps.log.error({ err }, 'sanctions recompute failed'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    kick,
    worker: {
      name: 'sanctions-recompute',
      start() {
        active = true;
        void kick();
      },
      async stop() {
        active = false;
        await running;
      },
    },
  };
}
