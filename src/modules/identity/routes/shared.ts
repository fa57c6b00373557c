// What the identity route files share: the services they call, their tag and the owner check of a DID's routes.
import type { CredentialService } from '../credentials.js';
import type { DidService } from '../service.js';

export interface IdentityRouteDeps {
  dids: DidService;
  creds: CredentialService;
}

export const tags = ['Identity'];

/** The wallet of a did:credence DID (its last part; the path pattern was validated): its session reads it. */
export const didWallet = (req: { params: unknown }) => (req.params as { did: string }).did.split(':').pop()!;
