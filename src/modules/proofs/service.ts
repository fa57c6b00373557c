// The proofs service: keeps the salted commitments proofs are made against, proves statements with the
// prover pool, and verifies proofs (Groth16 + the commitment is the current one + the caller's publicInputs).
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Cipher } from '../../platform/secrets.js';
import type { ModuleServices } from '../../platform/context.js';
import { AppError, fieldError } from '../../platform/errors.js';
import { toChecksum } from '../../platform/http/address.js';
import { CATEGORIES, categoryId, type Category } from '../scoring/contracts.js';
import type { BirthDateCommitment, ProofResult, ProofsService, ProofType } from './contracts.js';
import { birthDateCommitment, fieldToAddress, randomSalt } from './commitments.js';
import { claimsDisagree, type ClaimedInputs } from './claimed-inputs.js';
import { createScoreCommitments } from './score-commitments.js';
import { categoryHash, decodeProof, encodeProof, isCalendarDate, yyyymmdd, type DecodedProof } from './encoding.js';
import { BIRTH_DATE_CATEGORY, type CommitmentRow, type ProofsRepo } from './repo.js';
import type { ProofRuntime } from './runtime.js';
import type { CircuitName } from './artifacts.js';
import { currentEnvironment } from '../../platform/auth/environment.js';
import { sandboxKyc, sandboxScoreCommitment } from './sandbox.js';

export type RequestedProofType = ProofType | 'AgeAboveMinimum';

export interface ProveRequest {
  subject: string;
  proofType: RequestedProofType;
  category?: Category;
  threshold?: number;
  minimumAge?: number;
}

export type { ClaimedInputs } from './claimed-inputs.js';

export interface FullProofsService extends ProofsService {
  prove(req: ProveRequest): Promise<ProofResult>;
  /** subject/validUntil: what the proof says about whom, and until when (absent when the string is not a proof). */
  verify(proof: string, claimed?: ClaimedInputs): Promise<{ valid: boolean; reason?: string; subject?: string; validUntil?: number }>;
  /** Marks a wallet's score commitment superseded when its score changed. */
  onScoreChanged(address: string, category: Category, newScore: number): Promise<void>;
}

export const DEFAULT_MINIMUM_AGE = 21;
const sha256 = (s: string) => createHash('sha256').update(s.toLowerCase()).digest('hex');
const unsatisfiable = (details: string) => new AppError('proof_unsatisfiable', details);
/** Why a sandbox proof is not valid for live credentials, and a live one not for test credentials. */
export const SANDBOX_PROOF_IN_LIVE = 'a test (sandbox) proof, made with test credentials: never valid for live verification';
export const LIVE_PROOF_IN_TEST = 'not a test (sandbox) proof: test credentials verify sandbox proofs only';

