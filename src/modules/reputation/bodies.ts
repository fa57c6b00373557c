// Score entries as JSON text: each cached entry object is serialized once per shape (it is replaced, not mutated,
// when the score changes), for the Fastify route and the fast path alike.
import type { ScoreEntry } from '../scoring/contracts.js';
import { withoutFactors } from '../scoring/service.js';

const bodies = new WeakMap<ScoreEntry, { full?: string; bare?: string }>();

export function serializedEntry(e: ScoreEntry, explain: boolean): string {
  let b = bodies.get(e);
  if (!b) bodies.set(e, (b = {}));
  return explain ? (b.full ??= JSON.stringify(e)) : (b.bare ??= JSON.stringify(withoutFactors(e)));
}
