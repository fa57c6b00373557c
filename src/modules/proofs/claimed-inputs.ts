// What a caller may assert alongside a proof (verify's publicInputs), and which of those assertions a proof
// contradicts: the proof's public signals are [threshold | currentDate, categoryId | minimumAge, subject, commitment,
// validUntil].
import { CATEGORIES } from '../scoring/contracts.js';
import { fieldToAddress } from './commitments.js';
import { categoryHash, type DecodedProof } from './encoding.js';

/** What a caller may assert alongside a proof; every field given must agree with the proof. */
export interface ClaimedInputs {
  threshold?: number;
  minimumAge?: number;
  category?: string;
  categoryId?: number;
  categoryHash?: string;
  timestamp?: number;
  validUntil?: number;
  subject?: string;
  commitment?: string;
  currentDate?: number;
}

/** The first field of `claimed` the proof disagrees with (`issuedAt`: when the proof was issued, if known), or null. */
export function claimsDisagree(d: DecodedProof, claimed: ClaimedInputs, issuedAt: Date | null): string | null {
  const [p0, p1, p2, p3, p4] = d.publicSignals;
  if (claimed.validUntil !== undefined && BigInt(claimed.validUntil) !== p4) return 'validUntil';
  const isScore = d.proofType === 'ScoreAboveThreshold';
  if (claimed.subject !== undefined && claimed.subject.toLowerCase() !== fieldToAddress(p2)) return 'subject';
  if (claimed.commitment !== undefined) {
    try {
      if (BigInt(claimed.commitment) !== p3) return 'commitment';
    } catch {
      return 'commitment';
    }
  }
  if (claimed.timestamp !== undefined && (!issuedAt || Math.floor(issuedAt.getTime() / 1000) !== claimed.timestamp)) return 'timestamp';
  if (isScore) {
    if (claimed.threshold !== undefined && BigInt(claimed.threshold) !== p0) return 'threshold';
    if (claimed.category !== undefined && claimed.category !== CATEGORIES[Number(p1)]) return 'category';
    if (claimed.categoryId !== undefined && BigInt(claimed.categoryId) !== p1) return 'categoryId';
    if (claimed.categoryHash !== undefined && claimed.categoryHash.toLowerCase() !== categoryHash(CATEGORIES[Number(p1)]))
      return 'categoryHash';
    if (claimed.minimumAge !== undefined || claimed.currentDate !== undefined) return 'minimumAge';
  } else {
    const age = claimed.minimumAge ?? claimed.threshold;
    if (age !== undefined && BigInt(age) !== p1) return 'minimumAge';
    if (claimed.currentDate !== undefined && BigInt(claimed.currentDate) !== p0) return 'currentDate';
    if (claimed.category !== undefined || claimed.categoryHash !== undefined || claimed.categoryId !== undefined) return 'category';
  }
  return null;
}
