// Compliance routes: KYC initiate, status and provider callbacks; age verification.
import { Type } from '@sinclair/typebox';
import type { App } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { toChecksum } from '../../platform/http/address.js';
import type { FastifyRequest } from 'fastify';
import type { AgeAnswer, AgeService } from './age.js';
import type { AgeChecks } from './age-checks.js';
import { linkNext } from '../../platform/http/pagination.js';
import { snarkjsForm } from '../proofs/snarkjs-form.js';
import type { KycService } from './kyc-service.js';
import { KYC_PROVIDERS } from './providers/types.js';
import {
  AgeCheck,
  AgeChecksQuery,
  AgeVerifyBody,
  AgeVerifyResponse,
  CallbackParams,
  CallbackResponse,
  DidParams,
  InitiateBody,
  KycSession,
  KycStatus,
  RevokedKyc,
  RevokeKycBody,
  VerifyAgeBody,
  VerifyAgeResponse,
} from './schemas.js';

const tags = ['Compliance'];

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

/** The asker of an age question: the request's API key and the wallet that owns it. */
const askerOf = (req: FastifyRequest) => ({ keyId: req.apiKey!.keyId, keyOwner: req.apiKey!.ownerAddress });
/**
 * Test credentials check ages in the sandbox (the sandbox KYC, see proofs/sandbox.ts): such a question asks nothing
 * about a real person, so it is neither logged for the wallet nor counted against the age-privacy allowance.
 */
const SANDBOX_AGE =
  ' **Test mode**: with test credentials (a cred_test_ key, or a JWT signed in with `environment: "test"`) the answer comes from the sandbox ' +
  'KYC, in which every wallet is approved with a birth date drawn from its address; the proof is a sandbox proof (`environment: "test"`), ' +
  'valid only for test credentials, never for live verification nor on-chain. Such questions are not logged for the wallet and count no allowance.';
const answerOf = (r: AgeAnswer) => ({ verified: r.verified, reason: r.reason });

const AGE_PRIVACY =
  ' Age privacy: one API key (together with the other keys of the wallet that owns it) may ask about one wallet for at most ' +
  'CREDENCE_AGE_CHECK_MINIMUMS (default 3) different minimum ages per CREDENCE_AGE_CHECK_WINDOW_DAYS (default 30) days, and all keys ' +
  'together for at most CREDENCE_AGE_CHECK_WALLET_MINIMUMS (default 8) different minimums other than the legal ages (18, 21 and ' +
  'CREDENCE_LEGAL_AGES); a further different minimum gets 403 `forbidden` saying so, so successive minimums cannot reveal an exact ' +
  'age. Asking again about a minimum already asked is always allowed. The wallet owner sees every question at GET /compliance/age-checks.';

/** The wallet of a did:credence DID (its last part; the path pattern was validated): its session reads it. */
const didWallet = (req: FastifyRequest) => (req.params as { did: string }).did.split(':').pop()!;

