// POST /identity/credentials/verify: checks a credential JWT's signature, expiry and revocation.
import type { App } from '../../../platform/http/types.js';
import { VerifyBody, VerifyResponse } from '../schemas.js';
import { tags, type IdentityRouteDeps } from './shared.js';

export function verifyCredential(s: App, { creds }: IdentityRouteDeps): void {
  s.post<{ Body: { jwt: string } }>(
    '/identity/credentials/verify',
    {
      config: { auth: 'public' },
      schema: {
        operationId: 'identity.verifyCredential',
        tags,
        summary: 'Verify a credential JWT',
        description:
          'Checks the ES256K signature against the issuer DID document as this service resolves it, and reports expiry and revocation. ' +
          '`valid` is true only when the signature checks out and the credential is neither expired, revoked nor not yet valid; ' +
          '`reason` says why not. A token that cannot be read is answered with `valid: false, reason: "malformed"`, not an error.',
        body: VerifyBody,
        response: { 200: VerifyResponse },
      },
    },
    async (req) => creds.verify(req.body.jwt),
  );
}