export function createProofsService(deps: {
  repo: ProofsRepo;
  cipher: Cipher;
  /** the scores score proofs are made from, the approved KYC birth dates age proofs are made from */
  services: Pick<ModuleServices, 'scoring' | 'kyc'>;
  runtime: ProofRuntime;
  log: FastifyBaseLogger;
  /** Lifetime of a proof (its validUntil is this far after it is made); default one hour. */
  proofLifetimeSeconds?: number;
  /** Clock (ms), for tests of expiry. */
  now?: () => number;
  /** Called after a new commitment is recorded (the chain publisher batches them). */
  onCommitment?: () => void;
}): FullProofsService {
  const { repo, cipher, services, runtime } = deps;
  const lifetime = deps.proofLifetimeSeconds ?? 3600;
  const nowMs = deps.now ?? Date.now;

  async function recordCommitment(r: Parameters<ProofsRepo['replaceCurrent']>[0]): Promise<CommitmentRow> {
    let row: CommitmentRow;
    try {
      row = await repo.replaceCurrent(r);
    } catch (e) {
      // a concurrent request recorded one first (unique current index): use it when it commits to the same value
      if ((e as { code?: string }).code !== '23505') throw e;
      const cur = await repo.current(r.kind, r.address, r.categoryId);
      if (!cur || (r.kind === 'score' ? cur.score !== r.score : cur.commitment !== r.commitment)) throw e;
      return cur;
    }
    deps.onCommitment?.();
    return row;
  }

  const scoreCommitments = createScoreCommitments({ repo, cipher, record: recordCommitment });

  // Test-mode proofs count no quota and test keys are free to make: at most one per prover thread at a time on an
  // instance, so a flood of them never queues live proofs behind it (the rest get 503 with Retry-After).
  let sandboxProving = 0;
  async function proveBounded(circuit: CircuitName, input: Record<string, string>) {
    if (currentEnvironment() !== 'test') return runtime.prove(circuit, input);
    const cap = Math.max(1, runtime.stats().provers.threads);
    if (sandboxProving >= cap) {
      throw new AppError(
        'unavailable',
        `Test-mode proofs run at most ${cap} at a time on this instance, so they never delay live proofs; retry shortly.`,
        {
          headers: { 'Retry-After': 1 },
        },
      );
    }
    sandboxProving++;
    try {
      return await runtime.prove(circuit, input);
    } finally {
      sandboxProving--;
    }
  }

  async function finish(
    type: ProofType,
    circuit: CircuitName,
    input: Record<string, string>,
    publicInputs: Omit<ProofResult['publicInputs'], 'timestamp' | 'validUntil'>,
    issuedAt: Date,
    validUntil: number,
  ): Promise<ProofResult> {
    const { proof, publicSignals } = await proveBounded(circuit, { ...input, validUntil: String(validUntil) });
    const hex = encodeProof(type, proof, publicSignals);
    await repo.recordIssuance({
      proofHash: sha256(hex),
      proofType: type,
      address: input.subject ? fieldToAddress(BigInt(input.subject)) : '',
      commitment: input.commitment,
      issuedAt,
    });
    return { proof: hex, proofType: type, publicInputs: { ...publicInputs, timestamp: issuedAt.getTime() / 1000, validUntil } };
  }

  /** The issue time (whole seconds) and the expiry of a proof made now. */
  function issueWindow(): { issuedAt: Date; validUntil: number } {
    const issuedAt = new Date(Math.floor(nowMs() / 1000) * 1000);
    return { issuedAt, validUntil: issuedAt.getTime() / 1000 + lifetime };
  }

  async function proveScore(address: string, category: Category, threshold: number): Promise<ProofResult> {
    const entry = await services.scoring.getScore(address, category, { explain: false });
    if (entry.score < threshold)
      throw unsatisfiable(`The wallet's ${category} score is below the threshold ${threshold}: no proof exists.`);
    const catId = categoryId(category);
    const { row, salt } = await scoreCommitments.forScore(address, catId, entry.score);
    return proveScoreOver(address, category, threshold, entry.score, salt, row.commitment);
  }

  /** Test credentials: the same circuit over the sandbox score, against a commitment that is computed, never stored. */
  async function proveSandboxScore(address: string, category: Category, threshold: number): Promise<ProofResult> {
    const { score, salt, commitment } = sandboxScoreCommitment(address, category, categoryId(category));
    if (score < threshold)
      throw unsatisfiable(`The wallet's sandbox ${category} score (${score}) is below the threshold ${threshold}: no proof exists.`);
    return proveScoreOver(address, category, threshold, score, salt, commitment);
  }

  /** The score-threshold proof of `score` under its committed salt. */
  function proveScoreOver(
    address: string,
    category: Category,
    threshold: number,
    score: number,
    salt: bigint,
    commitment: string,
  ): Promise<ProofResult> {
    const catId = categoryId(category);
    const input = {
      threshold: String(threshold),
      categoryId: String(catId),
      subject: BigInt(address).toString(),
      commitment,
      score: String(score),
      salt: salt.toString(),
    };
    const { issuedAt, validUntil } = issueWindow();
    return finish(
      'ScoreAboveThreshold',
      'score_threshold',
      input,
      { threshold, category, categoryId: catId, categoryHash: categoryHash(category), subject: toChecksum(address), commitment },
      issuedAt,
      validUntil,
    );
  }

  /** Whether a proof is against the sandbox commitment of its subject (a proof made for test credentials). */
  function isSandboxProof(d: DecodedProof, address: string): boolean {
    const commitment = d.publicSignals[3].toString();
    if (d.proofType !== 'ScoreAboveThreshold') return sandboxKyc(address).commitment === commitment;
    const catId = Number(d.publicSignals[1]);
    return sandboxScoreCommitment(address, CATEGORIES[catId], catId).commitment === commitment;
  }

  async function ensureBirthDateCommitment(address: string, commitment: string): Promise<void> {
    const cur = await repo.current('birth_date', address, BIRTH_DATE_CATEGORY);
    if (cur?.commitment === commitment) return;
    await recordCommitment({ kind: 'birth_date', address, categoryId: BIRTH_DATE_CATEGORY, score: null, saltEnc: null, commitment });
  }

  async function proveAgeAs(
    type: ProofType,
    input: { address: string; birthDate: number; salt: string; minimumAge: number; now?: Date },
  ): Promise<ProofResult> {
    const address = input.address.toLowerCase();
    if (!isCalendarDate(input.birthDate)) throw fieldError('birthDate', 'must be a calendar date written yyyymmdd');
    if (!Number.isInteger(input.minimumAge) || input.minimumAge < 0 || input.minimumAge > 255)
      throw fieldError('minimumAge', 'must be an integer from 0 to 255');
    const { issuedAt, validUntil: wanted } = issueWindow();
    const today = input.now ?? issuedAt;
    const currentDate = yyyymmdd(today);
    // the contract accepts an age proof on its date and the day after: it cannot be valid longer than that
    const validUntil = Math.min(wanted, Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + 2) / 1000 - 1);
    const salt = BigInt(input.salt);
    const commitment = birthDateCommitment(address, input.birthDate, salt).toString();
    if (input.birthDate + input.minimumAge * 10000 > currentDate) {
      throw unsatisfiable(
        type === 'KYCVerified'
          ? 'The committed birth date lies in the future.'
          : `The committed birth date does not make the person at least ${input.minimumAge} years old.`,
      );
    }
    // a sandbox birth date (test credentials) is committed nowhere: live age checks never see it
    if (currentEnvironment() === 'live') await ensureBirthDateCommitment(address, commitment);
    return finish(
      type,
      'age_over',
      {
        currentDate: String(currentDate),
        minimumAge: String(input.minimumAge),
        subject: BigInt(address).toString(),
        commitment,
        birthDate: String(input.birthDate),
        salt: salt.toString(),
      },
      { minimumAge: input.minimumAge, currentDate, subject: toChecksum(address), commitment },
      issuedAt,
      validUntil,
    );
  }

  async function approvedKyc(address: string) {
    const rec = await services.kyc.approvedBirthDate(address);
    if (!rec) throw unsatisfiable('The wallet has no approved KYC, so there is no committed birth date to prove from.');
    return rec;
  }

  async function checkCommitment(d: DecodedProof, address: string, catId: number): Promise<string | null> {
    const commitment = d.publicSignals[3].toString();
    const kind = d.proofType === 'ScoreAboveThreshold' ? 'score' : 'birth_date';
    const row = (await repo.byCommitment(commitment)).find((r) => r.kind === kind && r.address === address && r.category_id === catId);
    if (!row) return 'unknown commitment';
    if (!row.is_current) return 'superseded commitment';
    if (kind === 'score') {
      const category = CATEGORIES[catId];
      const entry = await services.scoring.getScore(address, category, { explain: false });
      if (entry.score !== row.score) {
        scoreCommitments.forget(address, catId);
        await repo.supersede('score', address, catId, entry.score);
        return 'superseded commitment (the score changed)';
      }
    } else {
      const rec = await services.kyc.approvedBirthDate(address);
      if (rec?.commitment !== commitment) return 'the birth-date commitment is not the one of an approved KYC';
    }
    return null;
  }

  return {
    async prove(req) {
      const address = req.subject.toLowerCase();
      // test credentials prove over sandbox data only (the sandbox score model, and the sandbox KYC)
      const test = currentEnvironment() === 'test';
      switch (req.proofType) {
        case 'ScoreAboveThreshold': {
          const missing = [];
          if (req.category === undefined) missing.push({ field: 'category', message: 'is required for ScoreAboveThreshold' });
          if (req.threshold === undefined) missing.push({ field: 'threshold', message: 'is required for ScoreAboveThreshold' });
          if (missing.length)
            throw new AppError('validation_failed', 'category and threshold are required for ScoreAboveThreshold', { fields: missing });
          return (test ? proveSandboxScore : proveScore)(address, req.category!, req.threshold!);
        }
        case 'AgeVerification':
        case 'AgeAboveMinimum': {
          const rec = test ? sandboxKyc(address) : await approvedKyc(address);
          return proveAgeAs('AgeVerification', {
            address,
            birthDate: rec.birthDate,
            salt: rec.salt,
            minimumAge: req.minimumAge ?? DEFAULT_MINIMUM_AGE,
          });
        }
        case 'KYCVerified': {
          if (test) return proveAgeAs('KYCVerified', { address, ...sandboxKyc(address), minimumAge: 0 });
          const status = await services.kyc.kycStatus(address);
          if (status !== 'approved') throw unsatisfiable(`The wallet has no approved KYC (its KYC status is ${status}).`);
          const rec = await approvedKyc(address);
          return proveAgeAs('KYCVerified', { address, birthDate: rec.birthDate, salt: rec.salt, minimumAge: 0 });
        }
      }
    },

    async verify(proofHex, claimed) {
      const d = decodeProof(proofHex);
      if (!d) return { valid: false, reason: 'malformed proof' };
      const isScore = d.proofType === 'ScoreAboveThreshold';
      const [, p1, p2, , p4] = d.publicSignals;
      if (p2 >> 160n !== 0n) return { valid: false, reason: 'the subject is not an address' };
      const invalid = (reason: string) => ({ valid: false, reason });
      if (isScore && p1 >= BigInt(CATEGORIES.length)) return invalid('unknown category');
      if (d.proofType === 'KYCVerified' && p1 !== 0n) return invalid('a KYCVerified proof has minimum age 0');
      // the pairing check and the commitment lookups overlap (with a PostgreSQL server the lookups wait on the network)
      const subject = fieldToAddress(p2);
      // Test credentials verify sandbox proofs only; live ones never accept a sandbox proof (its commitment is no
      // live one: it reads as unknown, and the answer says why).
      const commitmentProblem =
        currentEnvironment() === 'test'
          ? Promise.resolve(isSandboxProof(d, subject) ? null : LIVE_PROOF_IN_TEST)
          : checkCommitment(d, subject, isScore ? Number(p1) : BIRTH_DATE_CATEGORY).then((p) =>
              p === 'unknown commitment' && isSandboxProof(d, subject) ? SANDBOX_PROOF_IN_LIVE : p,
            );
      const [sound, stale] = await Promise.all([
        runtime.verify(isScore ? 'score_threshold' : 'age_over', d.publicSignals, d.proof),
        commitmentProblem,
      ]);
      if (!sound) return invalid('invalid Groth16 proof');
      // only a sound proof's validUntil is its own: a tampered one is invalid, whatever date it now reads
      if (p4 < BigInt(Math.floor(nowMs() / 1000))) return invalid('expired (validUntil has passed)');
      if (stale) return invalid(stale);
      if (claimed && Object.values(claimed).some((v) => v !== undefined)) {
        const issuedAt = claimed.timestamp !== undefined ? await repo.issuedAt(sha256(proofHex)) : null;
        const field = claimsDisagree(d, claimed, issuedAt);
        if (field) return invalid(`publicInputs.${field} disagrees with the proof`);
      }
      // whose proof this is, and until when, so a caller never takes a valid proof about someone else for its own
      return { valid: true, subject: toChecksum(fieldToAddress(p2)), validUntil: Number(p4) };
    },

    async commitBirthDate(address, birthDate): Promise<BirthDateCommitment> {
      if (!isCalendarDate(birthDate)) throw fieldError('birthDate', 'must be a calendar date written yyyymmdd');
      const a = address.toLowerCase();
      const salt = randomSalt();
      const commitment = birthDateCommitment(a, birthDate, salt).toString();
      await recordCommitment({ kind: 'birth_date', address: a, categoryId: BIRTH_DATE_CATEGORY, score: null, saltEnc: null, commitment });
      return { salt: salt.toString(), commitment };
    },

    proveAge: (input) => proveAgeAs('AgeVerification', input),

    async onScoreChanged(address, category, newScore) {
      scoreCommitments.forget(address.toLowerCase(), categoryId(category));
      await repo.supersede('score', address.toLowerCase(), categoryId(category), newScore);
    },
  };
}