export function registerComplianceRoutes(app: App, kyc: KycService, age: AgeService, ageChecks: AgeChecks) {
  app.register(
    async (s) => {
      s.post<{ Body: InitiateBody }>(
        '/compliance/kyc/initiate',
        {
          config: { auth: 'jwt', idempotent: true },
          schema: {
            operationId: 'compliance.initiateKyc',
            tags,
            summary: 'Start a KYC verification session',
            description:
              `The DID must exist (404) and belong to the signed-in wallet (403). \`provider\` is exactly \`${KYC_PROVIDERS[0]}\` (default) or ` +
              `\`${KYC_PROVIDERS[1]}\`; anything else is 400. Send the person to \`redirectUrl\` (also \`sessionUrl\`); the session expires after ` +
              "3600 s. The status becomes pending; the provider's signed callback moves it to approved or rejected. A new session replaces an " +
              'older pending one; a DID whose KYC is approved cannot start another (409).',
            body: InitiateBody,
            response: { 200: KycSession, ...errorResponses(403, 404, 409, 502, 503) },
          },
        },
        async (req) => kyc.initiate(req.body.did, req.body.provider, req.user!.address),
      );

      s.get<{ Params: { did: string } }>(
        '/compliance/kyc/:did/status',
        {
          config: { auth: 'apiKey', cost: 1, owner: didWallet },
          schema: {
            operationId: 'compliance.getKycStatus',
            tags,
            summary: "A DID's KYC status",
            description:
              'From the newest session: `pending` (awaiting the person), `approved` (with `kycLevel` basic or full) or `rejected` ' +
              '(`reason` says why; a session that expired unfinished is reported rejected with reason `expired`). 404 when the DID is ' +
              'unknown or never started a session. Counts 1 query. ' +
              "The DID's wallet may also read it with its session alone (Authorization: Bearer, no API key, no quota); another wallet's session gets 403.",
            params: DidParams,
            response: { 200: KycStatus },
          },
        },
        async (req) => kyc.status(req.params.did),
      );

      s.post<{ Params: { did: string }; Body: RevokeKycBody }>(
        '/compliance/kyc/:did/revoke',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'compliance.revokeKyc',
            tags,
            summary: "Revoke a wallet's KYC",
            description:
              'Administrators only (403 otherwise). Every approved KYC session of the wallet becomes revoked (its status reads ' +
              '`rejected` with a `revoked by an administrator` reason, and scores treat it as a rejected KYC), the birth date and its commitment are deleted at once (age proofs made from it stop ' +
              'verifying, verify-age and age-verify answer `no_approved_kyc`, no new age or KYCVerified proof can be made), and the KYCVerified ' +
              'and AgeOver credentials the service signed for the wallet are revoked through the status list. 409 when there is no approved KYC. ' +
              'A new KYC session may be started afterwards.',
            params: DidParams,
            body: RevokeKycBody,
            response: { 200: RevokedKyc, ...errorResponses(403, 404, 409) },
          },
        },
        async (req) => kyc.revoke(req.params.did, req.user!, req.body?.reason),
      );

      // The callback is verified over the exact bytes received, so this scope keeps the raw body.
      s.register(async (cb) => {
        cb.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
          req.rawBody = body as string;
          try {
            done(null, JSON.parse(body as string));
          } catch (e) {
            done(e as Error, undefined);
          }
        });
        cb.post<{ Params: { provider: string } }>(
          '/compliance/kyc/callback/:provider',
          {
            config: { auth: 'public' },
            schema: {
              operationId: 'compliance.kycCallback',
              tags,
              summary: 'Result notification from a KYC provider',
              description:
                'Called by the provider (the built-in one signs with `X-Credence-Kyc-Signature: sha256=<HMAC-SHA256 of the raw body>`). ' +
                'A missing or bad signature gets 401 and changes nothing. Replaying a result already recorded is answered 200 with ' +
                '`duplicate: true`; a different result for a finished session, or any result for an expired or superseded session, is 409.',
              params: CallbackParams,
              response: { 200: CallbackResponse, ...errorResponses(401, 409) },
            },
          },
          async (req) => kyc.callback(req.params.provider, req.rawBody ?? '', req.body, req.headers),
        );
      });

      s.get<{ Querystring: AgeChecksQuery }>(
        '/compliance/age-checks',
        {
          config: { auth: 'jwt' },
          schema: {
            operationId: 'compliance.listAgeChecks',
            tags,
            summary: 'Who asked about my age',
            description:
              'For the signed-in wallet (the JWT subject): every age question asked about it (verify-age, age-verify, and age proofs from ' +
              '/reputation/prove), newest first: the API key id and the wallet that owns the key, the minimum age, the route, when, and the ' +
              'answer (`verified`; null while a proof is being made). Questions refused by the age-privacy allowance are not listed: they ' +
              'were never answered. The body is an array: the next page is in the `Link` header (see Pagination).',
            querystring: AgeChecksQuery,
            response: { 200: Type.Array(AgeCheck) },
          },
        },
        async (req, reply) => {
          const page = await ageChecks.listFor(req.user!.address, req.query.limit ?? 100, req.query.cursor);
          linkNext(req, reply, page.nextCursor);
          return page.items;
        },
      );

      s.post<{ Body: VerifyAgeBody }>(
        '/compliance/verify-age',
        {
          config: { auth: 'apiKey', cost: 1, sandbox: true },
          schema: {
            operationId: 'compliance.verifyAge',
            tags,
            summary: 'Prove a wallet holder is at least minimumAge',
            description:
              'A Groth16 proof over the salted commitment of the KYC-approved birth date. Without an approved KYC, or when the person is ' +
              'younger than minimumAge, the answer is 200 with `verified: false` and `proof: null` (`reason` says which) rather than 422, ' +
              'so a compliance check reads one shape. 503 when the proof service is not ready. Counts 1 query.' +
              AGE_PRIVACY +
              SANDBOX_AGE,
            body: VerifyAgeBody,
            response: { 200: VerifyAgeResponse, ...errorResponses(403, 503) },
          },
        },
        async (req) => {
          const { walletAddress, minimumAge } = req.body;
          const r = await ageChecks.service.guard(
            askerOf(req),
            walletAddress,
            minimumAge,
            'verify-age',
            () => age.verify(walletAddress, minimumAge),
            answerOf,
          );
          return {
            proof: r.proof,
            minimumAge: req.body.minimumAge,
            verified: r.verified,
            publicInputs: r.publicInputs,
            reason: r.reason,
            environment: req.environment ?? 'live',
          };
        },
      );

      s.post<{ Body: AgeVerifyBody }>(
        '/compliance/age-verify',
        {
          config: { auth: 'apiKey', cost: 1, sandbox: true },
          schema: {
            operationId: 'compliance.ageVerifyForJurisdiction',
            tags,
            summary: 'Age check against a jurisdiction',
            description:
              'Like verify-age; without `minimumAge` the legal age of `jurisdictionCode` (ISO 3166-2 country-region, e.g. US-CA) applies: ' +
              '21 in US states, 18 elsewhere, unless CREDENCE_LEGAL_AGES configures the region or country. Counts 1 query.' +
              AGE_PRIVACY +
              SANDBOX_AGE,
            body: AgeVerifyBody,
            response: { 200: AgeVerifyResponse, ...errorResponses(403, 503) },
          },
        },
        async (req) => {
          const jurisdictionCode = req.body.jurisdictionCode.toUpperCase();
          const minimumAge = req.body.minimumAge ?? age.legalAge(jurisdictionCode);
          const r = await ageChecks.service.guard(
            askerOf(req),
            req.body.walletAddress,
            minimumAge,
            'age-verify',
            () => age.verify(req.body.walletAddress, minimumAge),
            answerOf,
          );
          return {
            walletAddress: toChecksum(req.body.walletAddress),
            jurisdictionCode,
            minimumAge,
            verified: r.verified,
            proof: r.proof,
            publicInputs: r.publicInputs,
            reason: r.reason,
            snarkjs: snarkjsForm(r.proof),
            environment: req.environment ?? 'live',
          };
        },
      );
    },
    { prefix: '/api/v1' },
  );
}
