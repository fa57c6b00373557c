// Turns fresh model results and the stored rows of one wallet into the rows to write and the changes to record.
// Pure, so the rules below are testable without a database:
//  - Dispute override: an admin's revisedScore replaces a category's score for as long as that category's
//    inputs fingerprint is the one it was set against; new evidence for the category (or a new model version)
//    clears it and the model score applies again. OVERALL is the composite of the effective category scores
//    (unless OVERALL itself was revised).
//  - Decay anchor: the later of the wallet's last on-chain activity and the time this category's off-chain
//    evidence (claims, KYC, DID, sanctions) last changed. No evidence at all: no anchor, nothing to decay.
//  - A change is a stored score that differs from the new one. A wallet's first scores are not changes (no
//    history, no events): announcing every newly looked-up wallet would tell subscribers who is being checked.
import type { Category, ScoreChange } from './contracts.js';
import { composite, decayConfidence, MODEL_VERSION, tierFor, type CategoryResult } from './model/index.js';
import type { ScoreRow } from './repo.js';

export interface Override {
  category: Category;
  score: number;
  disputeId: string;
}

export interface WalletPlanInput {
  address: string;
  /** the eight independent categories from the model */
  results: CategoryResult[];
  sanctioned: boolean | null;
  lastActivityAt: Date | null;
  stored: ScoreRow[];
  override?: Override;
}

const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);

function effective(r: CategoryResult, prev: ScoreRow | undefined, override: Override | undefined) {
  if (override && override.category === r.category) {
    return { score: override.score, key: r.inputsKey, disputeId: override.disputeId };
  }
  if (prev && prev.override_score !== null && prev.override_inputs_key === r.inputsKey && prev.model_version === MODEL_VERSION) {
    return { score: prev.override_score, key: prev.override_inputs_key, disputeId: prev.override_dispute_id };
  }
  return null;
}

export function planWallet(p: WalletPlanInput, cause: string, now: Date): { rows: ScoreRow[]; changes: ScoreChange[] } {
  const stored = new Map(p.stored.map((r) => [r.category, r]));
  const rows: ScoreRow[] = [];
  const toRow = (r: CategoryResult, anchor: Date | null, offchainAt: Date | null): ScoreRow => {
    const prev = stored.get(r.category);
    const o = effective(r, prev, p.override);
    const factors = o
      ? [{ code: 'DISPUTE_REVISION', description: `score revised by the resolution of dispute ${o.disputeId}`, impact: o.score - r.score }, ...r.factors.slice(0, 5)]
      : r.factors;
    return {
      address: p.address,
      category: r.category,
      score: o ? o.score : r.score,
      model_score: r.score,
      confidence: r.confidence,
      decay_anchor: anchor,
      factors,
      inputs_key: r.inputsKey,
      offchain_key: r.offchainKey,
      offchain_at: offchainAt,
      last_activity_at: p.lastActivityAt,
      override_score: o ? o.score : null,
      override_inputs_key: o ? o.key : null,
      override_dispute_id: o ? o.disputeId : null,
      model_version: MODEL_VERSION,
      calculated_at: now,
    };
  };

  let overallAnchor: Date | null = null;
  for (const r of p.results) {
    const prev = stored.get(r.category);
    const offchainAt = r.offchainKey === '' ? null : prev && prev.offchain_key === r.offchainKey ? prev.offchain_at : now;
    const anchor = later(p.lastActivityAt, offchainAt);
    overallAnchor = later(overallAnchor, anchor);
    rows.push(toRow(r, anchor, offchainAt));
  }
  const overall = composite(
    rows.map((r, i) => ({ category: r.category, score: r.score, confidence: r.confidence, inputsKey: p.results[i].inputsKey })),
    p.sanctioned,
  );
  rows.unshift(toRow(overall, overallAnchor, null));

  const changes: ScoreChange[] = [];
  for (const r of rows) {
    const prev = stored.get(r.category);
    if (!prev || prev.score === r.score) continue;
    const confidence = decayConfidence(r.confidence, r.decay_anchor, now);
    changes.push({
      address: p.address,
      category: r.category,
      oldScore: prev.score,
      newScore: r.score,
      confidence,
      tier: tierFor(r.score),
      calculatedAt: now,
      modelVersion: MODEL_VERSION,
      cause,
    });
  }
  return { rows, changes };
}
