// Identity routes: DID registration, resolution and update; credential issue, list, verify and revoke. One file
// each under routes/; this registers them in the OpenAPI document's order.
import type { App } from '../../platform/http/types.js';
import type { CredentialService } from './credentials.js';
import type { DidService } from './service.js';
import { registerDid } from './routes/register-did.js';
import { verifyCredential } from './routes/verify-credential.js';
import { resolveDid } from './routes/resolve-did.js';
import { updateDid } from './routes/update-did.js';
import { deactivateDid } from './routes/deactivate-did.js';
import { issueCredential } from './routes/issue-credential.js';
import { listCredentials } from './routes/list-credentials.js';
import { revokeCredential } from './routes/revoke-credential.js';

const ROUTES = [registerDid, verifyCredential, resolveDid, updateDid, deactivateDid, issueCredential, listCredentials, revokeCredential];

export function registerIdentityRoutes(app: App, dids: DidService, creds: CredentialService) {
  app.register(
    async (s) => {
      for (const route of ROUTES) route(s, { dids, creds });
    },
    { prefix: '/api/v1' },
  );
}
