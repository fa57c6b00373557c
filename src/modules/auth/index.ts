// Sign-In with Ethereum: GET /api/v1/auth/nonce and POST /api/v1/auth/verify (JWT issuance).
import { apiRoutes, type Module } from '../../platform/http/types.js';
import { errorResponses } from '../../platform/openapi.js';
import { NonceResponse, VerifyBody, VerifyResponse } from './schemas.js';
import { createSiweService } from './service.js';
import { registerOwnerSessions } from '../../platform/auth/plugin.js';

export const authModule: Module = {
  name: 'auth',
  register(app, ctx) {
    // Sessions read their own wallet's records: every later module's owner routes check it, after ENS
    // names are resolved (platform hooks, ENS included, are registered before any module).
    registerOwnerSessions(app);
    const siwe = createSiweService(ctx, () => {
      const a = app.server.address();
      return a && typeof a === 'object' ? a.port : ctx.config.port;
    });
    apiRoutes(app, (s) => {
      s.get(
        '/auth/nonce',
        {
          // environment-neutral: a nonce or a sign-in is neither live nor test data, so test credentials may call them
          config: { auth: 'public', sandbox: true },
          schema: {
            operationId: 'auth.getNonce',
            tags: ['Auth'],
            summary: 'Get a Sign-In with Ethereum nonce',
            description: 'Returns a fresh nonce for an EIP-4361 message. Each nonce is valid for 5 minutes and for one sign-in.',
            response: { 200: NonceResponse },
          },
        },
        async () => siwe.issueNonce(),
      );
      s.post(
        '/auth/verify',
        {
          config: { auth: 'public', sandbox: true },
          schema: {
            operationId: 'auth.verifySignature',
            tags: ['Auth'],
            summary: 'Sign in with Ethereum',
            description:
              'Verifies a signed EIP-4361 message and returns a JWT valid for 1 hour (claims sub = checksummed address, iat, exp, roles). ' +
              "The message's domain must be the configured domain (CREDENCE_SIWE_DOMAIN, else the host of CREDENCE_PUBLIC_URL, else the hosts the service prints and listens on: " +
              "localhost:PORT and 127.0.0.1:PORT when it listens on loopback or every interface; never the request's Host) " +
              'or one listed in CREDENCE_SIWE_DOMAINS, its uri on one of those domains, its chainId a supported chain (or one of CREDENCE_SIWE_CHAIN_IDS), ' +
              'its issuedAt not in the future (60 s of clock skew allowed), its nonce one issued by ' +
              'GET /auth/nonce and not yet used; expirationTime and notBefore are honoured. Smart-contract wallets (EIP-1271) verify where an RPC URL for the chain is configured. ' +
              'Addresses listed in CREDENCE_ADMIN_ADDRESSES get the role admin (re-checked against the settings on every call). A bad signature, domain, uri, chain, time or nonce gives 401.\n\n' +
              '**Environment**: `environment` (default `live`) chooses the world the token works in. With `test` the token (claim `env: "test"`) works ' +
              'as a cred_test_ key does, on every route: test disputes, debt claims and webhooks only (a live record is 404), sandbox scores and ' +
              'sandbox proofs (`environment: "test"`, never valid for live verification), hub connections that receive test events only; routes ' +
              'without a sandbox answer 403. A token of one environment sent beside an API key of the other (a test token with a live key, a live token with a test key) ' +
              'is refused with 401 naming both, never settled silently. The answer repeats `environment`.',
            body: VerifyBody,
            response: { 200: VerifyResponse, ...errorResponses(401) },
          },
        },
        async (req) => {
          const signedIn = await siwe.verify(req.body.message, req.body.signature, req.body.environment ?? 'live');
          // A signed sign-in proves the wallet controls its key: its DID earns IDENTITY credit from now on. A failure
          // here only delays that credit to the next sign-in, so it never fails the sign-in itself. A test sign-in
          // leaves no trace in live data: it earns nothing.
          if (signedIn.environment === 'live')
            await ctx.services.identity
              .recordControl(signedIn.address, 'siwe')
              .catch((err) => req.log.error({ err }, 'recording proved wallet control failed'));
          return signedIn;
        },
      );
    });
  },
};
