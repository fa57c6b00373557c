// The scoring service's ScoreChangeOutbox: turns score changes into `score.updated` webhook bodies and writes
// one outbox row per matching active subscription inside the caller's (the score's) transaction.
import { toChecksum } from '../../platform/http/address.js';
import type { Queryable } from '../../platform/db/types.js';
import { SCORE_UPDATED, type ScoreChange, type ScoreChangeOutbox, type WalletEvent } from '../scoring/contracts.js';
import type { OutboxRepo } from './outbox-repo.js';
import { currentEnvironment } from '../../platform/auth/environment.js';

/** The webhook body; `data` carries both key sets the spec shows (walletAddress/oldScore and address/previousScore). */
export function webhookBody(c: ScoreChange): string {
  const address = toChecksum(c.address);
  const at = c.calculatedAt instanceof Date ? c.calculatedAt : new Date(c.calculatedAt);
  return JSON.stringify({
    event: SCORE_UPDATED,
    timestamp: (Number.isNaN(at.getTime()) ? new Date() : at).toISOString(),
    data: {
      walletAddress: address,
      address,
      category: c.category,
      oldScore: c.oldScore,
      previousScore: c.oldScore,
      newScore: c.newScore,
      confidence: c.confidence,
      tier: c.tier,
      // how much of the wallet's history the new score covers
      ...(c.coverage ? { coverage: c.coverage } : {}),
    },
  });
}

export function createOutbox(repo: Pick<OutboxRepo, 'enqueue'>): ScoreChangeOutbox & { queuedNothing(change: unknown): boolean } {
  // Changes whose transaction queued no delivery (no subscription matched): the `score.updated` this instance then
  // publishes with that very object need not wake the delivery worker, whose claim would find nothing new. An event
  // from another instance is another object and wakes it as before.
  const nothingQueued = new WeakSet<object>();
  return {
    queuedNothing: (change) => typeof change === 'object' && change !== null && nothingQueued.has(change),
    /**
     * Other wallet events (`debt_claim.filed`): the same envelope, `data` as the event's module wrote it. They go to
     * the subscriptions of the environment they happen in (a test claim's notice to test webhooks only).
     */
    async enqueueEvent(q: Queryable, e: WalletEvent) {
      const body = JSON.stringify({ event: e.event, timestamp: e.timestamp.toISOString(), data: e.data });
      await repo.enqueue(q, [
        { address: e.address.toLowerCase(), category: e.category, body, eventType: e.event, environment: currentEnvironment() },
      ]);
    },
    async enqueue(q: Queryable, changes: ScoreChange[]) {
      const queued = await repo.enqueue(
        q,
        changes.map((c) => ({ address: c.address.toLowerCase(), category: c.category, body: webhookBody(c) })),
      );
      if (queued === 0) for (const c of changes) nothingQueued.add(c);
    },
  };
}
