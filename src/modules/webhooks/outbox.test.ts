import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../platform/db/types.js';
import type { ScoreChange } from '../scoring/contracts.js';
import { createOutbox } from './outbox.js';

const change = (address: string): ScoreChange => ({
  address,
  category: 'OVERALL',
  oldScore: 1,
  newScore: 2,
  confidence: 0.5,
  tier: 'Very Low',
  cause: 'test',
  modelVersion: '4.0.0',
  calculatedAt: new Date(),
});
const q = {} as Queryable;

describe('score-change outbox', () => {
  it('tells which changes queued no delivery, so their score.updated need not wake the delivery worker', async () => {
    let matched = 0;
    const outbox = createOutbox({ enqueue: async () => matched });
    const [none, some] = [change('0x' + '1'.repeat(40)), change('0x' + '2'.repeat(40))];
    await outbox.enqueue(q, [none]);
    matched = 1;
    await outbox.enqueue(q, [some]);
    expect(outbox.queuedNothing(none)).toBe(true);
    expect(outbox.queuedNothing(some)).toBe(false);
    // the same change as another instance announces it (a copy through Redis) still wakes the worker
    expect(outbox.queuedNothing(JSON.parse(JSON.stringify(none)))).toBe(false);
  });
});
