// What the compliance route files share: the services they call, their tag, the owner check of a DID's routes,
// the age questions' guarded answer and the texts the age routes' descriptions repeat.
import type { FastifyRequest } from 'fastify';
import type { AgeAnswer, AgeService } from '../age.js';
import type { AgeChecks, AgeRoute } from '../age-checks.js';
import type { KycService } from '../kyc-service.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

export interface ComplianceRouteDeps {
  kyc: KycService;
  age: AgeService;
  ageChecks: AgeChecks;
}

export const tags = ['Compliance'];

/** The wallet of a did:credence DID (its last part; the path pattern was validated): its session reads it. */
export const didWallet = (req: FastifyRequest) => (req.params as { did: string }).did.split(':').pop()!;

/** The asker of an age question: the request's API key and the wallet that owns it. */
const askerOf = (req: FastifyRequest) => ({ keyId: req.apiKey!.keyId, keyOwner: req.apiKey!.ownerAddress });
const answerOf = (r: AgeAnswer) => ({ verified: r.verified, reason: r.reason });

/** Whether `wallet` is at least `minimumAge`, asked by the request's key within its age-privacy allowance. */
export const checkAge = (
  { age, ageChecks }: ComplianceRouteDeps,
  req: FastifyRequest,
  wallet: string,
  minimumAge: number,
  route: AgeRoute,
) => ageChecks.service.guard(askerOf(req), wallet, minimumAge, route, () => age.verify(wallet, minimumAge), answerOf);

/**
 * Test credentials check ages in the sandbox (the sandbox KYC, see proofs/sandbox.ts): such a question asks nothing
 * about a real person, so it is neither logged for the wallet nor counted against the age-privacy allowance.
 */
export const SANDBOX_AGE =
  ' **Test mode**: with test credentials (a cred_test_ key, or a JWT signed in with `environment: "test"`) the answer comes from the sandbox ' +
  'KYC, in which every wallet is approved with a birth date drawn from its address; the proof is a sandbox proof (`environment: "test"`), ' +
  'valid only for test credentials, never for live verification nor on-chain. Such questions are not logged for the wallet and count no allowance.';

export const AGE_PRIVACY =
  ' Age privacy: one API key (together with the other keys of the wallet that owns it) may ask about one wallet for at most ' +
  'CREDENCE_AGE_CHECK_MINIMUMS (default 3) different minimum ages per CREDENCE_AGE_CHECK_WINDOW_DAYS (default 30) days, and all keys ' +
  'together for at most CREDENCE_AGE_CHECK_WALLET_MINIMUMS (default 8) different minimums other than the legal ages (18, 21 and ' +
  'CREDENCE_LEGAL_AGES); a further different minimum gets 403 `forbidden` saying so, so successive minimums cannot reveal an exact ' +
  'age. Asking again about a minimum already asked is always allowed. The wallet owner sees every question at GET /compliance/age-checks.';
