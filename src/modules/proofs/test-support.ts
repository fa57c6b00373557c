// Shared by this module's tests: setting a wallet's score through the scoring service (the way an admin's
// dispute resolution does), and a KYC record source for instances whose compliance module provides none.
import { randomUUID } from 'node:crypto';
import type { App } from '../../platform/http/types.js';
import type { Category } from '../scoring/contracts.js';
import type { KycRecords } from './contracts.js';

export async function setScore(app: App, address: string, category: Category, score: number): Promise<void> {
  const scoring = app.ctx.services.scoring;
  if (!scoring) throw new Error('no scoring service');
  await scoring.applyRevisedScore(address, category, score, 'proofs-test', randomUUID());
  const entry = await scoring.getScore(address, category, { explain: false });
  if (entry.score !== score) throw new Error(`score is ${entry.score}, wanted ${score}`);
}

/** Approved KYC birth dates committed through the real proofs service (kept in memory). */
export function kycRecordsFor(app: App): KycRecords & { approve(address: string, birthDate: number): Promise<void> } {
  const rows = new Map<string, { birthDate: number; salt: string; commitment: string }>();
  return {
    async approve(address, birthDate) {
      const c = await app.ctx.services.proofs!.commitBirthDate(address, birthDate);
      rows.set(address.toLowerCase(), { birthDate, ...c });
    },
    async approvedBirthDate(address) {
      return rows.get(address.toLowerCase()) ?? null;
    },
    async kycStatus(address) {
      return rows.has(address.toLowerCase()) ? 'approved' : 'none';
    },
  };
}
