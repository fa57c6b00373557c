// Age verification: a Groth16 proof (from the proofs service) that the KYC-approved birth date, kept as a
// salted commitment, is at least minimumAge years ago. No approved KYC, or under age: verified false, proof null.
import { AppError } from '../../platform/errors.js';
import type { ModuleServices } from '../../platform/context.js';
import { sandboxKyc, type KycRecords, type ProofResult } from '../proofs/contracts.js';
import { currentEnvironment } from '../../platform/auth/environment.js';

export interface AgeDeps {
  kyc: Pick<KycRecords, 'approvedBirthDate'>;
  services: Pick<ModuleServices, 'proofs'>;
  legalAges: Record<string, number>;
}

export interface AgeAnswer {
  verified: boolean;
  proof: string | null;
  publicInputs: ProofResult['publicInputs'] | null;
  reason: string | null;
}

export function createAgeService({ kyc, services, legalAges }: AgeDeps) {
  return {
    /** The jurisdiction's legal age: configured value for the region, then the country, then US 21, else 18. */
    legalAge(jurisdictionCode: string): number {
      const code = jurisdictionCode.toUpperCase();
      const country = code.split('-')[0];
      return legalAges[code] ?? legalAges[country] ?? (country === 'US' ? 21 : 18);
    },

    async verify(address: string, minimumAge: number): Promise<AgeAnswer> {
      // test credentials: the sandbox KYC (every wallet approved, a birth date drawn from its address), never a real one
      const record = currentEnvironment() === 'test' ? sandboxKyc(address) : await kyc.approvedBirthDate(address.toLowerCase());
      if (!record) return { verified: false, proof: null, publicInputs: null, reason: 'no_approved_kyc' };
      try {
        const r = await services.proofs.proveAge({
          address: address.toLowerCase(),
          birthDate: record.birthDate,
          salt: record.salt,
          minimumAge,
        });
        return { verified: true, proof: r.proof, publicInputs: r.publicInputs, reason: null };
      } catch (e) {
        if (e instanceof AppError && e.code === 'proof_unsatisfiable')
          return { verified: false, proof: null, publicInputs: null, reason: 'under_minimum_age' };
        throw e;
      }
    },
  };
}

export type AgeService = ReturnType<typeof createAgeService>;
