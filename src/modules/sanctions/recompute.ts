// After a new list, the wallets whose status it changed get their scores recomputed (COMPLIANCE follows the list,
// and the score change reaches webhooks and the hub). Durable: each list row records when this was done, so an
// import made by the CLI, or interrupted by a restart, is still followed through by a workers instance. A database
// outage mid-way is waited out (each wallet's recompute tried again once the database answers): finishing the list
// with recomputes that could not be made would leave those wallets' scores on the old list for good.
import type { ModuleServices } from '../../platform/context.js';
import type { SanctionsRepo } from './repo.js';
import type { Log, SanctionsScreening } from './service.js';
import { retryWhileUnavailable } from '../../platform/db/unavailable.js';

const CONCURRENCY = 4;

export function createRecomputeWorker(deps: {
  repo: SanctionsRepo;
  screening: SanctionsScreening;
  /** read at each pass: the wallets to recompute are those scoring knows */
  services: Pick<ModuleServices, 'scoring'>;
  log: Log;
}) {
  let active = false;
  let running: Promise<void> | null = null;
  let again = false;

  async function processOne(claim: { id: string; version: number }): Promise<boolean> {
    // Scores must be computed against this list (or a newer one), so this instance loads it first.
    const waitOut = <T>(fn: () => Promise<T>) => retryWhileUnavailable(fn, { active: () => active });
    await waitOut(() => deps.screening.reload());
    const changed = await waitOut(() => deps.repo.changedAddresses(claim.id, claim.version));
    const scoring = deps.services.scoring;
    let targets: string[] = [];
    if (changed.length) targets = await waitOut(() => scoring.knownAddresses(changed));
    let next = 0;
    let failed = 0;
    const lane = async () => {
      while (active && next < targets.length) {
        const address = targets[next++];
        try {
          await retryWhileUnavailable(() => scoring.recompute(address, 'sanctions'), { active: () => active });
        } catch (err) {
          // stopped during an outage: the list is handed back below and done again by the next worker
          if (!active) break;
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
    await retryWhileUnavailable(() => deps.repo.finishRecompute(claim.id, targets.length), { active: () => active });
    deps.log.info(
      { version: claim.version, changed: changed.length, recomputed: targets.length, failed },
      'sanctions status changes applied to scores',
    );
    return true;
  }

  async function drain() {
    do {
      again = false;
      for (;;) {
        if (!active) return;
        const claim = await retryWhileUnavailable(() => deps.repo.claimPendingRecompute(), { active: () => active });
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
