// Produces a score change exactly as the scoring service does: outbox rows in the score's transaction,
// then `score.updated` on the bus after commit.
import { SCORE_UPDATED, type Category, type ScoreChange } from '../../src/modules/scoring/contracts.js';
import type { App } from '../../src/platform/http/types.js';

export function scoreChange(address: string, over: Partial<ScoreChange> = {}): ScoreChange {
  return {
    address: address.toLowerCase(),
    category: 'OVERALL' as Category,
    oldScore: 500,
    newScore: 620,
    confidence: 0.82,
    tier: 'High',
    calculatedAt: new Date(),
    modelVersion: '1.0.0',
    cause: 'test',
    ...over,
  };
}

export async function emitScoreChange(app: App, change: ScoreChange): Promise<ScoreChange> {
  const outbox = app.ctx.services.webhooks;
  if (!outbox) throw new Error('webhooks module did not register its outbox');
  await app.ctx.db.tx(async (q) => {
    await outbox.enqueue(q, [change]);
  });
  app.ctx.bus.publish(SCORE_UPDATED, change);
  return change;
}
