// Routes of the proofs module: prove, verify, and the published verification keys.
import { apiRoutes, type App } from '../../platform/http/types.js';
import { errorResponses, thousands } from '../../platform/openapi.js';
import type { Static } from '@sinclair/typebox';
import { MAX_PROOF_CHARS, ProveBody, ProveResponse, VerificationKeysResponse, VerifyBody, VerifyResponse } from './schemas.js';
import { DEFAULT_MINIMUM_AGE, LIVE_PROOF_IN_TEST, SANDBOX_PROOF_IN_LIVE, type FullProofsService } from './service.js';
import { snarkjsForm } from './snarkjs-form.js';

export function proofsRoutes(
  app: App,
  getService: () => Promise<FullProofsService>,
  verificationKeys: () => Static<typeof VerificationKeysResponse>,
) {
  apiRoutes(app, (s) => {
    s.post(
      '/reputation/prove',
      {
        config: { auth: 'apiKey', cost: 1, idempotent: true, sandbox: true, owner: (req) => (req.body as { subject: string }).subject },
        schema: {
          operationId: 'proofs.createProof',
          tags: ['Proofs'],
          summary: 'Make a zero-knowledge proof about a wallet',
          description:
            'Groth16 proof of a statement about `subject`, revealing nothing more. ScoreAboveThreshold (needs `category` and `threshold`): the score ' +
            'Credence committed to for the wallet and category is at least the threshold. AgeVerification (alias AgeAboveMinimum; `minimumAge` ' +
            "default 21): the birth date of the wallet's approved KYC makes the person at least that old today (UTC). KYCVerified: the wallet " +
            'has an approved KYC. A false statement, or no approved KYC for an age/KYC proof, gives 422 `proof_unsatisfiable` and no proof. ' +
            '`proof` is the ABI encoding the on-chain ReputationOracle.verifyProofFor(holder, proof, threshold, categoryId) and ' +
            'CredentialVerifier.verifyAgeProofFor(holder, proof, minimumAge) take; a consumer passes msg.sender as holder, because any API key ' +
            "can obtain any wallet's proof (verifyProof alone is not bound to its presenter). Every proof expires at `publicInputs.validUntil` " +
            '(Unix seconds, a public input of the proof): verifiers, offline ones included, must refuse it afterwards. Counts 1 query. Age proofs count against the age-privacy allowance of ' +
            'POST /compliance/verify-age (a few different minimum ages per key and wallet per window; a further one gets 403).\n\n' +
            '**Test mode**: with test credentials (a cred_test_ key, or a JWT signed in with `environment: "test"`) the proof is made over sandbox ' +
            'data: the sandbox score a test key reads from GET /reputation/{address}, or the sandbox KYC (every wallet approved, with a birth date ' +
            'drawn from its address). It is a real Groth16 proof, answered with `environment: "test"`; its commitment is never recorded nor published, ' +
            'so it verifies only with test credentials, never with live ones nor on-chain. Test requests count no quota and no age-privacy allowance.\n\n' +
            "**Owners**: the subject's own wallet may prove about itself with its session alone (Authorization: Bearer, no API key, no quota; " +
            "its own age questions count no age-privacy allowance); another wallet's session gets 403.",
          body: ProveBody,
          response: { 200: ProveResponse, ...errorResponses(403, 422, 503) },
        },
      },
      async (req) => {
        const service = await getService();
        const prove = () => service.prove(req.body);
        const environment = req.environment ?? 'live';
        // An age proof is an age question: it goes under the compliance module's age-privacy allowance (403 beyond it;
        // a sandbox one asks nothing about a real person and passes through).
        const ageChecks = req.server.ctx.services.ageChecks;
        const isAge = req.body.proofType === 'AgeVerification' || req.body.proofType === 'AgeAboveMinimum';
        // the wallet asking about its own age (its session, no key) learns nothing it does not know: no allowance
        const key = req.apiKey;
        const result =
          isAge && ageChecks && key
            ? await ageChecks.guard(
                { keyId: key.keyId, keyOwner: key.ownerAddress },
                req.body.subject,
                req.body.minimumAge ?? DEFAULT_MINIMUM_AGE,
                'prove',
                prove,
              )
            : await prove();
        // the alias is answered under the name asked for; the proof itself carries the canonical type
        const out = { ...result, snarkjs: snarkjsForm(result.proof), environment };
        return req.body.proofType === 'AgeAboveMinimum' ? { ...out, proofType: 'AgeAboveMinimum' } : out;
      },
    );

    s.post(
      '/reputation/verify',
      {
        config: { auth: 'apiKey', cost: 0, sandbox: true, owner: 'any' },
        schema: {
          operationId: 'proofs.verifyProof',
          tags: ['Proofs'],
          summary: 'Verify a proof',
          description:
            `Checks a proof from /reputation/prove: a valid Groth16 proof, against the commitment Credence currently holds for the wallet ` +
            `(a proof against a superseded commitment, for example after the score changed, is no longer valid), not expired (\`validUntil\`), ` +
            `and, when \`publicInputs\` is sent, ` +
            `every field given agrees with the proof. Anything else, including a string that is not a proof at all, gives \`valid: false\`; ` +
            `400 only for a missing proof or one over ${thousands(MAX_PROOF_CHARS)} characters. A valid answer names \`subject\`, the ` +
            `wallet the proof is about: check it is the party you act for (or send \`publicInputs.subject\`). Counts 0 queries. ` +
            `Live credentials accept live proofs only: a sandbox proof (made with test credentials) answers \`valid: false\` with the reason ` +
            `"${SANDBOX_PROOF_IN_LIVE}". Test credentials accept sandbox proofs only ("${LIVE_PROOF_IN_TEST}" otherwise). The answer says \`environment\`. ` +
            'Any signed-in wallet may also verify with its session alone (Authorization: Bearer, no API key).',
          body: VerifyBody,
          response: { 200: VerifyResponse },
        },
      },
      async (req) => {
        const service = await getService();
        return { ...(await service.verify(req.body.proof, req.body.publicInputs)), environment: req.environment ?? 'live' };
      },
    );

    s.get(
      '/proofs/verification-keys',
      {
        config: { auth: 'public' },
        schema: {
          operationId: 'proofs.listVerificationKeys',
          tags: ['Proofs'],
          summary: 'Groth16 verification keys',
          description:
            'The snarkjs verification keys of the circuits behind every proof, so anyone can verify a proof offline ' +
            '(snarkjs.groth16.verify(key, publicSignals, proof)) without trusting this API. Public signals are in the order listed.',
          response: { 200: VerificationKeysResponse },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'public, max-age=3600');
        return verificationKeys();
      },
    );
  });
}
