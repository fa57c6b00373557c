// Sandbox scores for test keys (cred_test_...): deterministic per address and category, computed from a hash of
// the two, so an integration can be built and tested against stable data without touching real wallets, the
// store or the quota. Same shapes as real entries; modelVersion ends in "-sandbox" and one factor says so.
import { createHash } from 'node:crypto';
import { CATEGORIES, type Category, type ScoreEntry, type ScoringService } from './contracts.js';
import { MODEL_VERSION, tierFor } from './model/index.js';
import { model } from './params.js';

/** A fixed instant, so the same request always gives the same body. */
const CALCULATED_AT = new Date('2026-01-01T00:00:00.000Z');
const VERSION = `${MODEL_VERSION}-sandbox`;

function draw(address: string, category: string): { score: number; confidence: number } {
  const h = createHash('sha256').update(`credence-sandbox:${address.toLowerCase()}:${category}`).digest();
  return { score: h.readUInt16BE(0) % 1001, confidence: Math.round((0.3 + (h[2] / 255) * 0.65) * 1000) / 1000 };
}

function entry(category: Category, score: number, confidence: number, explain: boolean): ScoreEntry {
  const e: ScoreEntry = {
    category,
    score,
    conduct: score,
    backingUsd: null,
    confidence,
    tier: tierFor(score),
    calculatedAt: CALCULATED_AT,
    modelVersion: VERSION,
  };
  if (explain) e.factors = [{ code: 'SANDBOX_DATA', description: 'deterministic sandbox data for test keys: not a real score', impact: 0 }];
  return e;
}

export function sandboxScores(address: string, explain = false): ScoreEntry[] {
  const parts = CATEGORIES.filter((c): c is Exclude<Category, 'OVERALL'> => c !== 'OVERALL').map((c) => ({ c, ...draw(address, c) }));
  let overall = 0;
  let conf = 0;
  for (const p of parts) {
    overall += model.weights[p.c] * p.score;
    conf += model.weights[p.c] * p.confidence;
  }
  return [
    entry('OVERALL', Math.round(overall), Math.round(conf * 1000) / 1000, explain),
    ...parts.map((p) => entry(p.c, p.score, p.confidence, explain)),
  ];
}

/** The read side of ScoringService over sandbox data; nothing is stored, recomputed or pushed. */
export const sandboxScoring: Pick<ScoringService, 'getScores' | 'getScore' | 'getBatch' | 'peekScore'> = {
  // computed on every read, never cached
  peekScore: () => undefined,
  async getScores(address, opts) {
    return sandboxScores(address, opts?.explain ?? false);
  },
  async getScore(address, category, opts) {
    return sandboxScores(address, opts?.explain ?? false).find((e) => e.category === category)!;
  },
  async getBatch(addresses, category, opts) {
    return addresses.map((a) => sandboxScores(a, opts?.explain ?? false).find((e) => e.category === category)!);
  },
};
