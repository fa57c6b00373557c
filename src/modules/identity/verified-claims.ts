// The claims of the service-verified credential types, written from the service's own records: a completed KYC
// session, the KYC birth date's commitment, the scoring model, the sanctions list in force, a SIWE-proven key.
// A caller's subject may name the type's parameters (AgeOver's ageOver, ReputationScore's category) and may repeat
// claims that agree with the records; anything else is refused (422 naming each field), never signed.
import { AppError, fieldError, unavailable, type FieldError } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import type { ModuleServices } from '../../platform/context.js';
import { CATEGORIES, type Category } from '../scoring/contracts.js';
import type { ControlRepo } from './control.js';
import type { DidRow } from './repo.js';
import type { ServiceType } from './credential-types.js';

const DAY_MS = 24 * 3600 * 1000;

export interface VerifiedClaims {
  claims: Record<string, unknown>;
  /** the longest a credential of this type stays valid (a caller's expirationDate may only shorten it) */
  maxLifetimeMs: number;
}

/** 422: a well-formed request whose statement the records do not support (decisions.md), with every field named. */
export const claimsRefused = (type: string, fields: FieldError[]) =>
  new AppError(
    'proof_unsatisfiable',
    `The service signs ${type} only with the claims it verified itself; ${fields.map((f) => `${f.field} ${f.message}`).join('; ')}.`,
    {
      fields,
    },
  );

const yyyymmdd = (d: Date) => d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();

/** The records each type is signed from: KYC sessions and birth dates (compliance), scores, the sanctions list. */
export type VerifiedClaimsSources = Pick<ModuleServices, 'kycFacts' | 'kyc' | 'scoring' | 'sanctions'>;

export function createVerifiedClaims(deps: { services: VerifiedClaimsSources; control: ControlRepo | null }) {
  const { services } = deps;

  /** What the service itself established for this type and DID; `params` are the caller's parameters (already validated). */
  async function facts(type: ServiceType, row: DidRow, params: Record<string, unknown>, caller: string): Promise<VerifiedClaims> {
    const address = row.wallet_address;
    switch (type) {
      case 'KYCVerified': {
        const kyc = await services.kycFacts.approvedSession(row.did);
        if (!kyc)
          throw claimsRefused(type, [
            { field: 'credentialType', message: `needs a completed, approved KYC session of ${row.did}; there is none` },
          ]);
        return {
          claims: { kycStatus: 'approved', kycLevel: kyc.level, kycProvider: kyc.provider, verifiedAt: kyc.completedAt.toISOString() },
          maxLifetimeMs: 365 * DAY_MS,
        };
      }
      case 'AgeOver': {
        const rec = await services.kyc.approvedBirthDate(address);
        if (!rec)
          throw claimsRefused(type, [{ field: 'credentialType', message: 'needs the birth date of an approved KYC; the wallet has none' }]);
        const n = params.ageOver as number;
        const age = Math.floor((yyyymmdd(new Date()) - rec.birthDate) / 10000);
        if (age < n) throw claimsRefused(type, [{ field: 'subject.ageOver', message: `is not supported by the KYC-verified birth date` }]);
        return {
          claims: { ageOver: n, birthDateCommitment: rec.commitment, verifiedAt: new Date().toISOString() },
          maxLifetimeMs: 365 * DAY_MS,
        };
      }
      case 'ReputationScore': {
        const category = params.category as Category;
        const e = await services.scoring.getScore(address, category, { explain: false });
        return {
          claims: {
            category,
            score: e.score,
            tier: e.tier,
            confidence: e.confidence,
            modelVersion: e.modelVersion,
            scoredAt: new Date(e.calculatedAt).toISOString(),
          },
          maxLifetimeMs: 7 * DAY_MS,
        };
      }
      case 'SanctionsScreening': {
        const s = services.sanctions.status(address);
        // fails closed: never "not sanctioned" without a list
        if (s.sanctioned === null || !s.listPublishedAt) throw unavailable('No sanctions list is loaded; screening is unavailable.');
        return {
          claims: {
            walletAddress: toChecksum(address),
            sanctioned: s.sanctioned,
            sanctionsList: 'OFAC SDN',
            listPublishedAt: s.listPublishedAt.toISOString(),
            screenedAt: new Date().toISOString(),
          },
          maxLifetimeMs: DAY_MS,
        };
      }
      case 'DIDControl': {
        // the caller's JWT is a SIWE sign-in of the caller's wallet; an administrator's proves nothing about this one
        const proof = caller === address && deps.control ? await deps.control.proof(address) : null;
        if (!proof)
          throw claimsRefused(type, [{ field: 'credentialType', message: `needs a SIWE sign-in by the wallet of ${row.did} itself` }]);
        return {
          claims: {
            controller: `eip155:${Number(row.chain_id)}:${toChecksum(address)}`,
            controlProvenBy: proof.method === 'siwe' ? 'SIWE' : 'signed DID update',
            controlProvenAt: proof.provedAt.toISOString(),
          },
          maxLifetimeMs: 365 * DAY_MS,
        };
      }
    }
  }

  /** The type's parameters from the caller's subject; 400 for a malformed one. */
  function paramsOf(type: ServiceType, subject: Record<string, unknown>): { params: Record<string, unknown>; names: string[] } {
    if (type === 'AgeOver') {
      const n = subject.ageOver;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 150)
        throw fieldError('subject.ageOver', 'is required for AgeOver: an integer 1-150');
      return { params: { ageOver: n }, names: ['ageOver'] };
    }
    if (type === 'ReputationScore') {
      const c = subject.category ?? 'OVERALL';
      if (typeof c !== 'string' || !(CATEGORIES as readonly string[]).includes(c))
        throw fieldError('subject.category', `must be one of ${CATEGORIES.join(', ')}`);
      return { params: { category: c }, names: ['category'] };
    }
    return { params: {}, names: [] };
  }

  return {
    /** The claims to sign for a service-verified type; refuses (422) a subject that contradicts or adds to them. */
    async claimsFor(type: ServiceType, row: DidRow, subject: Record<string, unknown>, caller: string): Promise<VerifiedClaims> {
      const { params, names } = paramsOf(type, subject);
      const v = await facts(type, row, params, caller);
      const refused: FieldError[] = [];
      for (const [k, given] of Object.entries(subject)) {
        if (k === 'id' || names.includes(k)) continue;
        if (!(k in v.claims))
          refused.push({
            field: `subject.${k}`,
            message: `is not a claim the service verifies for ${type}: it writes this credential's claims itself`,
          });
        else if (JSON.stringify(given) !== JSON.stringify(v.claims[k]))
          refused.push({ field: `subject.${k}`, message: `contradicts the service's record` });
      }
      if (refused.length) throw claimsRefused(type, refused);
      return v;
    },
  };
}

export type VerifiedClaimsService = ReturnType<typeof createVerifiedClaims>;
