// Score entries as JSON text: each cached entry object is serialized once per shape (it is replaced, not mutated,
// when the score changes), for the Fastify route and the fast path alike.
import { withoutFactors, type ScoreEntry } from '../scoring/index.js';

interface Bodies {
  full?: string;
  bare?: string;
  /** Buffer.byteLength(full) */
  fullBytes?: number;
}
const bodies = new WeakMap<ScoreEntry, Bodies>();

export function serializedEntry(e: ScoreEntry, explain: boolean): string {
  let b = bodies.get(e);
  if (!b) bodies.set(e, (b = {}));
  return explain ? (b.full ??= JSON.stringify(e)) : (b.bare ??= JSON.stringify(withoutFactors(e)));
}

/** The explained entry's JSON with its length in bytes (the Content-Length), both computed once per entry. */
export function explainedEntry(e: ScoreEntry): Required<Pick<Bodies, 'full' | 'fullBytes'>> {
  let b = bodies.get(e);
  if (!b) bodies.set(e, (b = {}));
  b.full ??= JSON.stringify(e);
  b.fullBytes ??= Buffer.byteLength(b.full);
  return b as Required<Pick<Bodies, 'full' | 'fullBytes'>>;
}
