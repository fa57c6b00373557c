// GET /identity/{did}: the DID record and its document.
import type { App } from '../../../platform/http/types.js';
import { notFound } from '../../../platform/errors.js';
import { toDidRecord } from '../service.js';
import { DidParams, DidRecord } from '../schemas.js';
import { didWallet, tags, type IdentityRouteDeps } from './shared.js';

export function resolveDid(s: App, { dids }: IdentityRouteDeps): void {
  s.get<{ Params: { did: string } }>(
    '/identity/:did',
    {
      config: { auth: 'apiKey', cost: 0, owner: didWallet },
      schema: {
        operationId: 'identity.resolveDid',
        tags,
        summary: 'Resolve a DID',
        description:
          'The DID record with its document (a JSON string). Accepts `did:credence:0x...` (chain 1) and any hex case. ' +
          'Free (counts 0 queries). Cached 5 minutes per DID; an update evicts the entry on every instance. ' +
          "The DID's wallet may also read it with its session alone (Authorization: Bearer, no API key); another wallet's session gets 403.",
        params: DidParams,
        response: { 200: DidRecord },
      },
    },
    async (req) => {
      const row = await dids.resolve(req.params.did);
      if (!row) throw notFound(`No DID ${req.params.did} is registered.`);
      return toDidRecord(row);
    },
  );
}
