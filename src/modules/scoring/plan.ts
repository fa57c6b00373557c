// Turns fresh model results and the stored rows of one wallet into the rows to write and the changes to record.
// Pure, so the rules below are testable without a database:
//  - Dispute override: an admin's revisedScore replaces a category's score until an admin changes it or the
//    category's own on-chain evidence changes (its on-chain inputs fingerprint); then the model score applies again.
//    Debt claims never clear it (anyone can file one): they shift it by exactly the points they add or remove, so
//    a new claim lowers a revision at most by that claim's impact and withdrawing it restores the revision exactly.
//    An override set under another model version (or before claims shifted it) is carried over as it stands.
//    OVERALL is the composite of the effective category scores (unless OVERALL itself was revised).
//  - Decay anchor: the later of the wallet's last on-chain activity and the time this category's off-chain
//    evidence (claims, KYC, DID, sanctions) last changed. No evidence at all: no anchor, nothing to decay.
//  - A change is a stored score that differs from the new one. A wallet's first scores are not changes (no
//    history, no events): announcing every newly looked-up wallet would tell subscribers who is being checked.
import type { Category, ScoreChange } from './contracts.js';
import { decayConfidence, MODEL_VERSION, tierFor, type CategoryResult } from './model/index.js';
import { model } from './params.js';
import { clamp, fingerprint } from './model/transforms.js';
import type { ScoreRow, StoredRow } from './repo.js';

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
  stored: StoredRow[];
  override?: Override;
  /** the signed points the wallet's debt claims add to DEFI_LENDING now (model/debt-claims.claimPoints) */
  claimPoints?: number;
  /** OVERALL's backing: all the wallet lost, each dollar once (model/backing.ts backingOf().total) */
  overallBackingUsd?: number | null;
}

const later = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a > b ? a : b);

/**
 * The fingerprint an override is kept against: the category's inputs without its debt claims. Categories join
 * their on-chain and off-chain fingerprints (inputsKey = on-chain + offchainKey); DEFI_LENDING's off-chain part is
 * its claims. OVERALL's is built from the categories' own keys, so a claim does not clear a revised OVERALL either.
 */
function overrideKey(r: CategoryResult): string {
  if (r.category === 'DEFI_LENDING' && r.offchainKey !== '' && r.inputsKey.endsWith(r.offchainKey))
    return r.inputsKey.slice(0, -r.offchainKey.length);
  return r.inputsKey;
}

/** The points claims add to this category's score now. */
function claimShift(category: CategoryResult['category'], claimPoints: number): number {
  if (category === 'DEFI_LENDING') return claimPoints;
  if (category === 'OVERALL') return model.weights.DEFI_LENDING * claimPoints;
  return 0;
}

interface Effective {
  /** what the score is: the revision shifted by claims since */
  score: number;
  /** the admin's revisedScore as set */
  revised: number;
  key: string;
  /** the claim points in force when the revision was set (or carried over) */
  base: number;
  disputeId: string | null;
}

function effective(
  r: CategoryResult,
  key: string,
  shift: number,
  prev: StoredRow | undefined,
  override: Override | undefined,
): Effective | null {
  let o: Omit<Effective, 'score'> | null = null;
  if (override && override.category === r.category) {
    o = { revised: override.score, key, base: shift, disputeId: override.disputeId };
  } else if (prev && prev.override_score !== null) {
    const sameFormat =
      prev.model_version === MODEL_VERSION && prev.override_claim_points !== null && prev.override_claim_points !== undefined;
    if (!sameFormat) o = { revised: prev.override_score, key, base: shift, disputeId: prev.override_dispute_id };
    else if (prev.override_inputs_key === key)
      o = { revised: prev.override_score, key, base: prev.override_claim_points!, disputeId: prev.override_dispute_id };
  }
  if (!o) return null;
  return { ...o, score: Math.round(clamp(o.revised + (shift - o.base), 0, 1000)) };
}

export function planWallet(p: WalletPlanInput, cause: string, now: Date): { rows: ScoreRow[]; changes: ScoreChange[] } {
  const stored = new Map(p.stored.map((r) => [r.category, r]));
  const rows: ScoreRow[] = [];
  const points = p.claimPoints ?? 0;
  const keys = new Map<string, string>();
  const toRow = (r: CategoryResult, anchor: Date | null, offchainAt: Date | null): ScoreRow => {
    const prev = stored.get(r.category);
    const key = r.category === 'OVERALL' ? fingerprint([...keys.values()].join('')) : overrideKey(r);
    keys.set(r.category, key);
    const o = effective(r, key, claimShift(r.category, points), prev, p.override);
    const factors = o
      ? [
          { code: 'DISPUTE_REVISION', description: `score revised by the resolution of dispute ${o.disputeId}`, impact: o.score - r.score },
          ...r.factors.slice(0, 5),
        ]
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
      override_score: o ? o.revised : null,
      override_inputs_key: o ? o.key : null,
      override_dispute_id: o ? o.disputeId : null,
      override_claim_points: o ? o.base : null,
      model_version: MODEL_VERSION,
      calculated_at: now,
      conduct: r.conduct,
      backing_usd: r.backingUsd,
    };
  };

  let overallAnchor: Date | null = null;
  for (const r of p.results) {
    const prev = stored.get(r.category);
    const offchainAt = r.offchainKey === '' ? null : prev && prev.offchain_key === r.offchainKey ? prev.offchain_at : now;
    // the category's own latest pinned evidence (never inbound transfers); legacy results: any activity
    const anchor = later(r.evidenceAt === undefined ? p.lastActivityAt : r.evidenceAt, offchainAt);
    overallAnchor = later(overallAnchor, anchor);
    rows.push(toRow(r, anchor, offchainAt));
  }
  // OVERALL's backing: everything the wallet lost, each dollar once (the model's own OVERALL carries it)
  const overallBacking = p.overallBackingUsd ?? null;
  const overall = model.composite(
    rows.map((r, i) => ({
      category: r.category,
      score: r.score,
      conduct: p.results[i].conduct,
      // an admin's revision is the category's whole answer: nothing below it
      below: r.override_score === null ? p.results[i].below : 0,
      conductBelow: p.results[i].conductBelow,
      confidence: r.confidence,
      inputsKey: p.results[i].inputsKey,
    })),
    p.sanctioned,
    overallBacking,
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
